package dev.wsjava.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class FrameReaderTest {

  private static FrameReader reader(String hex) {
    return new FrameReader(new ByteArrayInputStream(Cases.hex(hex)), 1 << 20);
  }

  /** Hands out one byte per read, as a slow network would. */
  private static InputStream trickle(byte[] bytes) {
    return new FilterInputStream(new ByteArrayInputStream(bytes)) {
      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        return super.read(b, off, Math.min(len, 1));
      }
    };
  }

  @Test
  void readsTheUnmaskedHelloOfRfc6455Section57() throws IOException {
    FrameReader r = reader("810548656c6c6f"); // text "Hello"
    WireFrame f = r.next();
    assertThat(f.fin()).isTrue();
    assertThat(f.opcode()).isEqualTo(1);
    assertThat(f.masked()).isFalse();
    assertThat(new String(f.payload(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("Hello");
    assertThat(r.next()).isNull();
  }

  @Test
  void unmasksTheMaskedHelloOfRfc6455Section57WithItsOwnLoop() throws IOException {
    WireFrame f = reader("818537fa213d7f9f4d5158").next(); // masked text "Hello"
    assertThat(f.masked()).isTrue();
    assertThat(f.payload()).isEqualTo("Hello".getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  @Test
  void recordsWhatAStrictParserWouldRefuse() throws IOException {
    // RSV bits 7, reserved opcode 0xB, FIN clear, a 3-byte payload with a 16-bit length.
    WireFrame f = reader("7B7E0003616263").next();
    assertThat(f.fin()).isFalse();
    assertThat(f.rsv()).isEqualTo(7);
    assertThat(f.opcode()).isEqualTo(0xB);
    assertThat(f.isControl()).isTrue();
    assertThat(f.lengthBytes()).isEqualTo(2);
    assertThat(f.minimalLength()).isFalse();
    assertThat(f.payload()).hasSize(3);
  }

  @Test
  void readsA64BitLengthFrameDeliveredOneByteAtATime() throws IOException {
    byte[] payload = Cases.pattern(70_000);
    byte[] frame = Frames.encode(Frame.binary(payload), true, 0x01020304);
    FrameReader r = new FrameReader(trickle(frame), 1 << 20);
    WireFrame f = r.next();
    assertThat(f.lengthBytes()).isEqualTo(8);
    assertThat(f.minimalLength()).isTrue();
    assertThat(f.payload()).isEqualTo(payload);
    assertThat(r.next()).isNull();
  }

  @Test
  void framesFromTheCoreEncoderReadBackThroughTheSuitesOwnUnmasking() throws IOException {
    // The encoder masks with wsjava-core's Masking, the reader unmasks with its own loop: a
    // masking bug in the core would show here.
    for (int length : new int[] {0, 1, 3, 4, 5, 7, 8, 9, 125, 126, 1000, 65535, 65536}) {
      byte[] payload = Cases.random(length, length);
      byte[] frame = Frames.encode(Frame.text(payload), true, 0x9ABCDEF1);
      assertThat(reader(HexFormat.of().formatHex(frame)).next().payload())
          .as("length %d", length).isEqualTo(payload);
    }
  }

  @Test
  void encodesReservedOpcodesAndRsvBits() throws IOException {
    byte[] frame = Frames.encode(Frame.of(0x5, new byte[] {1, 2}).rsv(3).fin(false), false, 0);
    assertThat(HexFormat.of().formatHex(frame)).isEqualTo("3502" + "0102");
  }

  @Test
  void anEndBetweenFramesIsClean() throws IOException {
    assertThat(reader("").next()).isNull();
  }

  @Test
  void anEndInsideAFrameIsAnError() {
    assertThatThrownBy(() -> reader("8105486565").next()).isInstanceOf(EOFException.class);
    assertThatThrownBy(() -> reader("81").next()).isInstanceOf(EOFException.class);
    assertThatThrownBy(() -> reader("817e00").next()).isInstanceOf(EOFException.class);
  }

  @Test
  void aLengthBeyondTheLimitOrWithTheTopBitSetIsNotRead() {
    assertThatThrownBy(() -> reader("827f0000000000200000").next())
        .isInstanceOf(FrameReader.OversizeException.class)
        .hasMessageContaining("2097152");
    assertThatThrownBy(() -> reader("827f8000000000000001").next())
        .isInstanceOf(FrameReader.OversizeException.class)
        .hasMessageContaining("9223372036854775809");
  }

  @Test
  void writesLyingHeadersByteForByte() {
    assertThat(HexFormat.of().formatHex(Frames.header(true, 0, 1, 5, 2, false, 0)))
        .isEqualTo("817e0005");
    assertThat(HexFormat.of().formatHex(Frames.header(false, 4, 2, Long.MAX_VALUE, 8, true, 0x11223344)))
        .isEqualTo("42ff7fffffffffffffff11223344");
  }
}
