package dev.wsjava.internal.http;

import static dev.wsjava.internal.http.HttpConnectionTest.HELLO;
import static dev.wsjava.internal.http.HttpWire.bytes;
import static dev.wsjava.internal.http.HttpWire.drain;
import static dev.wsjava.internal.http.HttpWire.drainSome;
import static dev.wsjava.internal.http.HttpWire.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pipelined requests (RFC 9112 §9.3.2) are answered in order, whatever the pieces their bytes
 * arrive in: every split point of a fixed exchange, and random exchanges in random pieces.
 */
class HttpConnectionPipeliningTest {

  /** Six requests: bodies by length and by chunks, HEAD, 404, an HTTP/1.0 keep-alive. */
  static final String REQUESTS =
      "GET / HTTP/1.1\r\nHost: a\r\n\r\n"
          + "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 7\r\n\r\nab\r\n\r\nc"
          + "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
          + "3;x=y\r\nGET\r\n18\r\n / HTTP/1.1\r\nHost: a\r\n\r\n\r\n0\r\nT: 1\r\n\r\n"
          + "HEAD / HTTP/1.1\r\nHost: a\r\n\r\n"
          + "GET /nope HTTP/1.1\r\nHost: a\r\n\r\n"
          + "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n";

  static final String RESPONSES =
      HELLO
          + echoed("ab\r\n\r\nc")
          + echoed("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
          + "HTTP/1.1 200 OK\r\n"
          + "Content-Type: text/plain; charset=utf-8\r\n"
          + "Content-Length: 5\r\n\r\n"
          + "HTTP/1.1 404 Not Found\r\n"
          + "Content-Type: text/plain; charset=utf-8\r\n"
          + "Content-Length: 14\r\n\r\n"
          + "404 Not Found\n"
          + "HTTP/1.1 200 OK\r\n"
          + "Connection: keep-alive\r\n"
          + "Content-Type: text/plain; charset=utf-8\r\n"
          + "Content-Length: 5\r\n\r\n"
          + "hello";

  static String echoed(String body) {
    return "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: "
        + body.length()
        + "\r\n\r\n"
        + body;
  }

  private static HttpConnection<String> connection() {
    return new HttpConnection<>(HttpConnectionTest.ROUTER, HttpLimits.defaults(), 0);
  }

  @Test
  void theWholeExchangeInOneBufferIsAnsweredInOrder() {
    HttpConnection<String> c = connection();
    c.receive(ByteBuffer.wrap(bytes(REQUESTS)), 0);
    assertThat(drain(c)).isEqualTo(RESPONSES);
    assertThat(c.requestCount()).isEqualTo(6);
    assertThat(c.shouldClose()).isFalse();
  }

  @Test
  void everySplitPointGivesTheSameAnswers() {
    byte[] wire = bytes(REQUESTS);
    for (int split = 0; split <= wire.length; split++) {
      HttpConnection<String> c = connection();
      ByteBuffer first = ByteBuffer.wrap(wire, 0, split).slice();
      ByteBuffer second = ByteBuffer.wrap(wire, split, wire.length - split).slice();
      StringBuilder out = new StringBuilder();
      c.receive(first, 0);
      assertThat(first.hasRemaining()).as("split %d: first piece consumed", split).isFalse();
      out.append(drain(c));
      c.receive(second, 0);
      assertThat(second.hasRemaining()).as("split %d: second piece consumed", split).isFalse();
      out.append(drain(c));
      assertThat(out.toString()).as("split %d", split).isEqualTo(RESPONSES);
    }
  }

  /** One random request and the answer it must get, written out independently of the writer. */
  record Exchange(String request, String response) {}

  static Exchange randomExchange(SplittableRandom r) {
    switch (r.nextInt(5)) {
      case 0 -> {
        return new Exchange("GET / HTTP/1.1\r\nHost: a\r\n\r\n", HELLO);
      }
      case 1 -> {
        return new Exchange(
            "HEAD / HTTP/1.1\r\nHost: a\r\n\r\n",
            "HTTP/1.1 200 OK\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 5\r\n\r\n");
      }
      case 2 -> {
        String body = randomBody(r);
        return new Exchange(
            "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: "
                + body.length()
                + "\r\n\r\n"
                + body,
            echoed(body));
      }
      case 3 -> {
        String body = randomBody(r);
        StringBuilder sb =
            new StringBuilder(
                "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\nHost: a\r\n\r\n");
        int at = 0;
        while (at < body.length()) {
          int n = Math.min(body.length() - at, 1 + r.nextInt(100));
          sb.append(Integer.toHexString(n));
          if (r.nextInt(4) == 0) {
            sb.append(" ; ext=\"v\"");
          }
          sb.append("\r\n").append(body, at, at + n).append("\r\n");
          at += n;
        }
        sb.append("0\r\n");
        if (r.nextBoolean()) {
          sb.append("Checksum: ").append(r.nextInt()).append("\r\n");
        }
        sb.append("\r\n");
        return new Exchange(sb.toString(), echoed(body));
      }
      default -> {
        return new Exchange(
            "GET /missing HTTP/1.1\r\nHost: a\r\n\r\n",
            "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 14\r\n\r\n404 Not Found\n");
      }
    }
  }

  static String randomBody(SplittableRandom r) {
    byte[] b = new byte[r.nextInt(4) == 0 ? 0 : r.nextInt(600)];
    r.nextBytes(b);
    return text(b);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void randomPipelinesInRandomPiecesAreAnsweredInOrder(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    StringBuilder requests = new StringBuilder();
    StringBuilder expected = new StringBuilder();
    int count = 1 + r.nextInt(8);
    for (int i = 0; i < count; i++) {
      Exchange e = randomExchange(r);
      requests.append(e.request());
      expected.append(e.response());
    }
    byte[] wire = bytes(requests.toString());
    boolean direct =
        r.nextBoolean(); // the head parser then holds bytes instead of scanning in place
    HttpConnection<String> c = connection();
    StringBuilder out = new StringBuilder();
    int maxPiece = r.nextInt(3) == 0 ? 1 + r.nextInt(8) : 1 + r.nextInt(wire.length);
    for (int at = 0; at < wire.length; ) {
      int n = Math.min(wire.length - at, 1 + r.nextInt(maxPiece));
      ByteBuffer piece = direct ? ByteBuffer.allocateDirect(n) : ByteBuffer.allocate(n);
      piece.put(wire, at, n).flip();
      c.receive(piece, at);
      assertThat(piece.hasRemaining()).isFalse();
      switch (r.nextInt(3)) {
        case 0 -> out.append(drain(c));
        case 1 -> out.append(drainSome(c, r.nextInt(200))); // a socket that takes only part
        default -> {}
      }
      at += n;
    }
    out.append(drain(c));
    assertThat(out.toString()).isEqualTo(expected.toString());
    assertThat(c.requestCount()).isEqualTo(count);
    assertThat(c.shouldClose()).isFalse();
  }
}
