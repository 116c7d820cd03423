package dev.wsjava.protocol;

import dev.wsjava.ProtocolException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameParserTest {

  /** A frame as the parser reported it: header plus the payload chunks joined. */
  record Parsed(FrameHeader header, byte[] payload) {
    String payloadHex() {
      return Hex.of(payload);
    }
  }

  /** Parses everything in {@code in}, fed in pieces of {@code step} bytes. */
  static List<Parsed> parseAll(FrameParser parser, byte[] in, int step) throws ProtocolException {
    List<Parsed> frames = new ArrayList<>();
    FrameHeader header = null;
    ByteArrayOutputStream payload = new ByteArrayOutputStream();
    for (int off = 0; off < in.length; off += step) {
      ByteBuffer chunk = ByteBuffer.wrap(in, off, Math.min(step, in.length - off)).slice();
      loop:
      while (true) {
        switch (parser.next(chunk)) {
          case NEED_MORE -> {
            break loop;
          }
          case HEADER -> {
            header = parser.header();
            payload.reset();
          }
          case PAYLOAD -> {
            ByteBuffer p = parser.payload();
            byte[] a = new byte[p.remaining()];
            p.get(a);
            payload.writeBytes(a);
          }
          case FRAME_END -> frames.add(new Parsed(header, payload.toByteArray()));
        }
      }
      assertThat(chunk.hasRemaining()).as("parser leaves no byte of a chunk unread").isFalse();
    }
    return frames;
  }

  static List<Parsed> parseAll(Role role, String hex) throws ProtocolException {
    return parseAll(new FrameParser(role, Limits.DEFAULTS), Hex.bytes(hex), Integer.MAX_VALUE);
  }

  @Test
  void singleFrameUnmaskedTextHello() throws Exception {
    List<Parsed> frames = parseAll(Role.CLIENT, "81 05 48 65 6c 6c 6f"); // RFC 6455 §5.7 "Hello"
    assertThat(frames).hasSize(1);
    assertThat(frames.get(0).header())
        .isEqualTo(new FrameHeader(true, 0, Opcode.TEXT, false, 0, 5));
    assertThat(new String(frames.get(0).payload())).isEqualTo("Hello");
  }

  @Test
  void singleFrameMaskedTextHello() throws Exception {
    // RFC 6455 §5.7: masked "Hello", key 37 fa 21 3d
    List<Parsed> frames = parseAll(Role.SERVER, "81 85 37 fa 21 3d 7f 9f 4d 51 58");
    assertThat(frames.get(0).header())
        .isEqualTo(new FrameHeader(true, 0, Opcode.TEXT, true, 0x37fa213d, 5));
    assertThat(new String(frames.get(0).payload())).isEqualTo("Hello");
  }

  @Test
  void fragmentedUnmaskedTextHelLo() throws Exception {
    // RFC 6455 §5.7: "Hel" then "lo"
    List<Parsed> frames = parseAll(Role.CLIENT, "01 03 48 65 6c  80 02 6c 6f");
    assertThat(frames).hasSize(2);
    assertThat(frames.get(0).header().fin()).isFalse();
    assertThat(frames.get(0).header().opcode()).isEqualTo(Opcode.TEXT);
    assertThat(new String(frames.get(0).payload())).isEqualTo("Hel");
    assertThat(frames.get(1).header().opcode()).isEqualTo(Opcode.CONTINUATION);
    assertThat(frames.get(1).header().fin()).isTrue();
    assertThat(new String(frames.get(1).payload())).isEqualTo("lo");
  }

  @Test
  void unmaskedPingAndMaskedPong() throws Exception {
    List<Parsed> ping = parseAll(Role.CLIENT, "89 05 48 65 6c 6c 6f"); // RFC 6455 §5.7 ping
    assertThat(ping.get(0).header().opcode()).isEqualTo(Opcode.PING);
    assertThat(new String(ping.get(0).payload())).isEqualTo("Hello");
    List<Parsed> pong = parseAll(Role.SERVER, "8a 85 37 fa 21 3d 7f 9f 4d 51 58"); // masked pong
    assertThat(pong.get(0).header().opcode()).isEqualTo(Opcode.PONG);
    assertThat(new String(pong.get(0).payload())).isEqualTo("Hello");
  }

  @Test
  void binary256BytesUsesTheSixteenBitLength() throws Exception {
    byte[] frame = new byte[4 + 256];
    System.arraycopy(Hex.bytes("82 7e 01 00"), 0, frame, 0, 4); // RFC 6455 §5.7
    for (int i = 0; i < 256; i++) {
      frame[4 + i] = (byte) i;
    }
    List<Parsed> frames =
        parseAll(new FrameParser(Role.CLIENT, Limits.DEFAULTS), frame, Integer.MAX_VALUE);
    assertThat(frames.get(0).header().payloadLength()).isEqualTo(256);
    assertThat(frames.get(0).payload()).hasSize(256).startsWith(0, 1, 2).endsWith((byte) 255);
  }

  @Test
  void binary64KiBUsesTheSixtyFourBitLength() throws Exception {
    byte[] frame = new byte[10 + 65536];
    System.arraycopy(Hex.bytes("82 7f 00 00 00 00 00 01 00 00"), 0, frame, 0, 10); // §5.7
    frame[10 + 65535] = 42;
    List<Parsed> frames = parseAll(new FrameParser(Role.CLIENT, Limits.DEFAULTS), frame, 1000);
    assertThat(frames).hasSize(1);
    assertThat(frames.get(0).header().payloadLength()).isEqualTo(65536);
    assertThat(frames.get(0).payload()[65535]).isEqualTo((byte) 42);
  }

  @Test
  void bytesMayArriveOneAtATime() throws Exception {
    byte[] in = Hex.bytes("81 85 37 fa 21 3d 7f 9f 4d 51 58  89 80 01 02 03 04");
    List<Parsed> frames = parseAll(new FrameParser(Role.SERVER, Limits.DEFAULTS), in, 1);
    assertThat(frames).hasSize(2);
    assertThat(new String(frames.get(0).payload())).isEqualTo("Hello");
    assertThat(frames.get(1).header().opcode()).isEqualTo(Opcode.PING);
    assertThat(frames.get(1).payload()).isEmpty();
  }

  @Test
  void anIncompleteHeaderIsKeptUntilTheRestArrives() throws Exception {
    FrameParser parser = new FrameParser(Role.CLIENT, Limits.DEFAULTS);
    ByteBuffer first = Hex.buffer("82 7e 00"); // 16-bit length split after its first byte
    assertThat(parser.next(first)).isEqualTo(FrameParser.Event.NEED_MORE);
    ByteBuffer rest = Hex.buffer("02 ab cd 81 00");
    assertThat(parser.next(rest)).isEqualTo(FrameParser.Event.HEADER);
    assertThat(parser.payloadLength()).isEqualTo(2);
    assertThat(parser.next(rest)).isEqualTo(FrameParser.Event.PAYLOAD);
    assertThat(Hex.of(parser.payload())).isEqualTo("ab cd");
    assertThat(parser.next(rest)).isEqualTo(FrameParser.Event.FRAME_END);
    // The bytes after the frame are the next frame, not lost.
    assertThat(parser.next(rest)).isEqualTo(FrameParser.Event.HEADER);
    assertThat(parser.opcode()).isEqualTo(Opcode.TEXT);
    assertThat(parser.next(rest)).isEqualTo(FrameParser.Event.FRAME_END);
    assertThat(rest.hasRemaining()).isFalse();
  }

  @Test
  void parsingIsIndependentOfTheBufferByteOrder() throws Exception {
    FrameParser parser = new FrameParser(Role.SERVER, Limits.DEFAULTS);
    ByteBuffer in = Hex.buffer("82 fe 01 00 37 fa 21 3d").order(java.nio.ByteOrder.LITTLE_ENDIAN);
    assertThat(parser.next(in)).isEqualTo(FrameParser.Event.HEADER);
    assertThat(parser.payloadLength()).isEqualTo(256);
    assertThat(parser.header().maskKey()).isEqualTo(0x37fa213d);
  }

  @Test
  void sixtyFourBitLengthWithTheTopBitSetFails() {
    assertThatThrownBy(() -> parseAll(Role.CLIENT, "82 7f 80 00 00 00 00 00 00 00"))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("most significant bit")
        .extracting(e -> ((ProtocolException) e).closeCode())
        .isEqualTo(1002);
  }

  @Test
  void aHeaderClaimingTwoToTheSixtyThreeMinusOneBytesFailsWithTheLimitAndSize() {
    assertThatThrownBy(() -> parseAll(Role.CLIENT, "82 7f 7f ff ff ff ff ff ff ff"))
        .isInstanceOfSatisfying(
            LimitExceededException.class,
            e -> {
              assertThat(e.closeCode()).isEqualTo(1009);
              assertThat(e.actual()).isEqualTo(Long.MAX_VALUE);
              assertThat(e.limit()).isEqualTo(Limits.DEFAULT_MAX_FRAME_PAYLOAD);
            });
  }

  @Test
  void fragmentsPastTheLimitFail() {
    FrameParser parser = new FrameParser(Role.CLIENT, Limits.DEFAULTS.withMaxFragments(3));
    byte[] in = Hex.bytes("01 00  00 00  00 00  80 00");
    assertThatThrownBy(() -> parseAll(parser, in, in.length))
        .isInstanceOfSatisfying(
            LimitExceededException.class,
            e -> assertThat(e.getMessage()).isEqualTo("fragment count 4 exceeds the limit of 3"));
  }

  @Test
  void rsvBitsPassOnlyWhereAnExtensionOwnsThem() throws Exception {
    FrameParser parser = new FrameParser(Role.CLIENT, Limits.DEFAULTS);
    parser.allowRsv(0x40);
    assertThat(parseAll(parser, Hex.bytes("c1 00"), 2)).hasSize(1); // RSV1 owned
    FrameParser other = new FrameParser(Role.CLIENT, Limits.DEFAULTS);
    other.allowRsv(0x40);
    assertThatThrownBy(() -> parseAll(other, Hex.bytes("a1 00"), 2)) // RSV2 not owned
        .hasMessageContaining("RSV bits 0x20");
  }
}
