package dev.wsjava.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.protocol.Role;
import org.junit.jupiter.api.Test;

class InboundTest {
  private final Inbound fromServer = new Inbound(Role.CLIENT, null, 1 << 20);
  private final Inbound fromClient = new Inbound(Role.SERVER, null, 1 << 20);

  private static WireFrame frame(boolean fin, int rsv, int opcode, boolean masked, String text) {
    return new WireFrame(fin, rsv, opcode, masked, 0, Cases.utf8(text));
  }

  private static WireFrame frame(int opcode, byte[] payload) {
    return new WireFrame(true, 0, opcode, false, payload.length > 125 ? 2 : 0, payload);
  }

  @Test
  void reassemblesAFragmentedMessageAndAnswersAPingInTheMiddle() {
    assertThat(fromServer.accept(frame(false, 0, Frame.TEXT, false, "Hel"))).isNull();
    Frame pong = fromServer.accept(frame(true, 0, Frame.PING, false, "ping"));
    assertThat(pong.opcode()).isEqualTo(Frame.PONG);
    assertThat(pong.payload()).isEqualTo(Cases.utf8("ping"));
    assertThat(fromServer.accept(frame(true, 0, Frame.CONTINUATION, false, "lo"))).isNull();
    assertThat(fromServer.messages()).containsExactly(DataMessage.text("Hello"));
    assertThat(fromServer.violations()).isEmpty();
  }

  @Test
  void namesTheMaskingRuleForEachDirection() {
    fromServer.accept(frame(true, 0, Frame.TEXT, true, "masked"));
    assertThat(fromServer.violations()).containsExactly("a masked frame from the server (RFC 6455 §5.1)");
    fromClient.accept(frame(true, 0, Frame.TEXT, false, "bare"));
    assertThat(fromClient.violations())
        .containsExactly("an unmasked frame from the client (RFC 6455 §5.1)");
  }

  @Test
  void namesReservedBitsOpcodesAndBrokenFragmentation() {
    fromServer.accept(frame(true, 2, Frame.TEXT, false, "rsv"));
    fromServer.accept(frame(true, 0, 0xB, false, ""));
    fromServer.accept(frame(true, 0, Frame.CONTINUATION, false, "orphan"));
    fromServer.accept(frame(false, 0, Frame.TEXT, false, "a"));
    fromServer.accept(frame(true, 0, Frame.BINARY, false, "b"));
    fromServer.accept(frame(false, 0, Frame.PING, false, "p"));
    fromServer.accept(frame(Frame.PONG, new byte[126]));
    assertThat(fromServer.violations()).containsExactly(
        "RSV bits 2 set without an extension that defines them (RFC 6455 §5.2)",
        "a frame with reserved opcode 11 (RFC 6455 §5.2)",
        "a continuation frame with no message to continue (RFC 6455 §5.4)",
        "a new data message inside a fragmented one (RFC 6455 §5.4)",
        "a fragmented control frame (RFC 6455 §5.5)",
        "a control frame with 126 bytes of payload (RFC 6455 §5.5 allows 125)");
  }

  @Test
  void namesALengthNotWrittenMinimallyAndTextThatIsNotUtf8() {
    fromServer.accept(new WireFrame(true, 0, Frame.BINARY, false, 2, new byte[5]));
    fromServer.accept(frame(Frame.TEXT, Cases.hex("c0 af")));
    assertThat(fromServer.violations()).containsExactly(
        "a payload length not in the minimal number of bytes (RFC 6455 §5.2)",
        "a text message that is not valid UTF-8 (RFC 6455 §8.1)");
  }

  @Test
  void answersAValidCloseWithItsCodeAndABrokenOneWith1002() {
    Frame answer = fromServer.accept(frame(Frame.CLOSE, Cases.hex("0bb8 6279 65")));
    assertThat(answer.payload()).isEqualTo(Cases.hex("0bb8"));
    assertThat(fromServer.closeCode()).isEqualTo(3000);
    assertThat(fromServer.closeReason()).isEqualTo("bye");
    assertThat(fromServer.accept(frame(Frame.TEXT, Cases.utf8("late")))).isNull();
    assertThat(fromServer.violations())
        .containsExactly("a frame after its close frame (RFC 6455 §5.5.1)");

    Frame refusal = fromClient.accept(
        new WireFrame(true, 0, Frame.CLOSE, true, 0, Cases.hex("03ed")));
    assertThat(refusal.payload()).isEqualTo(Cases.hex("03ea"));
    assertThat(fromClient.violations())
        .containsExactly("close code 1005, which may not be sent (RFC 6455 §7.4)");
  }

  @Test
  void anEmptyCloseIsAnsweredEmptyAndAOneByteCloseIsBroken() {
    assertThat(fromServer.accept(frame(Frame.CLOSE, new byte[0])).payload()).isEmpty();
    assertThat(fromServer.closeCode()).isEqualTo(1005);
    assertThat(fromClient.accept(new WireFrame(true, 0, Frame.CLOSE, true, 0, new byte[] {3}))
        .payload()).isEqualTo(Cases.hex("03ea"));
  }
}
