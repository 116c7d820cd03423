package dev.wsjava.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuiteTest {

  @Test
  void eachRunStartsOneTargetFurtherOnSoEveryTargetTakesEveryPlace() {
    List<String> targets = List.of("wsjava-nio", "netty", "vertx");
    assertThat(Suite.order(targets, 1)).containsExactly("wsjava-nio", "netty", "vertx");
    assertThat(Suite.order(targets, 2)).containsExactly("netty", "vertx", "wsjava-nio");
    assertThat(Suite.order(targets, 3)).containsExactly("vertx", "wsjava-nio", "netty");
    assertThat(Suite.order(targets, 4)).containsExactly("wsjava-nio", "netty", "vertx");
    assertThat(Suite.order(List.of("netty"), 5)).containsExactly("netty");
    assertThat(targets).containsExactly("wsjava-nio", "netty", "vertx"); // not rotated in place
  }
}
