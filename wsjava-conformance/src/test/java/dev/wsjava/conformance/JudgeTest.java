package dev.wsjava.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JudgeTest {
  private static final DataMessage HELLO = DataMessage.text("Hello");
  private static final byte[] A = {'a'};
  private static final byte[] B = {'b'};
  private static final byte[] C = {'c'};

  /** What a well-behaved peer shows after the suite closed normally. */
  private static Observation answered(List<DataMessage> messages, List<byte[]> pongs) {
    return new Observation(messages, pongs, List.of(), 1000, "", false, false, false, null, false,
        1000);
  }

  /** The peer closed first with a code. */
  private static Observation peerClosed(int code, DataMessage... messages) {
    return new Observation(List.of(messages), List.of(), List.of(), code, "", true, false, false,
        null, false, code);
  }

  @Test
  void theEchoAndANormalCloseAreOk() {
    Judge.Judgement j = Judge.judge(Expect.echo(HELLO), answered(List.of(HELLO), List.of()));
    assertThat(j.verdict()).isEqualTo(Verdict.OK);
    assertThat(j.reason()).isEmpty();
  }

  @Test
  void aWrongEchoFailsAndSaysWhatCameBack() {
    Judge.Judgement j = Judge.judge(Expect.echo(HELLO),
        answered(List.of(DataMessage.text("Hellp")), List.of()));
    assertThat(j.behaviour()).isEqualTo(Verdict.FAILED);
    assertThat(j.close()).isEqualTo(Verdict.OK);
    assertThat(j.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(j.reason()).contains("expected echo of text(5: 48656c6c6f)", "48656c6c70");
  }

  @Test
  void aBinaryEchoOfATextMessageFails() {
    Judge.Judgement j = Judge.judge(Expect.echo(HELLO),
        answered(List.of(DataMessage.binary(HELLO.payload())), List.of()));
    assertThat(j.verdict()).isEqualTo(Verdict.FAILED);
  }

  @Test
  void failingWithTheExpectedCodeOrDroppingTcpIsOk() {
    Expect e = Expect.fail(1002);
    assertThat(Judge.judge(e, peerClosed(1002)).verdict()).isEqualTo(Verdict.OK);
    Observation dropped = new Observation(List.of(), List.of(), List.of(), null, null, false, true,
        false, null, false, null);
    assertThat(Judge.judge(e, dropped).verdict()).isEqualTo(Verdict.OK);
  }

  @Test
  void failingWithAnotherCodeFails() {
    Judge.Judgement j = Judge.judge(Expect.fail(1002), peerClosed(1000));
    assertThat(j.close()).isEqualTo(Verdict.FAILED);
    assertThat(j.reason()).contains("closed with code 1000", "1002");
  }

  @Test
  void aPeerThatNeverFailsTimesOutAsFailed() {
    Observation silent = new Observation(List.of(), List.of(), List.of(), null, null, false, false,
        false, "the peer to fail the connection within 3000 ms", false, null);
    Judge.Judgement j = Judge.judge(Expect.fail(1002), silent);
    assertThat(j.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(j.reason()).contains("timed out waiting for the peer to fail the connection");
  }

  @Test
  void losingTheEchoOfWhatCameBeforeTheViolationIsNonStrict() {
    Expect e = Expect.fail(1002, HELLO);
    assertThat(Judge.judge(e, peerClosed(1002, HELLO)).verdict()).isEqualTo(Verdict.OK);
    assertThat(Judge.judge(e, peerClosed(1002)).verdict()).isEqualTo(Verdict.NON_STRICT);
  }

  @Test
  void failingOnlyAfterTheRestOfTheMessageIsNonStrict() {
    Expect e = Expect.fail(1007).failingFast();
    Observation late = new Observation(List.of(), List.of(), List.of(), 1007, "", true, false,
        true, null, false, 1007);
    Judge.Judgement j = Judge.judge(e, late);
    assertThat(j.verdict()).isEqualTo(Verdict.NON_STRICT);
    assertThat(j.reason()).contains("only after the rest of the message");
    assertThat(Judge.judge(e, peerClosed(1007)).verdict()).isEqualTo(Verdict.OK);
  }

  @Test
  void aProtocolViolationByThePeerFailsWhateverElseHappened() {
    Observation broken = new Observation(List.of(HELLO), List.of(),
        List.of("a masked frame from the server (RFC 6455 §5.1)"), 1000, "", false, false, false,
        null, false, 1000);
    Judge.Judgement j = Judge.judge(Expect.echo(HELLO), broken);
    assertThat(j.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(j.reason()).contains("§5.1");
  }

  @Test
  void aPeerThatClosesFirstWhenItShouldAnswerFails() {
    Judge.Judgement j = Judge.judge(Expect.echo(HELLO), peerClosed(1000, HELLO));
    assertThat(j.close()).isEqualTo(Verdict.FAILED);
    assertThat(j.reason()).contains("the peer closed first");
  }

  @Test
  void aServerThatKeepsTcpOpenAfterTheClosingHandshakeIsNonStrict() {
    Observation open = new Observation(List.of(HELLO), List.of(), List.of(), 1000, "", false,
        false, false, null, true, 1000);
    assertThat(Judge.judge(Expect.echo(HELLO), open).verdict()).isEqualTo(Verdict.NON_STRICT);
  }

  @Test
  void closeCodesCanCarryTheirOwnVerdicts() {
    Expect e = Expect.answer(Map.of(1000, Verdict.OK, 1002, Verdict.NON_STRICT), Verdict.FAILED);
    Observation answered1002 = new Observation(List.of(), List.of(), List.of(), 1002, "", false,
        false, false, null, false, 1012);
    assertThat(Judge.judge(e, answered1002).verdict()).isEqualTo(Verdict.NON_STRICT);
    Observation answered1001 = new Observation(List.of(), List.of(), List.of(), 1001, "", false,
        false, false, null, false, 1012);
    assertThat(Judge.judge(e, answered1001).verdict()).isEqualTo(Verdict.FAILED);
  }

  @Test
  void everyPingNeedsItsPongInOrderAsTheReferenceChecks() {
    Expect e = Expect.echo().pongs(Expect.Pongs.exactly(A, B, C));
    assertThat(Judge.judge(e, answered(List.of(), List.of(A, B, C))).verdict())
        .isEqualTo(Verdict.OK);
    assertThat(Judge.judge(e, answered(List.of(), List.of(C))).verdict())
        .isEqualTo(Verdict.FAILED);
    assertThat(Judge.judge(e, answered(List.of(), List.of(A, C))).verdict())
        .isEqualTo(Verdict.FAILED);
    assertThat(Judge.judge(e, answered(List.of(), List.of(C, B, A))).verdict())
        .isEqualTo(Verdict.FAILED);
  }

  @Test
  void aPeerThatLeftOutWhatTheCaseWaitedForAndThenClosedNormallyFails() {
    Expect refuseOrEcho = new Expect(
        List.of(new Expect.Behaviour(Verdict.OK, List.of(HELLO), Expect.Pongs.NONE),
            new Expect.Behaviour(Verdict.OK, List.of(), Expect.Pongs.NONE)),
        new Expect.CloseRule(null, Map.of(1009, Verdict.OK, 1000, Verdict.OK), Verdict.OK), false);
    Observation swallowed = new Observation(List.of(), List.of(), List.of(), 1000, "", false,
        false, false, "1 message(s), got 0 within 30000 ms", false, 1000);
    Judge.Judgement j = Judge.judge(refuseOrEcho, swallowed);
    assertThat(j.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(j.reason()).contains("did not send 1 message(s)", "answered the suite's close");
    assertThat(Judge.judge(refuseOrEcho, peerClosed(1009)).verdict()).isEqualTo(Verdict.OK);
    assertThat(Judge.judge(refuseOrEcho, answered(List.of(HELLO), List.of())).verdict())
        .isEqualTo(Verdict.OK);
  }

  @Test
  void anUnexpectedPongFails() {
    assertThat(Judge.judge(Expect.echo(HELLO), answered(List.of(HELLO), List.of(A))).verdict())
        .isEqualTo(Verdict.FAILED);
  }

  @Test
  void informationalCasesAcceptAnythingAndSayWhatHappened() {
    Judge.Judgement j = Judge.judge(Group1Framing.informational(), peerClosed(1002));
    assertThat(j.verdict()).isEqualTo(Verdict.INFORMATIONAL);
    assertThat(j.reason()).contains("closed first with code 1002");
  }

  @Test
  void theExpectationReadsLikeTheReferenceSuite() {
    assertThat(Expect.fail(1002, HELLO).describe()).isEqualTo(
        "OK: echo of text(5: 48656c6c6f); no pong. NON-STRICT: no message; no pong."
            + " Close: the peer fails the connection: code 1002, or a TCP drop.");
  }

  @Test
  void theWorseVerdictWins() {
    assertThat(Verdict.OK.worse(Verdict.NON_STRICT)).isEqualTo(Verdict.NON_STRICT);
    assertThat(Verdict.FAILED.worse(Verdict.UNIMPLEMENTED)).isEqualTo(Verdict.FAILED);
    assertThat(Verdict.INFORMATIONAL.worse(Verdict.OK)).isEqualTo(Verdict.INFORMATIONAL);
  }
}
