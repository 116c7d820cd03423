package dev.wsjava.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A judge that cannot fail is worthless: deliberately broken peers get FAILED, for the right reason. */
class BrokenPeerTest {
  private static final Settings QUICK = Settings.DEFAULTS.withCloseTimeout(Duration.ofMillis(500));

  private static Map<String, Result> run(LaxEchoServer.Flaw flaw, String... cases)
      throws Exception {
    try (LaxEchoServer server = new LaxEchoServer(flaw)) {
      FuzzingClient.Options o =
          FuzzingClient.Options.of(server.uri()).cases(cases).settings(QUICK);
      List<Result> results = FuzzingClient.run(o, r -> {});
      return results.stream().collect(Collectors.toMap(Result::id, r -> r));
    }
  }

  @Test
  void aLaxPeerPassesPlainEchoesButFailsWhereItShouldHaveRefused() throws Exception {
    Map<String, Result> r = run(LaxEchoServer.Flaw.ACCEPTS_EVERYTHING, "1.1.2", "1.2.8");
    assertThat(r.get("1.1.2").verdict()).isEqualTo(Verdict.OK);
    assertThat(r.get("1.2.8").verdict()).isEqualTo(Verdict.OK);
  }

  @Test
  void aPeerThatAcceptsAnUnmaskedClientFrameFails() throws Exception {
    Result r = run(LaxEchoServer.Flaw.ACCEPTS_EVERYTHING, "1.3.1").get("1.3.1");
    assertThat(r.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(r.reason()).contains("expected no message", "timed out");
  }

  @Test
  void aServerThatMasksItsFramesFails() throws Exception {
    Result r = run(LaxEchoServer.Flaw.MASKS_ITS_FRAMES, "1.1.2").get("1.1.2");
    assertThat(r.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(r.reason()).contains("a masked frame from the server (RFC 6455 §5.1)");
  }

  @Test
  void aPeerThatNeverAnswersTheCloseFailsWithTheTimeoutNamed() throws Exception {
    Result r = run(LaxEchoServer.Flaw.IGNORES_CLOSE, "1.1.2").get("1.1.2");
    assertThat(r.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(r.behaviour()).isEqualTo(Verdict.OK);
    assertThat(r.closeBehaviour()).isEqualTo(Verdict.FAILED);
    assertThat(r.reason()).contains("timed out waiting for the peer's close frame within 500 ms");
  }
}
