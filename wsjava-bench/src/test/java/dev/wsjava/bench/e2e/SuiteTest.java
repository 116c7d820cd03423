package dev.wsjava.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

  @Test
  void wrksCpuTimeIsTheShellsChildrenLineOfTimes() {
    String out = "Requests/sec: 1000.00\n0m0.002s 0m0.001s\n0m1.250s 0m2.500s";
    assertThat(Suite.childrenCpuMicros(out)).isEqualTo(3_750_000L);
    assertThat(Suite.childrenCpuMicros("Requests/sec: 1000.00")).isEqualTo(-1);
  }

  @Test
  void variantsOfWsjavaRunOnlyInTheScenariosThatAskAboutThem() {
    assertThat(Peers.server("wsjava-nio-spin0").runsIn("1")).isTrue();
    assertThat(Peers.server("wsjava-nio-spin0").runsIn("2")).isTrue();
    assertThat(Peers.server("wsjava-nio-spin0").runsIn("3")).isFalse();
    assertThat(Peers.server("wsjava-nio-level3").runsIn("6")).isTrue();
    assertThat(Peers.server("netty").runsIn("4c")).isTrue();
    assertThat(Peers.kind("beast")).isEqualTo(Peers.Kind.NATIVE);
    assertThat(Peers.kind("node")).isEqualTo(Peers.Kind.REFERENCE);
    assertThat(Peers.kind("raw")).isEqualTo(Peers.Kind.REFERENCE);
  }

  @Test
  void aTuningVariantIsItsTargetStartedWithTheTuningOverrides() {
    Peers.Server v = Peers.server("wsjava-blocking+handoffBytes=65536+smallRead=4096");
    assertThat(v.mainClass()).isEqualTo(Peers.server("wsjava-blocking").mainClass());
    assertThat(v.preArgs()).containsExactly("blocking");
    assertThat(Peers.tuningFlags(v.name())).containsExactly(
        "-Dwsjava.tuning.handoffBytes=65536", "-Dwsjava.tuning.smallRead=4096");
    assertThat(Peers.kind(v.name())).isEqualTo(Peers.Kind.WSJAVA);
    assertThat(Peers.tuningFlags("wsjava-nio")).isEmpty();
    assertThat(Peers.server("wsjava-nio+spinUs=20").preArgs()).containsExactly("nio", "--spin-us", "20");
    assertThat(Peers.tuningFlags("wsjava-nio+spinUs=20")).isEmpty();
    Peers.Client client = Peers.client("wsjava-nio+writeThroughMaxBytes=1");
    assertThat(client.preArgs()).containsExactly("nio");
    assertThat(Peers.tuningFlags(client.name())).containsExactly("-Dwsjava.tuning.writeThroughMaxBytes=1");
    assertThatThrownBy(() -> Peers.client("okhttp+maxAccepts=1"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Peers.server("netty+maxAccepts=1"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Peers.tuningFlags("wsjava-nio+x=-1"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
