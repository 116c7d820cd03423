package dev.wsjava.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FrameEncoderTest {

  static String encode(boolean fin, Opcode op, byte[] payload, boolean masked, int key) {
    ByteBuffer out = ByteBuffer.allocate(FrameEncoder.headerLength(payload.length, masked) + payload.length);
    FrameEncoder.encode(out, fin, 0, op, ByteBuffer.wrap(payload), masked, key);
    assertThat(out.hasRemaining()).isFalse();
    return Hex.of(out.flip());
  }

  static byte[] hello() {
    return "Hello".getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void unmaskedTextHello() {
    assertThat(encode(true, Opcode.TEXT, hello(), false, 0))
        .isEqualTo("81 05 48 65 6c 6c 6f"); // RFC 6455 §5.7
  }

  @Test
  void maskedTextHello() {
    assertThat(encode(true, Opcode.TEXT, hello(), true, 0x37fa213d))
        .isEqualTo("81 85 37 fa 21 3d 7f 9f 4d 51 58"); // RFC 6455 §5.7
  }

  @Test
  void fragmentedHelLo() {
    byte[] hel = "Hel".getBytes(StandardCharsets.US_ASCII);
    byte[] lo = "lo".getBytes(StandardCharsets.US_ASCII);
    assertThat(encode(false, Opcode.TEXT, hel, false, 0)).isEqualTo("01 03 48 65 6c");
    assertThat(encode(true, Opcode.CONTINUATION, lo, false, 0)).isEqualTo("80 02 6c 6f");
  }

  @Test
  void pingAndMaskedPong() {
    assertThat(encode(true, Opcode.PING, hello(), false, 0)).isEqualTo("89 05 48 65 6c 6c 6f");
    assertThat(encode(true, Opcode.PONG, hello(), true, 0x37fa213d))
        .isEqualTo("8a 85 37 fa 21 3d 7f 9f 4d 51 58");
  }

  @Test
  void binary256And64KiBHeaders() {
    assertThat(encode(true, Opcode.BINARY, new byte[256], false, 0)).startsWith("82 7e 01 00 00");
    assertThat(encode(true, Opcode.BINARY, new byte[65536], false, 0))
        .startsWith("82 7f 00 00 00 00 00 01 00 00 00");
  }

  @Test
  void headerLengthsFollowTheThreeEncodings() {
    assertThat(FrameEncoder.headerLength(125, false)).isEqualTo(2);
    assertThat(FrameEncoder.headerLength(126, false)).isEqualTo(4);
    assertThat(FrameEncoder.headerLength(65535, false)).isEqualTo(4);
    assertThat(FrameEncoder.headerLength(65536, false)).isEqualTo(10);
    assertThat(FrameEncoder.headerLength(65536, true)).isEqualTo(14);
  }

  @Test
  void theCallersPayloadIsNeitherMovedNorMasked() {
    ByteBuffer payload = ByteBuffer.wrap(hello());
    FrameEncoder.encode(ByteBuffer.allocate(11), true, 0, Opcode.TEXT, payload, true, 0x37fa213d);
    assertThat(payload.position()).isZero();
    assertThat(new String(payload.array(), StandardCharsets.US_ASCII)).isEqualTo("Hello");
  }

  @Test
  void rsvBitsGoIntoTheFirstByte() {
    ByteBuffer out = ByteBuffer.allocate(2);
    FrameEncoder.writeHeader(out, true, 0x40, Opcode.TEXT, 0, false, 0);
    assertThat(Hex.of(out.flip())).isEqualTo("c1 00");
  }

  @Test
  void aNegativeLengthIsRefused() {
    assertThatThrownBy(
            () -> FrameEncoder.writeHeader(ByteBuffer.allocate(14), true, 0, Opcode.BINARY, -1, false, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
