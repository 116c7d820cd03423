package dev.wsjava.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {
  @TempDir Path dir;

  private static Result result(String id, Verdict v, String description) {
    FrameRecord sent = new FrameRecord(true, 0, 1, true, 0, true, 5, "48656c6c6f", "");
    FrameRecord got = new FrameRecord(false, 2, 8, true, 0, false, 2, "03ea", "");
    return new Result(id, description, "OK: echo", v, v, Verdict.OK, v == Verdict.OK ? "" : "why",
        12, "peer", 1002, "", null, false, List.of(sent, got), 3);
  }

  @Test
  void writesOneJsonObjectPerCaseWithItsFrames() throws Exception {
    Report.write(dir, "peer", List.of(result("1.1.1", Verdict.OK, "first"),
        result("6.4.1", Verdict.FAILED, "second")));
    String json = Files.readString(dir.resolve("index.json"));
    assertThat(json).startsWith("[{\"id\":\"1.1.1\",\"group\":1,\"groupTitle\":\"Framing\"")
        .contains("\"verdict\":\"FAILED\"", "\"behaviourClose\":\"OK\"", "\"durationMs\":12",
            "\"peerCloseCode\":1002", "\"suiteCloseCode\":null",
            "{\"dir\":\"out\",\"ms\":0,\"opcode\":1,\"type\":\"text\",\"fin\":true,\"rsv\":0,"
                + "\"masked\":true,\"length\":5,\"head\":\"48656c6c6f\",\"note\":\"\"}",
            "\"framesOmitted\":3")
        .endsWith("}]");
  }

  @Test
  void theHtmlPageIsSelfContainedAndEscapesWhatPeersSay() throws Exception {
    Report.write(dir, "a <peer>", List.of(
        result("7.1.1", Verdict.NON_STRICT, "close with </script><b>bold</b>")));
    String html = Files.readString(dir.resolve("index.html"));
    assertThat(html).contains("<title>wsjava conformance: a &lt;peer&gt;</title>",
        "<td class=\"NON-STRICT\">NON-STRICT</td>",
        "close with &lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;",
        "\\u003c/script\\u003e",
        "closed by peer, peer code 1002, not clean",
        "<td>7</td><td>Close handling</td>")
        .doesNotContain("<script src", "<link ", "http://", "https://");
    assertThat(html.split("</script>", -1)).hasSize(3);
  }

  @Test
  void summarisesVerdictCounts() {
    assertThat(Report.summary(List.of(result("1.1.1", Verdict.OK, "a"),
        result("1.1.2", Verdict.OK, "b"), result("6.4.1", Verdict.NON_STRICT, "c"))))
        .isEqualTo("3 cases: 2 OK, 1 NON-STRICT, 0 FAILED");
  }
}
