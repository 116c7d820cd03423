package dev.wsjava.cli.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class HaproxyConfigTest {

  @Test
  void aPinnedListenerSendsEveryConnectionToTheLastNodeOnly() {
    String cfg = Haproxy.config("127.0.0.1", 9000, List.of(8081, 8082, 8083), 100, true, 9001);
    assertThat(cfg).contains("bind 127.0.0.1:9000", "balance leastconn")
        .endsWith("\nlisten pinned\n  bind 127.0.0.1:9001\n  server last 127.0.0.1:8083 send-proxy-v2\n");
    assertThat(Haproxy.config("127.0.0.1", 9000, List.of(8081, 8082, 8083), 100, false, 9001))
        .endsWith("  server last 127.0.0.1:8083\n");
    assertThat(Haproxy.config("127.0.0.1", 9000, List.of(8081, 8082, 8083), 100, true))
        .doesNotContain("pinned");
  }

  @Test
  void thePrintedConfigurationTakesThePinnedPortBeforeTheNodes() {
    PrintStream out = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      Haproxy.main(new String[] {"127.0.0.1", "9000", "100", "plain", "pinned=9001", "8081", "8082"});
    } finally {
      System.setOut(out);
    }
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .isEqualTo(Haproxy.config("127.0.0.1", 9000, List.of(8081, 8082), 100, false, 9001));
  }
}
