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
  void aPeerThatIgnoresReservedBitsOpcodesAndInvalidUtf8Fails() throws Exception {
    Map<String, Result> r = run(LaxEchoServer.Flaw.ACCEPTS_EVERYTHING,
        "3.1.4", "4.1.1", "6.3.1", "6.7.1", "5.15");
    assertThat(r.values()).allMatch(x -> x.verdict() == Verdict.FAILED);
    assertThat(r.get("3.1.4").reason()).contains("expected no message", "got echo of text");
    assertThat(r.get("4.1.1").reason()).contains("reserved opcode 3");
    assertThat(r.get("6.3.1").reason()).contains("not valid UTF-8");
    assertThat(r.get("6.7.1").reason()).contains("not valid UTF-8");
  }

  @Test
  void aPeerThatEchoesAnInvalidCloseCodeFailsAsTheReferenceGradesIt() throws Exception {
    Map<String, Result> r = run(LaxEchoServer.Flaw.ACCEPTS_EVERYTHING, "7.9.1", "7.9.6", "7.9.9");
    assertThat(r.values()).allMatch(x -> x.verdict() == Verdict.FAILED);
    assertThat(r.get("7.9.6").description()).contains("code 1016");
    assertThat(r.get("7.9.6").reason()).contains("the peer closed with code 1016", "code 1002");
  }

  @Test
  void aPeerThatChecksUtf8OnlyAtTheEndOfAMessageIsNonStrict() throws Exception {
    Map<String, Result> r =
        run(LaxEchoServer.Flaw.CHECKS_UTF8_AT_THE_END, "6.4.1", "6.4.2", "6.3.1", "6.2.1");
    assertThat(r.get("6.4.1").verdict()).isEqualTo(Verdict.NON_STRICT);
    assertThat(r.get("6.4.1").reason()).contains("only after the rest of the message was sent");
    assertThat(r.get("6.4.2").verdict()).isEqualTo(Verdict.NON_STRICT);
    assertThat(r.get("6.3.1").verdict()).isEqualTo(Verdict.OK);
    assertThat(r.get("6.2.1").verdict()).isEqualTo(Verdict.OK);
  }

  @Test
  void aServerThatTakesOverContextAfterGrantingServerNoContextTakeoverFails() throws Exception {
    // 13.1: nothing asked of the server; 13.2: server_no_context_takeover asked, and granted.
    Map<String, Result> r = run(LaxEchoServer.Flaw.KEEPS_CONTEXT_IT_PROMISED_TO_DROP,
        "13.1.4", "13.2.4");
    assertThat(r.get("13.1.4").verdict()).isEqualTo(Verdict.OK);
    assertThat(r.get("13.2.4").verdict()).isEqualTo(Verdict.FAILED);
    assertThat(r.get("13.2.4").reason()).contains("cannot inflate", "no_context_takeover");
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
