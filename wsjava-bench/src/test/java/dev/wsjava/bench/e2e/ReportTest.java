package dev.wsjava.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class ReportTest {

  private static Results smallMessages() {
    Results r = new Results();
    double[] ours = {300_000, 280_000, 320_000};
    double[] netty = {200_000, 100_000, 210_000, 190_000};
    for (int run = 1; run <= netty.length; run++) {
      r.startRun(run);
      if (run <= ours.length) {
        r.add("2", "wsjava-nio", "msgs_per_s", ours[run - 1]);
      }
      r.add("2", "netty", "msgs_per_s", netty[run - 1]);
      if (run == 1) {
        r.add("2", "node", "msgs_per_s", 900_000); // not a JVM peer: never the ratio's reference
        r.fail("2", "jetty", "did not start: port in use");
      }
    }
    return r;
  }

  private static Report.Context context() {
    return new Report.Context("> **Quick smoke run**", "note under the title",
        List.of(Map.entry("CPU", "Test CPU")), List.of("one method line"),
        List.of(new Report.Table("Targets", List.of("target", "what", "contract check"),
            List.of(List.of("netty", "Netty 4.2", "TCP_NODELAY on")))));
  }

  @Test
  void theTableShowsMedianAndSpreadAndAFailedTargetStaysInIt() throws Exception {
    StringBuilder md = new StringBuilder();
    Report.table(md, Scenarios.SMALL, smallMessages());
    assertThat(md.toString())
        .contains("| **wsjava-nio** | 300,000 (280,000–320,000) |")
        .contains("| netty | 195,000 (100,000–210,000) |")
        .contains("| jetty | **failed** | **failed** | **failed** | **failed** | failed: did not start: port in use |");
  }

  @Test
  void ratiosCompareWsjavaWithTheBestJvmPeerOnly() {
    StringBuilder md = new StringBuilder();
    Report.ratios(md, Scenarios.SMALL, smallMessages());
    // 300,000 / 195,000 (netty, not node's 900,000); per run 1.5, 2.8 and 1.52 (run 4 has no
    // figure of ours).
    assertThat(md.toString()).contains("| 64 in flight ↑ | netty 195,000 msg/s | 1.54× **ahead** · per run"
        + " 1.52× (1.50–2.80), even or ahead in 3 of 3 |");
    assertThat(md.toString()).doesNotContain("native"); // no native server took part
  }

  @Test
  void theJakartaTargetIsComparedWithTheOtherContainersAndWithTheCoreApiOnly() {
    String out = jakartaReport(Map.of("jakarta-wsjava", 300_000, "jakarta-tomcat", 150_000,
        "jakarta-jetty", 200_000, "wsjava-nio", 320_000, "netty", 400_000));
    // The core API's target against the JVM peers, with no Jakarta container among them.
    assertThat(out).contains("| 64 in flight ↑ | netty 400,000 msg/s | 0.80× behind |\n");
    assertThat(out).doesNotContain("jakarta-wsjava ÷ JVM");
    // The Jakarta target against the best container (Jetty) and against wsjava-nio.
    assertThat(out).contains("| 64 in flight ↑ | jakarta-jetty 200,000 msg/s | 1.50× **ahead** |"
        + " wsjava-nio 320,000 msg/s | 0.94× behind |");
  }

  @Test
  void eachJakartaFormIsComparedWithTheContainersOfItsOwnForm() {
    String out = jakartaReport(Map.of("jakarta-wsjava", 300_000, "jakarta-jetty", 200_000,
        "jakarta-wsjava-whole", 330_000, "jakarta-tomcat-whole", 220_000,
        "jakarta-jetty-whole", 110_000, "wsjava-nio", 330_000));
    assertThat(out).doesNotContain("jakarta-wsjava-whole ÷ JVM");
    // Parts against the parts container only (Jetty's 200,000, not Tomcat's whole 220,000) ...
    assertThat(out).contains("| 64 in flight ↑ | jakarta-jetty 200,000 msg/s | 1.50× **ahead** |"
        + " wsjava-nio 330,000 msg/s | 0.91× behind |");
    // ... and whole messages against the best whole-message container.
    assertThat(out).contains("jakarta-wsjava-whole ÷ the best of the other Jakarta containers"
        + " (Tomcat, Jetty, Tyrus, the same annotated endpoint, whole messages)");
    assertThat(out).contains("| 64 in flight ↑ | jakarta-tomcat-whole 220,000 msg/s | 1.50× **ahead** |"
        + " wsjava-nio 330,000 msg/s | 1.00× even |");
  }

  /** Scenario 2's ratios and Jakarta tables for one run of these targets' rates at 64 in flight. */
  private static String jakartaReport(Map<String, Integer> rates) {
    Results r = new Results();
    r.startRun(1);
    rates.forEach((target, rate) -> r.add("2", target, "msgs_per_s", rate));
    StringBuilder md = new StringBuilder();
    Report.ratios(md, Scenarios.SMALL, r);
    Report.jakartaRatios(md, Scenarios.SMALL, r);
    return md.toString();
  }

  @Test
  void perRunRatiosTakeEachRunsBestPeerAndCountTheRunsBehind() {
    Results r = new Results();
    // ours, netty, jetty; run 4 is even as printed (1.002×)
    double[][] p50 = {{30, 40, 35}, {50, 45, 60}, {20, Double.NaN, 25}, {50.1, 50, 70}};
    for (int run = 1; run <= 4; run++) {
      r.startRun(run);
      r.add("1", "wsjava-nio", "p50_us", p50[run - 1][0]);
      if (!Double.isNaN(p50[run - 1][1])) {
        r.add("1", "netty", "p50_us", p50[run - 1][1]);
      }
      r.add("1", "jetty", "p50_us", p50[run - 1][2]);
    }
    StringBuilder md = new StringBuilder();
    Report.ratios(md, Scenarios.LATENCY, r);
    // Medians: ours 40, netty 45, jetty 47.5. Per run: 30/35, 50/45 (behind), 20/25, 50.1/50.
    // Ours ranged 20-50.1 and netty 40-50: the ranges overlap, so 0.89 is even, not a lead.
    assertThat(md.toString()).contains("| p50 ↓ | netty 45.0 µs | 0.89× even · per run 0.93× (0.80–1.11),"
        + " even or ahead in 3 of 4 |");
  }

  @Test
  void aSecondValueForTheSameRunIsABug() {
    Results r = new Results();
    r.startRun(2);
    r.add("1", "netty", "p50_us", 40);
    assertThatThrownBy(() -> r.add("1", "netty", "p50_us", 41))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("run 2");
  }

  @Test
  void lowerIsBetterMetricsPickTheSmallestPeer() {
    Results r = new Results();
    r.add("1", "wsjava-nio", "p50_us", 30);
    r.add("1", "netty", "p50_us", 40);
    r.add("1", "jetty", "p50_us", 60);
    StringBuilder md = new StringBuilder();
    Report.ratios(md, Scenarios.LATENCY, r);
    assertThat(md.toString()).contains("| p50 ↓ | netty 40.0 µs | 0.75× **ahead** |");
  }

  @Test
  void aRatioWithinFivePercentIsEvenAndOutsideItAheadOrBehindByTheMetricsDirection() {
    Stats one = new Stats(100, 100, 100, 1);
    assertThat(Report.verdict(1.05, one, one, List.of(), true)).isEqualTo("even");
    assertThat(Report.verdict(0.95, one, one, List.of(), true)).isEqualTo("even");
    assertThat(Report.verdict(1.06, one, one, List.of(), true)).isEqualTo("**ahead**");
    assertThat(Report.verdict(1.06, one, one, List.of(), false)).isEqualTo("behind");
    assertThat(Report.verdict(0.80, one, one, List.of(), false)).isEqualTo("**ahead**");
  }

  @Test
  void perRunRatiosOnBothSidesOfOneMakeARatioEven() {
    Stats ours = new Stats(130, 120, 140, 3);
    Stats peer = new Stats(100, 90, 110, 3); // ranges apart: only the per-run ratios say even
    assertThat(Report.verdict(1.3, ours, peer, List.of(1.4, 0.98, 1.3), true)).isEqualTo("even");
    assertThat(Report.verdict(1.3, ours, peer, List.of(1.4, 1.2, 1.3), true)).isEqualTo("**ahead**");
  }

  @Test
  void nativeServersGetTheirOwnColumnAndTheCpuOfBothSidesStandsBesideEachRatio() {
    Results r = new Results();
    r.add("1", "wsjava-nio", "p50_us", 20);
    r.add("1", "wsjava-nio", "cpu_us_per_msg", 37);
    r.add("1", "wsjava-nio", "client_cpu_us_per_msg", 19);
    r.add("1", "netty", "p50_us", 70);
    r.add("1", "netty", "cpu_us_per_msg", 24);
    r.add("1", "netty", "client_cpu_us_per_msg", 18);
    r.add("1", "beast", "p50_us", 40);
    r.add("1", "beast", "cpu_us_per_msg", 12);
    r.add("1", "beast", "client_cpu_us_per_msg", 18.5);
    r.add("1", "gorilla", "p50_us", 50);
    r.add("1", "node", "p50_us", 10); // a reference: never in a ratio
    StringBuilder md = new StringBuilder();
    Report.ratios(md, Scenarios.LATENCY, r);
    assertThat(md.toString())
        .contains("| metric | best JVM peer | wsjava-nio ÷ JVM | best native | wsjava-nio ÷ native |")
        .contains("| p50 ↓ | netty 70.0 µs | 0.29× **ahead** · CPU server 37.00 vs 24.00 µs, client 19.00"
            + " vs 18.00 µs | beast 40.0 µs | 0.50× **ahead** · CPU server 37.00 vs 12.00 µs, client"
            + " 19.00 vs 18.50 µs |")
        .contains("| server per echo ↓ | netty 24.00 µs | 1.54× behind | beast 12.00 µs | 3.08× behind |");
    StringBuilder cpu = new StringBuilder();
    Report.cpuTable(cpu, Scenarios.LATENCY, r);
    assertThat(cpu.toString()).contains("| target | server per echo (µs) | client per echo (µs) |")
        .contains("| **wsjava-nio** | 37.00 | 19.00 |", "| gorilla | – | – |");
  }

  @Test
  void theReportAndAWellFormedChartPerScenarioAreWritten(@TempDir Path dir) throws Exception {
    List<Path> files = Report.write(dir, context(), smallMessages());
    assertThat(files).containsExactly(dir.resolve("2-small-messages.svg"), dir.resolve("RESULTS.md"));
    String md = Files.readString(dir.resolve("RESULTS.md"));
    assertThat(md).startsWith("# wsjava end-to-end benchmarks\n\n> **Quick smoke run**")
        .contains("| CPU | Test CPU |", "- one method line", "## Targets",
            "| target | what | contract check |", "| netty | Netty 4.2 | TCP_NODELAY on |",
            "## 2. Small messages", "![Small messages](2-small-messages.svg)");
    assertThat(md).doesNotContain("## 1. Latency");

    String svg = Files.readString(dir.resolve("2-small-messages.svg"));
    Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(dir.resolve("2-small-messages.svg").toFile());
    assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
    assertThat(svg).contains("2. Small messages", "note under the title",
        "64 in flight, 256 in flight, no window (msg/s) — higher is better", "300,000 msg/s", "195,000 msg/s",
        "failed: did not start: port in use", "font-weight=\"bold\">wsjava-nio<");
    // Bars scale to the largest value drawn (node's 900,000 is the full width of 470 px).
    assertThat(svg).contains("width=\"470.0\"").contains("width=\"156.7\"");
  }
}
