package dev.wsjava.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

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
    for (double v : new double[] {300_000, 280_000, 320_000}) {
      r.add("2", "wsjava-nio", "msgs_per_s", v);
    }
    for (double v : new double[] {200_000, 100_000, 210_000, 190_000}) {
      r.add("2", "netty", "msgs_per_s", v);
    }
    r.add("2", "node", "msgs_per_s", 900_000); // not a JVM peer: never the ratio's reference
    r.fail("2", "jetty", "did not start: port in use");
    return r;
  }

  private static Report.Context context() {
    return new Report.Context("> **Quick smoke run**", "note under the title",
        List.of(Map.entry("CPU", "Test CPU")), List.of("one method line"),
        Map.of("netty", "Netty 4.2"));
  }

  @Test
  void theTableShowsMedianAndSpreadAndAFailedTargetStaysInIt() throws Exception {
    StringBuilder md = new StringBuilder();
    Report.table(md, Scenarios.SMALL, smallMessages());
    assertThat(md.toString())
        .contains("| **wsjava-nio** | 300,000 (280,000–320,000) |")
        .contains("| netty | 195,000 (100,000–210,000) |")
        .contains("| jetty | **failed** | **failed** | **failed** | **failed** | **failed** | failed: did not start: port in use |");
  }

  @Test
  void ratiosCompareWsjavaWithTheBestJvmPeerOnly() {
    StringBuilder md = new StringBuilder();
    Report.ratios(md, Scenarios.SMALL, smallMessages());
    // 300,000 / 195,000 (netty, not node's 900,000).
    assertThat(md.toString()).contains("| 64 in flight ↑ | netty 195,000 msg/s | 1.54× |");
  }

  @Test
  void lowerIsBetterMetricsPickTheSmallestPeer() {
    Results r = new Results();
    r.add("1", "wsjava-nio", "p50_us", 30);
    r.add("1", "netty", "p50_us", 40);
    r.add("1", "jetty", "p50_us", 60);
    StringBuilder md = new StringBuilder();
    Report.ratios(md, Scenarios.LATENCY, r);
    assertThat(md.toString()).contains("| p50 ↓ | netty 40.0 µs | 0.75× |");
  }

  @Test
  void theReportAndAWellFormedChartPerScenarioAreWritten(@TempDir Path dir) throws Exception {
    List<Path> files = Report.write(dir, context(), smallMessages());
    assertThat(files).containsExactly(dir.resolve("2-small-messages.svg"), dir.resolve("RESULTS.md"));
    String md = Files.readString(dir.resolve("RESULTS.md"));
    assertThat(md).startsWith("# wsjava end-to-end benchmarks\n\n> **Quick smoke run**")
        .contains("| CPU | Test CPU |", "- one method line", "| netty | Netty 4.2 |",
            "## 2. Small messages", "![Small messages](2-small-messages.svg)");
    assertThat(md).doesNotContain("## 1. Latency");

    String svg = Files.readString(dir.resolve("2-small-messages.svg"));
    Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(dir.resolve("2-small-messages.svg").toFile());
    assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
    assertThat(svg).contains("2. Small messages", "note under the title",
        "64 in flight, 256 in flight (msg/s) — higher is better", "300,000 msg/s", "195,000 msg/s",
        "failed: did not start: port in use", "font-weight=\"bold\">wsjava-nio<");
    // Bars scale to the largest value drawn (node's 900,000 is the full width of 470 px).
    assertThat(svg).contains("width=\"470.0\"").contains("width=\"156.7\"");
  }
}
