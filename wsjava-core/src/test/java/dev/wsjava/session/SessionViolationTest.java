package dev.wsjava.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.protocol.Limits;
import dev.wsjava.protocol.Role;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One row per rule of RFC 6455 a peer can break, with the close code the session must send. After
 * the failure the session is closed, has queued exactly one close frame with that code, and
 * reports nothing more.
 */
class SessionViolationTest {

  static Arguments row(String rule, Role role, int code, Consumer<Wire> frames) {
    return Arguments.of(rule, role, code, frames);
  }

  static Arguments row(String rule, int code, Consumer<Wire> frames) {
    return row(rule, Role.SERVER, code, frames);
  }

  static byte[] repeat(int n) {
    return new byte[n];
  }

  static Stream<Arguments> violations() {
    return Stream.of(
        row("reserved data opcode 3", 1002, w -> w.frame(0x83, "")),
        row("reserved data opcode 7", 1002, w -> w.frame(0x87, "")),
        row("reserved control opcode B", 1002, w -> w.frame(0x8B, "")),
        row("reserved control opcode F", 1002, w -> w.frame(0x8F, "")),
        row("RSV1 without an extension", 1002, w -> w.frame(0xC1, "Hello")),
        row("RSV2 without an extension", 1002, w -> w.frame(0xA2, "")),
        row("RSV3 without an extension", 1002, w -> w.frame(0x91, "")),
        row("RSV3 on a ping", 1002, w -> w.frame(0x99, "")),
        row("RSV1 after a valid message", 1002, w -> w.frame(0x81, "ok").frame(0xC1, "")),
        row("control frame not final", 1002, w -> w.frame(0x09, "")),
        row("fragmented close", 1002, w -> w.frame(0x08, new byte[] {0x03, (byte) 0xE8})),
        row("ping of 126 bytes", 1002, w -> w.frame(0x89, repeat(126))),
        row("pong of 126 bytes", 1002, w -> w.frame(0x8A, repeat(126))),
        row("close of 126 bytes", 1002, w -> w.frame(0x88, repeat(126))),
        row("continuation without a started message", 1002, w -> w.frame(0x80, "x")),
        row("non-final continuation without a start", 1002, w -> w.frame(0x00, "x")),
        row("text inside a fragmented message", 1002, w -> w.frame(0x01, "a").frame(0x81, "b")),
        row("binary inside a fragmented message", 1002, w -> w.frame(0x02, "a").frame(0x02, "b")),
        row("unmasked frame to a server", Role.SERVER, 1002, w -> w.wrongMask().frame(0x81, "")),
        row("masked frame to a client", Role.CLIENT, 1002, w -> w.wrongMask().frame(0x81, "")),
        row("close payload of one byte", 1002, w -> w.frame(0x88, new byte[] {0x03})),
        row("close code 0", 1002, w -> w.close(0, "")),
        row("close code 999", 1002, w -> w.close(999, "")),
        row("close code 1004", 1002, w -> w.close(1004, "")),
        row("close code 1005", 1002, w -> w.close(1005, "")),
        row("close code 1006", 1002, w -> w.close(1006, "")),
        row("close code 1015", 1002, w -> w.close(1015, "")),
        row("close code 1016", 1002, w -> w.close(1016, "")),
        row("close code 1100", 1002, w -> w.close(1100, "")),
        row("close code 2000", 1002, w -> w.close(2000, "")),
        row("close code 2999", 1002, w -> w.close(2999, "")),
        row("close code 5000", 1002, w -> w.close(5000, "")),
        row("close code 65535", 1002, w -> w.close(65535, "")),
        row("close reason not UTF-8", 1007,
            w -> w.frame(0x88, new byte[] {0x03, (byte) 0xE8, (byte) 0xCE, (byte) 0xBA, (byte) 0xE1})),
        row("text not UTF-8", 1007, w -> w.frame(0x81, new byte[] {'a', (byte) 0xC0, (byte) 0x80})),
        row("text ending inside a code point", 1007, w -> w.frame(0x81, new byte[] {(byte) 0xE2, (byte) 0x82})),
        row("fragmented text ending inside a code point", 1007,
            w -> w.frame(0x01, new byte[] {'a'}).frame(0x80, new byte[] {(byte) 0xF0, (byte) 0x9F})),
        row("surrogate in text", 1007, w -> w.frame(0x81, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80})),
        row("message larger than the limit", 1009, w -> w.frame(0x82, repeat(1025))),
        row("fragmented message larger than the limit", 1009,
            w -> w.frame(0x02, repeat(600)).frame(0x80, repeat(600))),
        row("frame larger than the limit", 1009, w -> w.frame(0x02, repeat(2049))),
        row("more fragments than the limit", 1009,
            w -> w.frame(0x02, "").frame(0x00, "").frame(0x00, "").frame(0x00, "").frame(0x80, "")));
  }

  @ParameterizedTest(name = "{0} -> {2}")
  @MethodSource("violations")
  void aViolationFailsTheConnectionWithItsCloseCode(
      String rule, Role role, int code, Consumer<Wire> frames) throws Exception {
    Limits limits = new Limits(2048, 1024, 4);
    Session session = new Session(role, SessionConfig.DEFAULTS.withLimits(limits), List.of());
    Recorder events = new Recorder();
    Wire wire = new Wire(role);
    frames.accept(wire);
    // A valid message after the violation must never be reported.
    ByteBuffer in = ByteBuffer.wrap(concat(wire.bytes(), new Wire(role).frame(0x81, "after").bytes()));

    session.receive(in, events);

    assertThat(events.failure).as(rule).isNotNull();
    assertThat(events.failure.closeCode()).as(rule + ": " + events.failure.getMessage()).isEqualTo(code);
    assertThat(events.events).last().isEqualTo("failure:" + code);
    assertThat(events.events).doesNotContain("text:after");
    assertThat(session.state()).isEqualTo(Session.State.CLOSED);
    assertThat(session.closeCode()).isEqualTo(code);
    List<Wire.Sent> sent = Wire.drain(session);
    assertThat(sent).hasSize(1);
    assertThat(sent.get(0).opcode()).isEqualTo(dev.wsjava.protocol.Opcode.CLOSE);
    assertThat(sent.get(0).closeCode()).isEqualTo(code);
    // Later input is ignored.
    session.receive(new Wire(role).frame(0x81, "later").buffer(), events);
    assertThat(events.events).last().isEqualTo("failure:" + code);
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }
}
