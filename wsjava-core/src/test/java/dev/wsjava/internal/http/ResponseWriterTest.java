package dev.wsjava.internal.http;

import dev.wsjava.http.HttpResponse;
import static dev.wsjava.internal.http.HttpWire.text;
import static dev.wsjava.internal.http.HttpWire.written;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.Headers;
import dev.wsjava.handshake.ServerHandshake;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ResponseWriterTest {

  @Test
  void aTextResponseIsStatusLineTypeLengthAndBody() {
    // "é" is two bytes in UTF-8: the length counts bytes.
    assertThat(written(HttpResponse.text(200, "café")))
        .isEqualTo(
            "HTTP/1.1 200 OK\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 5\r\n"
                + "\r\n"
                + "caf\u00c3\u00a9");
  }

  @Test
  void fieldsComeInOrderThenConnectionThenTypeThenLength() {
    HttpResponse r =
        HttpResponse.html(200, "<p>")
            .withHeader("Cache-Control", "no-store")
            .withHeader("Date", "Sun, 06 Nov 1994 08:49:37 GMT");
    assertThat(text(ResponseWriter.toBytes(r, true, "keep-alive")))
        .isEqualTo(
            "HTTP/1.1 200 OK\r\n"
                + "Cache-Control: no-store\r\n"
                + "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
                + "Connection: keep-alive\r\n"
                + "Content-Type: text/html; charset=utf-8\r\n"
                + "Content-Length: 3\r\n"
                + "\r\n"
                + "<p>");
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 9, 10, 99, 100, 65_535, 1_000_000})
  void theLengthIsWrittenInDecimalAtEveryNumberOfDigits(int n) {
    HttpResponse r = HttpResponse.bytes(200, "application/octet-stream", new byte[n]);
    String head = text(ResponseWriter.toBytes(r, false, null));
    assertThat(head).endsWith("\r\nContent-Length: " + n + "\r\n\r\n");
  }

  @Test
  void aLatin1FieldValueGoesOutAsItsOneByteAndAValueOfOurOwnIsNotRechecked() {
    HttpResponse r = HttpResponse.text(200, "").withHeader("X-Name", "Jos\u00e9");
    byte[] wire = ResponseWriter.toBytes(r, true, "close");
    assertThat(text(wire)).contains("\r\nX-Name: Jos\u00e9\r\nConnection: close\r\n");
    assertThat(wire).contains((byte) 0xE9);
  }

  @Test
  void noDateIsAddedUnlessGiven() {
    assertThat(written(HttpResponse.text(200, "x"))).doesNotContainIgnoringCase("date");
  }

  @Test
  void theAnswerToHeadHasTheLengthButNoBody() {
    assertThat(text(ResponseWriter.toBytes(HttpResponse.text(200, "hello"), false, null)))
        .isEqualTo(
            "HTTP/1.1 200 OK\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 5\r\n"
                + "\r\n");
  }

  @Test
  void anEmptyResponseSaysLengthZeroExceptFor204() {
    assertThat(written(HttpResponse.empty(200)))
        .isEqualTo("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    // RFC 9110 §8.6: no Content-Length in a 204.
    assertThat(written(HttpResponse.empty(204))).isEqualTo("HTTP/1.1 204 No Content\r\n\r\n");
  }

  @Test
  void aStatusWithoutKnownPhraseKeepsTheSpace() {
    assertThat(written(HttpResponse.empty(299))).startsWith("HTTP/1.1 299 \r\n");
  }

  @Test
  void aSmallBodySharesTheHeadsBufferAndALargeOneHasItsOwn() {
    ByteBuffer[] small = ResponseWriter.encode(HttpResponse.text(200, "x"), true, null);
    assertThat(small).hasSize(1);
    byte[] big = new byte[ResponseWriter.INLINE_BODY + 1];
    ByteBuffer[] large =
        ResponseWriter.encode(HttpResponse.bytes(200, "application/octet-stream", big), true, null);
    assertThat(large).hasSize(2);
    assertThat(large[1].remaining()).isEqualTo(big.length);
    assertThat(large[1].isReadOnly()).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(ints = {400, 403, 404, 413, 500, 503})
  void anErrorPageIsTheSameBytesAsTheHandshakesRejection(int status) {
    ByteBuffer rejection = ServerHandshake.reject(status, "for the log").response();
    assertThat(ResponseWriter.toBytes(HttpResponse.error(status), true, "close"))
        .isEqualTo(bytesOf(rejection));
  }

  @Test
  void a405PageIsTheSameBytesAsTheHandshakesRejection() {
    Headers allow = Headers.builder().add("Allow", "GET").build();
    ByteBuffer rejection = ServerHandshake.reject(405, "for the log", allow).response();
    HttpResponse page = HttpResponse.methodNotAllowed(List.of("GET"));
    assertThat(ResponseWriter.toBytes(page, true, "close")).isEqualTo(bytesOf(rejection));
  }

  private static byte[] bytesOf(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.get(a);
    return a;
  }

  @Test
  void aConnectionValueThatWouldSplitTheHeadIsRefused() {
    assertThatThrownBy(
            () -> ResponseWriter.encode(HttpResponse.empty(200), true, "close\r\nX-Evil: 1"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
