package dev.wsjava.handshake;

import dev.wsjava.Headers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HttpHeadParserTest {

  /** The client handshake of RFC 6455 §1.2. */
  static final String RFC_REQUEST =
      "GET /chat HTTP/1.1\r\n"
          + "Host: server.example.com\r\n"
          + "Upgrade: websocket\r\n"
          + "Connection: Upgrade\r\n"
          + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
          + "Origin: http://example.com\r\n"
          + "Sec-WebSocket-Protocol: chat, superchat\r\n"
          + "Sec-WebSocket-Version: 13\r\n"
          + "\r\n";

  /** A masked text frame "Hello" sent right after the head (RFC 6455 §5.7). */
  static final byte[] FRAME = HexFormat.of().parseHex("818537fa213d7f9f4d5158");

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static HttpHead.Request parseRequest(String head) throws HttpHeadException {
    return HttpHeadParser.forRequests(HttpHeadLimits.defaults())
        .parse(ByteBuffer.wrap(bytes(head)));
  }

  private static HttpHead.Response parseResponse(String head) throws HttpHeadException {
    return HttpHeadParser.forResponses(HttpHeadLimits.defaults())
        .parse(ByteBuffer.wrap(bytes(head)));
  }

  @Test
  void readsTheRfcExampleRequest() throws Exception {
    HttpHead.Request r = parseRequest(RFC_REQUEST);
    assertThat(r.method()).isEqualTo("GET");
    assertThat(r.target()).isEqualTo("/chat");
    assertThat(r.version()).isEqualTo("HTTP/1.1");
    assertThat(r.minorVersion()).isEqualTo(1);
    assertThat(r.headers().size()).isEqualTo(7);
    assertThat(r.headers().first("host")).isEqualTo("server.example.com");
    assertThat(r.headers().tokens("sec-websocket-protocol")).containsExactly("chat", "superchat");
  }

  @Test
  void everySplitPointGivesTheSameHeadAndLeavesTheFrame() throws Exception {
    byte[] wire = concat(bytes(RFC_REQUEST), FRAME);
    HttpHead.Request whole = parseRequest(RFC_REQUEST);
    for (int split = 0; split <= wire.length; split++) {
      HttpHeadParser<HttpHead.Request> parser =
          HttpHeadParser.forRequests(HttpHeadLimits.defaults());
      ByteBuffer first = ByteBuffer.wrap(wire, 0, split).slice();
      HttpHead.Request got = parser.parse(first);
      ByteBuffer rest;
      if (got == null) {
        assertThat(first.hasRemaining())
            .as("split %d: an incomplete head is held", split)
            .isFalse();
        rest = ByteBuffer.wrap(wire, split, wire.length - split).slice();
        got = parser.parse(rest);
      } else {
        rest = first; // the head ended in the first piece
        assertThat(split).isGreaterThanOrEqualTo(RFC_REQUEST.length());
        ByteBuffer tail = ByteBuffer.wrap(wire, split, wire.length - split).slice();
        rest =
            ByteBuffer.allocate(first.remaining() + tail.remaining()).put(first).put(tail).flip();
      }
      assertThat(got).as("split %d", split).isEqualTo(whole);
      assertThat(remaining(rest)).as("split %d: the frame stays", split).isEqualTo(FRAME);
      assertThat(parser.bufferedBytes()).isZero();
    }
  }

  @Test
  void oneByteAtATimeGivesTheSameHeadAndNothingMore() throws Exception {
    byte[] wire = concat(bytes(RFC_REQUEST), FRAME);
    HttpHeadParser<HttpHead.Request> parser = HttpHeadParser.forRequests(HttpHeadLimits.defaults());
    HttpHead.Request got = null;
    int i = 0;
    while (got == null) {
      ByteBuffer one = ByteBuffer.wrap(wire, i++, 1);
      got = parser.parse(one);
      assertThat(one.hasRemaining()).isFalse();
    }
    assertThat(i).isEqualTo(RFC_REQUEST.length());
    assertThat(got).isEqualTo(parseRequest(RFC_REQUEST));
  }

  @Test
  void directAndReadOnlyBuffersLeaveTheFrameToo() throws Exception {
    byte[] wire = concat(bytes(RFC_REQUEST), FRAME);
    ByteBuffer direct = ByteBuffer.allocateDirect(wire.length).put(wire).flip();
    ByteBuffer readOnly = ByteBuffer.wrap(wire).asReadOnlyBuffer();
    for (ByteBuffer in : new ByteBuffer[] {direct, readOnly}) {
      HttpHead.Request got = HttpHeadParser.forRequests(HttpHeadLimits.defaults()).parse(in);
      assertThat(got).isEqualTo(parseRequest(RFC_REQUEST));
      assertThat(remaining(in)).isEqualTo(FRAME);
    }
  }

  /**
   * Heads copied out of direct buffers reuse one kept array: a long head, then a short one, then
   * a long one again, on this thread and then on a virtual thread, must each come out as sent,
   * with nothing left over from the one before.
   */
  @Test
  void headsOfChangingSizesFromDirectBuffersEachComeOutAsSent() throws Exception {
    String longHead = RFC_REQUEST.replace("\r\n\r\n",
        "\r\nX-Long: " + "v".repeat(3000) + "\r\n\r\n");
    String shortHead = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    Runnable parseAll = () -> {
      try {
        for (String head : List.of(longHead, shortHead, longHead, shortHead)) {
          byte[] wire = concat(bytes(head), FRAME);
          ByteBuffer direct = ByteBuffer.allocateDirect(wire.length).put(wire).flip();
          assertThat(HttpHeadParser.forRequests(HttpHeadLimits.defaults()).parse(direct))
              .isEqualTo(parseRequest(head));
          assertThat(remaining(direct)).isEqualTo(FRAME);
        }
      } catch (Throwable t) {
        failures.add(t);
      }
    };
    parseAll.run();
    Thread.ofVirtual().start(parseAll).join();
    assertThat(failures).isEmpty();
  }

  @Test
  void aDirectBufferIsReadInPlaceWithLeadingEmptyLinesAndAnOffset() throws Exception {
    byte[] wire = concat(bytes("xx\r\n\r\n" + RFC_REQUEST), FRAME);
    ByteBuffer direct = ByteBuffer.allocateDirect(wire.length).put(wire).flip();
    direct.position(2); // past "xx": what the buffer held before
    HttpHeadParser<HttpHead.Request> parser = HttpHeadParser.forRequests(HttpHeadLimits.defaults());
    assertThat(parser.parse(direct)).isEqualTo(parseRequest(RFC_REQUEST));
    assertThat(remaining(direct)).isEqualTo(FRAME);
    assertThat(parser.bufferedBytes()).isZero();
  }

  @Test
  void aHeadSplitAcrossDirectBuffersIsHeldAndCompleted() throws Exception {
    byte[] wire = concat(bytes(RFC_REQUEST), FRAME);
    HttpHeadParser<HttpHead.Request> parser = HttpHeadParser.forRequests(HttpHeadLimits.defaults());
    int cut = RFC_REQUEST.length() / 2;
    ByteBuffer first = ByteBuffer.allocateDirect(cut).put(wire, 0, cut).flip();
    assertThat(parser.parse(first)).isNull();
    assertThat(first.hasRemaining()).isFalse();
    assertThat(parser.bufferedBytes()).isEqualTo(cut);
    ByteBuffer rest = ByteBuffer.allocateDirect(wire.length - cut).put(wire, cut, wire.length - cut).flip();
    assertThat(parser.parse(rest)).isEqualTo(parseRequest(RFC_REQUEST));
    assertThat(remaining(rest)).isEqualTo(FRAME);
  }

  @Test
  void fieldsKeepTheSpellingTheyWereSentInWhetherCommonOrNot() throws Exception {
    HttpHead.Request got =
        parseRequest(
            "GET /chat HTTP/1.1\r\nHOST: a\r\nhost: b\r\nUpgrade: websocket\r\n"
                + "Upgrade: WebSocket\r\nX-Upgrade: Upgrade\r\nConnection: upgradeX\r\n\r\n");
    assertThat(got.method()).isEqualTo("GET");
    assertThat(got.version()).isEqualTo("HTTP/1.1");
    Headers h = got.headers();
    List<String> fields = new ArrayList<>();
    for (int i = 0; i < h.size(); i++) {
      fields.add(h.name(i) + "=" + h.value(i));
    }
    assertThat(fields)
        .containsExactly(
            "HOST=a",
            "host=b",
            "Upgrade=websocket",
            "Upgrade=WebSocket",
            "X-Upgrade=Upgrade",
            "Connection=upgradeX");
  }

  @Test
  void aBufferWithAnOffsetIsReadFromItsPosition() throws Exception {
    byte[] wire = concat(bytes("junk" + RFC_REQUEST), FRAME);
    ByteBuffer in = ByteBuffer.wrap(wire, 4, wire.length - 4).slice();
    assertThat(HttpHeadParser.forRequests(HttpHeadLimits.defaults()).parse(in))
        .isEqualTo(parseRequest(RFC_REQUEST));
    assertThat(remaining(in)).isEqualTo(FRAME);
  }

  @Test
  void successiveHeadsInOneBufferAreReadInTurn() throws Exception {
    HttpHeadParser<HttpHead.Request> parser = HttpHeadParser.forRequests(HttpHeadLimits.defaults());
    ByteBuffer in =
        ByteBuffer.wrap(bytes("GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.0\r\nX: 1\r\n\r\n"));
    assertThat(parser.parse(in).target()).isEqualTo("/a");
    HttpHead.Request b = parser.parse(in);
    assertThat(b.target()).isEqualTo("/b");
    assertThat(b.minorVersion()).isZero();
    assertThat(in.hasRemaining()).isFalse();
  }

  @Test
  void emptyLinesBeforeARequestLineAreSkipped() throws Exception {
    // RFC 7230 §3.5: a server should ignore at least one empty line before the request-line.
    assertThat(parseRequest("\r\n\r\nGET / HTTP/1.1\r\n\r\n").target()).isEqualTo("/");
  }

  @Test
  void valuesKeepObsTextAsLatin1AndLoseSurroundingWhitespace() throws Exception {
    HttpHead.Request r =
        parseRequest("GET / HTTP/1.1\r\nX-Name: \t caf\u00e9 au lait \t\r\nE:\r\n\r\n");
    assertThat(r.headers().first("x-name")).isEqualTo("caf\u00e9 au lait");
    assertThat(r.headers().first("E")).isEmpty();
  }

  @Test
  void anIncompleteHeadNeedsMoreData() throws Exception {
    HttpHeadParser<HttpHead.Request> parser = HttpHeadParser.forRequests(HttpHeadLimits.defaults());
    ByteBuffer in = ByteBuffer.wrap(bytes("GET / HTTP/1.1\r\nHost: a\r\n"));
    assertThat(parser.parse(in)).isNull();
    assertThat(parser.bufferedBytes()).isEqualTo(25);
    assertThat(parser.parse(ByteBuffer.wrap(bytes("\r\n"))).headers().first("Host")).isEqualTo("a");
  }

  // ---- limits ----

  /** A request head of exactly {@code size} bytes, padded with one header field. */
  private static String requestOfSize(int size) {
    String start = "GET / HTTP/1.1\r\nX-Pad: ";
    String end = "\r\n\r\n";
    return start + "a".repeat(size - start.length() - end.length()) + end;
  }

  @Test
  void aHeadOfExactlyTheLimitPassesAndOneMoreByteFails431() throws Exception {
    int limit = HttpHeadLimits.DEFAULT_MAX_HEAD_SIZE;
    assertThat(requestOfSize(limit)).hasSize(limit);
    assertThat(parseRequest(requestOfSize(limit))).isNotNull();
    assertThatThrownBy(() -> parseRequest(requestOfSize(limit + 1)))
        .isInstanceOfSatisfying(HttpHeadException.class, e -> assertThat(e.status()).isEqualTo(431))
        .hasMessageContaining("limit of 8192 bytes");
  }

  @Test
  void theLimitHoldsWhenBytesArriveOneAtATime() throws Exception {
    HttpHeadLimits limits = HttpHeadLimits.defaults().withMaxHeadSize(64);
    byte[] ok = bytes(requestOfSize(64));
    byte[] over = bytes(requestOfSize(65));
    HttpHeadParser<HttpHead.Request> parser = HttpHeadParser.forRequests(limits);
    HttpHead.Request got = null;
    for (byte b : ok) {
      got = parser.parse(ByteBuffer.wrap(new byte[] {b}));
    }
    assertThat(got).isNotNull();
    assertThatThrownBy(
            () -> {
              for (byte b : over) {
                parser.parse(ByteBuffer.wrap(new byte[] {b}));
              }
            })
        .isInstanceOfSatisfying(
            HttpHeadException.class, e -> assertThat(e.status()).isEqualTo(431));
  }

  @Test
  void aRequestLineThatDoesNotFitIsAnswered414() {
    HttpHeadLimits limits = HttpHeadLimits.defaults().withMaxHeadSize(64);
    ByteBuffer in = ByteBuffer.wrap(bytes("GET /" + "a".repeat(100) + " HTTP/1.1\r\n\r\n"));
    assertThatThrownBy(() -> HttpHeadParser.forRequests(limits).parse(in))
        .isInstanceOfSatisfying(HttpHeadException.class, e -> assertThat(e.status()).isEqualTo(414))
        .hasMessageContaining("request line longer than the head limit of 64 bytes");
  }

  @Test
  void theHeaderCountLimitAllowsExactlyTheLimit() throws Exception {
    HttpHeadLimits limits = HttpHeadLimits.defaults().withMaxHeaderCount(3);
    String three = "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n";
    String four = "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n";
    assertThat(
            HttpHeadParser.forRequests(limits)
                .parse(ByteBuffer.wrap(bytes(three)))
                .headers()
                .size())
        .isEqualTo(3);
    assertThatThrownBy(() -> HttpHeadParser.forRequests(limits).parse(ByteBuffer.wrap(bytes(four))))
        .isInstanceOfSatisfying(HttpHeadException.class, e -> assertThat(e.status()).isEqualTo(431))
        .hasMessageContaining("more than 3 header fields");
  }

  @Test
  void theDefaultHeaderCountIs100() throws Exception {
    StringBuilder sb = new StringBuilder("GET / HTTP/1.1\r\n");
    for (int i = 0; i < 100; i++) {
      sb.append("X").append(i).append(": v\r\n");
    }
    assertThat(parseRequest(sb + "\r\n").headers().size()).isEqualTo(100);
    assertThatThrownBy(() -> parseRequest(sb + "Y: v\r\n\r\n"))
        .isInstanceOfSatisfying(
            HttpHeadException.class, e -> assertThat(e.status()).isEqualTo(431));
  }

  // ---- malformed heads: one row per rule ----

  @ParameterizedTest(name = "[{index}] {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "GET / HTTP/1.1\\nHost: a\\n\\n                 | 400 | bare LF at byte 14",
        "GET / HTTP/1.1\\r\\nHost: a\\n\\r\\n           | 400 | bare LF at byte 23",
        "' GET / HTTP/1.1\\r\\n\\r\\n'                  | 400 | must start with a method token",
        "G(T / HTTP/1.1\\r"
            + "\\n"
            + "\\r"
            + "\\n"
            + "                     | 400 | expected one SP after the method, found '('",
        "GET  / HTTP/1.1\\r"
            + "\\n"
            + "\\r"
            + "\\n"
            + "                    | 400 | request-target must be visible ASCII",
        "GET /\\u0001 HTTP/1.1\\r"
            + "\\n"
            + "\\r"
            + "\\n"
            + "              | 400 | expected one SP after the request-target, found 0x01",
        "GET /caf\\u00e9 HTTP/1.1\\r"
            + "\\n"
            + "\\r"
            + "\\n"
            + "           | 400 | expected one SP after the request-target, found 0xE9",
        "GET / HTTP/1.1 \\r\\n\\r\\n                    | 400 | must end after the HTTP-version",
        "GET / HTTP/1.1\\r"
            + "\\r"
            + "\\n"
            + "\\r"
            + "\\n"
            + "                  | 400 | must end after the HTTP-version, found 0x0D",
        "GET / http/1.1\\r"
            + "\\n"
            + "\\r"
            + "\\n"
            + "                     | 400 | HTTP-version must be HTTP/DIGIT.DIGIT",
        "GET / HTTP/1\\r"
            + "\\n"
            + "\\r"
            + "\\n"
            + "                       | 400 | HTTP-version must be HTTP/DIGIT.DIGIT",
        "GET /\\r"
            + "\\n"
            + "\\r"
            + "\\n"
            + "                             | 400 | expected one SP after the request-target",
        "GET / HTTP/2.0\\r\\n\\r\\n                     | 505 | HTTP/2.0 is not supported",
        "GET / HTTP/0.9\\r\\n\\r\\n                     | 505 | HTTP/0.9 is not supported",
        "GET / HTTP/1.1\\r\\nHost: a\\r\\n b\\r\\n\\r\\n  | 400 | obs-fold",
        "GET / HTTP/1.1\\r\\nHost: a\\r\\n\\tb\\r\\n\\r\\n| 400 | obs-fold",
        "GET / HTTP/1.1\\r"
            + "\\n"
            + " Host: a\\r"
            + "\\n"
            + "\\r"
            + "\\n"
            + "          | 400 | whitespace between the start line and the first header field",
        "GET / HTTP/1.1\\r"
            + "\\n"
            + "Host : a\\r"
            + "\\n"
            + "\\r"
            + "\\n"
            + "          | 400 | whitespace between header field name and colon in field Host",
        "GET / HTTP/1.1\\r"
            + "\\n"
            + "Host\\t: a\\r"
            + "\\n"
            + "\\r"
            + "\\n"
            + "        | 400 | whitespace between header field name and colon",
        "GET / HTTP/1.1\\r"
            + "\\n"
            + "Ho\"st: a\\r"
            + "\\n"
            + "\\r"
            + "\\n"
            + "         | 400 | header field name holds '\"', which is not a token character",
        "GET / HTTP/1.1\\r\\nH\\u00f4st: a\\r\\n\\r\\n     | 400 | header field name holds 0xF4",
        "GET / HTTP/1.1\\r\\nHosta\\r\\n\\r\\n             | 400 | header line has no colon",
        "GET / HTTP/1.1\\r\\n: a\\r\\n\\r\\n               | 400 | header field name is empty",
        "GET / HTTP/1.1\\r"
            + "\\n"
            + "X: a\\r"
            + "b\\r"
            + "\\n"
            + "\\r"
            + "\\n"
            + "          | 400 | value of header field X holds 0x0D",
        "GET / HTTP/1.1\\r"
            + "\\n"
            + "X: a\\u0000b\\r"
            + "\\n"
            + "\\r"
            + "\\n"
            + "      | 400 | value of header field X holds 0x00",
        "GET / HTTP/1.1\\r"
            + "\\n"
            + "X: a\\u007fb\\r"
            + "\\n"
            + "\\r"
            + "\\n"
            + "      | 400 | value of header field X holds 0x7F",
      })
  void aMalformedRequestIsRefusedWithItsRule(String wire, int status, String message) {
    String head = unescape(wire.startsWith("'") ? wire.substring(1, wire.length() - 1) : wire);
    assertThatThrownBy(() -> parseRequest(head))
        .isInstanceOfSatisfying(
            HttpHeadException.class, e -> assertThat(e.status()).isEqualTo(status))
        .hasMessageContaining(message);
  }

  @Test
  void afterAFaultTheParserStartsOver() throws Exception {
    HttpHeadParser<HttpHead.Request> parser = HttpHeadParser.forRequests(HttpHeadLimits.defaults());
    assertThatThrownBy(() -> parser.parse(ByteBuffer.wrap(bytes("GET / HTTP/1.1\n"))))
        .isInstanceOf(HttpHeadException.class);
    assertThat(parser.bufferedBytes()).isZero();
    assertThat(parser.parse(ByteBuffer.wrap(bytes("GET /ok HTTP/1.1\r\n\r\n"))).target())
        .isEqualTo("/ok");
  }

  // ---- responses ----

  @Test
  void readsTheRfcExampleResponse() throws Exception {
    HttpHead.Response r =
        parseResponse(
            "HTTP/1.1 101 Switching Protocols\r\n"
                + "Upgrade: websocket\r\n"
                + "Connection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"
                + "Sec-WebSocket-Protocol: chat\r\n"
                + "\r\n");
    assertThat(r.status()).isEqualTo(101);
    assertThat(r.reason()).isEqualTo("Switching Protocols");
    assertThat(r.headers().first("sec-websocket-accept")).isEqualTo("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
  }

  @Test
  void theReasonPhraseMayBeEmptyOrAbsent() throws Exception {
    assertThat(parseResponse("HTTP/1.1 101 \r\n\r\n").reason()).isEmpty();
    assertThat(parseResponse("HTTP/1.1 101\r\n\r\n").reason()).isEmpty();
    assertThat(parseResponse("HTTP/1.0 403 Go \u00e9lsewhere\r\n\r\n").reason())
        .isEqualTo("Go \u00e9lsewhere");
  }

  @Test
  void aResponsesObsFoldBecomesOneSpace() throws Exception {
    // RFC 7230 §3.2.4: a user agent replaces obs-fold with SP before interpreting the value.
    HttpHead.Response r =
        parseResponse("HTTP/1.1 101 OK\r\nConnection: keep-alive,\r\n\t Upgrade\r\n\r\n");
    assertThat(r.headers().first("Connection")).isEqualTo("keep-alive, Upgrade");
  }

  @Test
  void anEmptyLineDoesNotStartAResponse() {
    assertThatThrownBy(() -> parseResponse("\r\nHTTP/1.1 101 OK\r\n\r\n"))
        .isInstanceOf(HttpHeadException.class)
        .hasMessageContaining("HTTP-version must be HTTP/DIGIT.DIGIT");
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "HTTP/1.1 99 Too low\\r\\n\\r\\n    | status-code must be three digits",
        "HTTP/1.1 1010 x\\r\\n\\r\\n        | expected one SP after the status-code",
        "HTTP/1.1 600 x\\r\\n\\r\\n         | status-code 600 is outside 100-599",
        "HTTP/1.1  101 x\\r\\n\\r\\n        | status-code must be three digits",
        "HTTP/1.1 101 a\\u0001b\\r\\n\\r\\n | reason-phrase holds a control character",
        "HTTP/2 101 x\\r\\n\\r\\n           | HTTP-version must be HTTP/DIGIT.DIGIT",
        "HTTP/1.1 101 x\\r"
            + "\\n"
            + " x\\r"
            + "\\n"
            + "\\r"
            + "\\n"
            + " | whitespace between the start line and the first header field",
      })
  void aMalformedResponseIsRefusedWithItsRule(String wire, String message) {
    assertThatThrownBy(() -> parseResponse(unescape(wire)))
        .isInstanceOf(HttpHeadException.class)
        .hasMessageContaining(message);
  }

  // ---- helpers ----

  static byte[] remaining(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  /** Turns the escapes \r \n \t \\uXXXX of a table cell into characters. */
  static String unescape(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      char n = s.charAt(++i);
      switch (n) {
        case 'r' -> sb.append('\r');
        case 'n' -> sb.append('\n');
        case 't' -> sb.append('\t');
        case 'u' -> {
          sb.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
          i += 4;
        }
        default -> sb.append(n);
      }
    }
    return sb.toString();
  }
}
