package dev.wsjava.internal.http;

import static dev.wsjava.internal.http.HttpWire.buffer;
import static dev.wsjava.internal.http.HttpWire.bytes;
import static dev.wsjava.internal.http.HttpWire.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ChunkedDecoderTest {

  /** Three chunks, an extension, a trailer field; "NEXT" is the following request. */
  static final String WIRE =
      "4\r\nWiki\r\n"
          + "5;lang=\"en\"\r\npedia\r\n"
          + "E\r\n in\r\n\r\nchunks.\r\n"
          + "0\r\n"
          + "Expires: never\r\n"
          + "\r\n"
          + "NEXT";

  static final String BODY = "Wikipedia in\r\n\r\nchunks.";

  private static String bodyOf(BodyBuffer b) {
    ByteBuffer buf = b.toBuffer();
    byte[] a = new byte[buf.remaining()];
    buf.get(a);
    return text(a);
  }

  @Test
  void decodesChunksSkipsExtensionsAndTrailersAndStopsAtTheEnd() throws Exception {
    ChunkedDecoder d = new ChunkedDecoder(1024);
    BodyBuffer body = new BodyBuffer(1 << 20);
    ByteBuffer in = buffer(WIRE);
    assertThat(d.decode(in, body)).isTrue();
    assertThat(bodyOf(body)).isEqualTo(BODY);
    assertThat(in.remaining()).as("the next request stays").isEqualTo(4);
  }

  @Test
  void everySplitPointDecodesTheSameBody() throws Exception {
    byte[] wire = bytes(WIRE);
    for (int split = 0; split <= wire.length - 4; split++) {
      ChunkedDecoder d = new ChunkedDecoder(1024);
      BodyBuffer body = new BodyBuffer(1 << 20);
      ByteBuffer first = ByteBuffer.wrap(wire, 0, split).slice();
      boolean done = d.decode(first, body);
      assertThat(done).as("split %d", split).isEqualTo(split == wire.length - 4);
      assertThat(first.hasRemaining()).isFalse();
      ByteBuffer rest = ByteBuffer.wrap(wire, split, wire.length - split).slice();
      assertThat(d.decode(rest, body) || done).isTrue();
      assertThat(bodyOf(body)).as("split %d", split).isEqualTo(BODY);
      assertThat(rest.remaining()).isEqualTo(4);
    }
  }

  @Test
  void anEmptyBodyIsTheLastChunkAlone() throws Exception {
    BodyBuffer body = new BodyBuffer(10);
    assertThat(new ChunkedDecoder(0).decode(buffer("000\r\n\r\n"), body)).isTrue();
    assertThat(body.length()).isZero();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "no size                 | ;x\\r\\n                | start with a hex digit",
        "a sign                  | +5\\r\\n                | start with a hex digit",
        "a bad size digit        | 5g\\r\\n                | not a hex digit",
        "a bare LF after size    | 5\\n                    | must end with CRLF",
        "data longer than size   | 2\\r\\nabc\\r\\n        | chunk-data must end with CRLF",
        "a control in extension  | 1;a\\u0001\\r\\n         | chunk extension holds 0x01",
        "a bare LF in trailer    | 0\\r\\nA: 1\\n          | trailer section holds 0x0A",
      })
  void malformedChunksAre400(String name, String wire, String reason) {
    String bytes = wire.replace("\\r", "\r").replace("\\n", "\n").replace("\\u0001", "\u0001");
    assertThatThrownBy(() -> new ChunkedDecoder(1024).decode(buffer(bytes), new BodyBuffer(100)))
        .isInstanceOfSatisfying(RequestException.class, e -> assertThat(e.status()).isEqualTo(400))
        .hasMessageContaining(reason);
  }

  @Test
  void aChunkPassingTheLimitIs413FromItsSizeLine() {
    BodyBuffer body = new BodyBuffer(10);
    // 0x10 = 16 bytes announced, no data sent yet.
    assertThatThrownBy(() -> new ChunkedDecoder(1024).decode(buffer("4\r\nabcd\r\n10"), body))
        .isInstanceOfSatisfying(RequestException.class, e -> assertThat(e.status()).isEqualTo(413));
  }

  @Test
  void aHugeSizeIs413WithoutOverflow() {
    String size = "f".repeat(40);
    assertThatThrownBy(
            () -> new ChunkedDecoder(1024).decode(buffer(size), new BodyBuffer(Integer.MAX_VALUE)))
        .isInstanceOfSatisfying(RequestException.class, e -> assertThat(e.status()).isEqualTo(413));
  }

  @Test
  void endlessLeadingZerosAre400() {
    String zeros = "0".repeat(ChunkedDecoder.MAX_SIZE_LINE + 1);
    assertThatThrownBy(() -> new ChunkedDecoder(1024).decode(buffer(zeros), new BodyBuffer(10)))
        .hasMessageContaining("longer than");
  }

  @Test
  void aTrailerSectionOverItsLimitIs431() {
    assertThatThrownBy(
            () ->
                new ChunkedDecoder(8).decode(buffer("0\r\nX-Long: 123456\r\n"), new BodyBuffer(1)))
        .isInstanceOfSatisfying(RequestException.class, e -> assertThat(e.status()).isEqualTo(431));
  }
}
