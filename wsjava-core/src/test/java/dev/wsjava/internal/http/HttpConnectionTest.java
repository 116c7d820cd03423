package dev.wsjava.internal.http;

import dev.wsjava.http.HttpRequest;
import dev.wsjava.http.HttpResponse;
import static dev.wsjava.internal.http.HttpWire.buffer;
import static dev.wsjava.internal.http.HttpWire.drain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.wsjava.handshake.HttpHeadLimits;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Keep-alive, errors, limits and timeouts of one connection, asserted on the bytes it queues. */
class HttpConnectionTest {

  static final Router<String> ROUTER =
      Router.<String>builder()
          .get("/", r -> HttpResponse.text(200, "hello"))
          .route("POST", "/echo", HttpConnectionTest::echo)
          .get(
              "/boom",
              r -> {
                throw new IllegalStateException("secret: the database password");
              })
          .websocket("/chat", "chat-route")
          .build();

  static HttpResponse echo(HttpRequest r) {
    ByteBuffer b = r.body();
    byte[] a = new byte[b.remaining()];
    b.get(a);
    return HttpResponse.bytes(200, "application/octet-stream", a);
  }

  static final String HELLO =
      "HTTP/1.1 200 OK\r\n"
          + "Content-Type: text/plain; charset=utf-8\r\n"
          + "Content-Length: 5\r\n"
          + "\r\n"
          + "hello";

  static final String GET = "GET / HTTP/1.1\r\nHost: a.example\r\n\r\n";

  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  private final HttpConnection<String> c = new HttpConnection<>(ROUTER, HttpLimits.defaults(), 0);

  /** Feeds text at time 0 and returns what was queued. */
  private String exchange(HttpConnection<String> conn, String request) {
    ByteBuffer in = buffer(request);
    assertThat(conn.receive(in, 0)).isNull();
    assertThat(in.hasRemaining()).as("all input consumed").isFalse();
    return drain(conn);
  }

  private String exchange(String request) {
    return exchange(c, request);
  }

  private static String errorPage(String statusLine, int length, String body) {
    return statusLine
        + "\r\nConnection: close\r\n"
        + "Content-Type: text/plain; charset=utf-8\r\n"
        + "Content-Length: "
        + length
        + "\r\n\r\n"
        + body;
  }

  // ---- keep-alive (RFC 9112 §9.3) ----

  @Test
  void anHttp11RequestIsAnsweredAndTheConnectionPersists() {
    assertThat(exchange(GET)).isEqualTo(HELLO);
    assertThat(c.shouldClose()).isFalse();
    assertThat(exchange(GET)).isEqualTo(HELLO);
    assertThat(c.requestCount()).isEqualTo(2);
  }

  @Test
  void connectionCloseIsAnsweredWithCloseAndLaterRequestsAreIgnored() {
    String out = exchange("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n" + GET);
    assertThat(out)
        .isEqualTo(
            "HTTP/1.1 200 OK\r\n"
                + "Connection: close\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 5\r\n"
                + "\r\n"
                + "hello");
    assertThat(c.shouldClose()).isTrue();
    assertThat(c.requestCount()).isEqualTo(1);
    assertThat(exchange(GET)).isEmpty();
  }

  @Test
  void anHttp10RequestClosesByDefault() {
    String out = exchange("GET / HTTP/1.0\r\n\r\n");
    assertThat(out).startsWith("HTTP/1.1 200 OK\r\nConnection: close\r\n");
    assertThat(c.shouldClose()).isTrue();
  }

  @Test
  void anHttp10RequestWithKeepAliveIsAnsweredWithKeepAlive() {
    String out = exchange("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n");
    assertThat(out)
        .isEqualTo(
            "HTTP/1.1 200 OK\r\n"
                + "Connection: keep-alive\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 5\r\n"
                + "\r\n"
                + "hello");
    assertThat(c.shouldClose()).isFalse();
  }

  @Test
  void theLastRequestAllowedOnAConnectionIsAnsweredWithClose() {
    HttpConnection<String> two =
        new HttpConnection<>(ROUTER, HttpLimits.defaults().withMaxRequestsPerConnection(2), 0);
    assertThat(exchange(two, GET)).isEqualTo(HELLO);
    assertThat(exchange(two, GET)).contains("\r\nConnection: close\r\n");
    assertThat(two.shouldClose()).isTrue();
    assertThat(two.closeReason()).contains("2 requests");
  }

  @Test
  void headIsAnsweredWithTheHeadOfGetAndNoBody() {
    assertThat(exchange("HEAD / HTTP/1.1\r\nHost: a\r\n\r\n" + GET))
        .isEqualTo(
            "HTTP/1.1 200 OK\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 5\r\n"
                + "\r\n"
                + HELLO);
  }

  @Test
  void headOfAnUnknownPathIsA404WithoutBody() {
    assertThat(exchange("HEAD /nope HTTP/1.1\r\nHost: a\r\n\r\n"))
        .isEqualTo(
            "HTTP/1.1 404 Not Found\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 14\r\n"
                + "\r\n");
  }

  // ---- routing answers ----

  @Test
  void anUnknownPathIs404AndTheConnectionPersists() {
    assertThat(exchange("GET /nope?x=1 HTTP/1.1\r\nHost: a\r\n\r\n"))
        .isEqualTo(
            "HTTP/1.1 404 Not Found\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 14\r\n"
                + "\r\n"
                + "404 Not Found\n");
    assertThat(c.shouldClose()).isFalse();
  }

  @Test
  void aKnownPathWithAnotherMethodIs405WithAllow() {
    assertThat(exchange("DELETE / HTTP/1.1\r\nHost: a\r\n\r\n"))
        .isEqualTo(
            "HTTP/1.1 405 Method Not Allowed\r\n"
                + "Allow: GET, HEAD\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 23\r\n"
                + "\r\n"
                + "405 Method Not Allowed\n");
    assertThat(c.shouldClose()).isFalse();
  }

  @Test
  void anAbsoluteFormTargetIsRoutedByItsPath() {
    assertThat(exchange("GET http://a.example/ HTTP/1.1\r\nHost: a.example\r\n\r\n"))
        .isEqualTo(HELLO);
  }

  // ---- errors that close ----

  @Test
  void aMalformedRequestIs400AndCloses() {
    // A bare LF ends the request line (RFC 9112 §2.2 lets us refuse it).
    assertThat(exchange("GET / HTTP/1.1\nHost: a\r\n\r\n" + GET))
        .isEqualTo(errorPage("HTTP/1.1 400 Bad Request", 16, "400 Bad Request\n"));
    assertThat(c.shouldClose()).isTrue();
    assertThat(c.closeReason()).contains("bare LF");
  }

  static Stream<Arguments> badFraming() {
    String post = "POST /echo HTTP/1.1\r\nHost: a\r\n";
    return Stream.of(
        arguments("no Host in HTTP/1.1", "GET / HTTP/1.1\r\n\r\n", "exactly one Host"),
        arguments(
            "two Host fields", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "exactly one Host"),
        arguments("a fragment in the target", "GET /#top HTTP/1.1\r\nHost: a\r\n\r\n", "fragment"),
        arguments("authority-form", "GET a.example:80 HTTP/1.1\r\nHost: a\r\n\r\n", "origin-form"),
        arguments("Content-Length signed", post + "Content-Length: +5\r\n\r\n", "must be digits"),
        arguments("Content-Length empty", post + "Content-Length: \r\n\r\n", "one number"),
        arguments(
            "Content-Length values differ", post + "Content-Length: 5, 6\r\n\r\n", "one number"),
        arguments(
            "Content-Length and Transfer-Encoding",
            post + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
            "smuggling"),
        arguments(
            "Transfer-Encoding in HTTP/1.0",
            "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
            "HTTP/1.0"),
        arguments(
            "chunked not last",
            post + "Transfer-Encoding: chunked, gzip\r\n\r\n",
            "final transfer coding"),
        arguments(
            "chunked twice", post + "Transfer-Encoding: chunked, chunked\r\n\r\n", "applied once"),
        arguments(
            "a malformed chunk", post + "Transfer-Encoding: chunked\r\n\r\nz\r\n", "hex digit"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badFraming")
  void badFramingIs400AndCloses(String name, String request, String reason) {
    assertThat(exchange(request + GET))
        .isEqualTo(errorPage("HTTP/1.1 400 Bad Request", 16, "400 Bad Request\n"));
    assertThat(c.shouldClose()).isTrue();
    assertThat(c.closeReason()).contains(reason);
  }

  @Test
  void aTransferCodingOtherThanChunkedIs501() {
    assertThat(
            exchange("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"))
        .isEqualTo(errorPage("HTTP/1.1 501 Not Implemented", 20, "501 Not Implemented\n"));
    assertThat(c.shouldClose()).isTrue();
  }

  @Test
  void aBodyAnnouncedOverTheLimitIs413BeforeItArrives() {
    HttpConnection<String> small =
        new HttpConnection<>(ROUTER, HttpLimits.defaults().withMaxBodySize(4), 0);
    ByteBuffer in = buffer("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n");
    small.receive(in, 0);
    assertThat(drain(small))
        .isEqualTo(errorPage("HTTP/1.1 413 Content Too Large", 22, "413 Content Too Large\n"));
    assertThat(small.shouldClose()).isTrue();
  }

  @Test
  void aContentLengthTooLargeForALongIs413() {
    assertThat(
            exchange(
                "POST /echo HTTP/1.1\r\n"
                    + "Host: a\r\n"
                    + "Content-Length: 99999999999999999999999\r\n\r\n"))
        .startsWith("HTTP/1.1 413 Content Too Large\r\nConnection: close\r\n");
  }

  @Test
  void aChunkedBodyOverTheLimitIs413AtTheChunkThatPassesIt() {
    HttpConnection<String> small =
        new HttpConnection<>(ROUTER, HttpLimits.defaults().withMaxBodySize(4), 0);
    String head = "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
    assertThat(exchange(small, head + "3\r\nabc\r\n")).isEmpty();
    assertThat(exchange(small, "2\r\n"))
        .isEqualTo(errorPage("HTTP/1.1 413 Content Too Large", 22, "413 Content Too Large\n"));
  }

  @Test
  void tooManyHeaderFieldsIs431() {
    HttpConnection<String> strict =
        new HttpConnection<>(
            ROUTER,
            HttpLimits.defaults().withHead(HttpHeadLimits.defaults().withMaxHeaderCount(2)),
            0);
    assertThat(exchange(strict, "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\n\r\n"))
        .isEqualTo(
            errorPage(
                "HTTP/1.1 431 Request Header Fields Too Large",
                36,
                "431 Request Header Fields Too Large\n"));
    assertThat(strict.shouldClose()).isTrue();
  }

  @Test
  void aHeadOverItsSizeIs431WithoutWaitingForItsEnd() {
    HttpConnection<String> strict =
        new HttpConnection<>(
            ROUTER,
            HttpLimits.defaults().withHead(HttpHeadLimits.defaults().withMaxHeadSize(64)),
            0);
    String out = exchange(strict, "GET / HTTP/1.1\r\nHost: a\r\nCookie: " + "x".repeat(64));
    assertThat(out).startsWith("HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close");
  }

  @Test
  void aRequestLineLongerThanTheHeadLimitIs414() {
    HttpConnection<String> strict =
        new HttpConnection<>(
            ROUTER,
            HttpLimits.defaults().withHead(HttpHeadLimits.defaults().withMaxHeadSize(64)),
            0);
    assertThat(exchange(strict, "GET /" + "a".repeat(64)))
        .isEqualTo(errorPage("HTTP/1.1 414 URI Too Long", 17, "414 URI Too Long\n"));
  }

  @Test
  void anotherMajorVersionIs505() {
    assertThat(exchange("GET / HTTP/2.0\r\nHost: a\r\n\r\n"))
        .isEqualTo(
            errorPage(
                "HTTP/1.1 505 HTTP Version Not Supported", 31, "505 HTTP Version Not Supported\n"));
  }

  @Test
  void aThrowingHandlerIs500ClosesAndLeaksNothing() {
    String out = exchange("GET /boom HTTP/1.1\r\nHost: a\r\n\r\n" + GET);
    assertThat(out)
        .isEqualTo(
            errorPage("HTTP/1.1 500 Internal Server Error", 26, "500 Internal Server Error\n"));
    assertThat(c.shouldClose()).isTrue();
    assertThat(c.requestCount()).as("the pipelined GET is not served").isEqualTo(1);
    assertThat(c.handlerFailure()).isInstanceOf(IllegalStateException.class);
    assertThat(c.closeReason()).contains("secret"); // for the log, not for the client
  }

  @Test
  void aHandlerReturningNullIs500() {
    Router<String> r = Router.<String>builder().get("/", req -> null).build();
    HttpConnection<String> conn = new HttpConnection<>(r, HttpLimits.defaults(), 0);
    assertThat(exchange(conn, GET)).startsWith("HTTP/1.1 500 Internal Server Error\r\n");
    assertThat(conn.handlerFailure()).isInstanceOf(NullPointerException.class);
  }

  // ---- bodies ----

  @Test
  void aContentLengthBodyIsHandedToTheHandler() {
    assertThat(exchange("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nab\r\nc"))
        .isEqualTo(
            "HTTP/1.1 200 OK\r\n"
                + "Content-Type: application/octet-stream\r\n"
                + "Content-Length: 5\r\n"
                + "\r\n"
                + "ab\r\nc");
  }

  @Test
  void aChunkedBodyIsDecodedForTheHandler() {
    String request =
        "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "4\r\nWiki\r\n"
            + "5;note=\"x\"\r\npedia\r\n"
            + "0\r\nExpires: never\r\n\r\n";
    assertThat(exchange(request + GET)).endsWith("\r\n\r\nWikipedia" + HELLO);
  }

  @Test
  void expect100ContinueIsAnsweredBeforeTheBodyIsRead() {
    ByteBuffer head =
        buffer(
            "POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n");
    c.receive(head, 0);
    assertThat(drain(c)).isEqualTo("HTTP/1.1 100 Continue\r\n\r\n");
    c.receive(buffer("hi"), 0);
    assertThat(drain(c)).startsWith("HTTP/1.1 200 OK\r\n").endsWith("\r\n\r\nhi");
  }

  @Test
  void expect100ContinueIsNotAnsweredWhenTheBodyCameAlong() {
    assertThat(
            exchange(
                "POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n"
                    + "Content-Length: 2\r\n\r\nhi"))
        .startsWith("HTTP/1.1 200 OK\r\n");
  }

  // ---- backpressure ----

  @Test
  void pipelinedRequestsWaitInTheCallersBufferWhileAnswersAreUnwritten() {
    HttpConnection<String> strict =
        new HttpConnection<>(ROUTER, HttpLimits.defaults().withMaxQueuedBytes(0), 0);
    ByteBuffer in = buffer(GET + GET);
    strict.receive(in, 0);
    assertThat(in.remaining()).as("the second request is left unread").isEqualTo(GET.length());
    strict.receive(in, 0);
    assertThat(in.remaining())
        .as("still unread while the answer is queued")
        .isEqualTo(GET.length());
    assertThat(drain(strict)).isEqualTo(HELLO);
    strict.receive(in, 0);
    assertThat(in.hasRemaining()).isFalse();
    assertThat(drain(strict)).isEqualTo(HELLO);
  }

  // ---- time ----

  @Test
  void aRequestNotCompleteWithinTheTimeoutIs408() {
    ByteBuffer in = buffer("GET / HTTP/1.1\r\nHo");
    c.receive(in, 5 * SECOND);
    long deadline = c.deadlineNanos();
    assertThat(deadline).isEqualTo(5 * SECOND + HttpLimits.DEFAULT_REQUEST_TIMEOUT_NANOS);
    c.onTimeout(deadline - 1);
    assertThat(c.hasOutbound()).isFalse();
    c.onTimeout(deadline);
    assertThat(drain(c))
        .isEqualTo(errorPage("HTTP/1.1 408 Request Timeout", 20, "408 Request Timeout\n"));
    assertThat(c.shouldClose()).isTrue();
    assertThat(c.deadlineNanos()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void aBodyNotCompleteWithinTheTimeoutIs408() {
    c.receive(buffer("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\nabc"), SECOND);
    c.onTimeout(SECOND + HttpLimits.DEFAULT_REQUEST_TIMEOUT_NANOS);
    assertThat(drain(c)).startsWith("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n");
  }

  @Test
  void anIdleKeepAliveConnectionClosesSilently() {
    c.receive(buffer(GET), 3 * SECOND);
    assertThat(drain(c)).isEqualTo(HELLO);
    assertThat(c.deadlineNanos()).isEqualTo(3 * SECOND + HttpLimits.DEFAULT_IDLE_TIMEOUT_NANOS);
    c.onTimeout(c.deadlineNanos());
    assertThat(c.shouldClose()).isTrue();
    assertThat(c.hasOutbound()).isFalse();
  }

  @Test
  void aNewConnectionThatSendsNothingClosesSilentlyAfterTheRequestTimeout() {
    assertThat(c.deadlineNanos()).isEqualTo(HttpLimits.DEFAULT_REQUEST_TIMEOUT_NANOS);
    c.onTimeout(HttpLimits.DEFAULT_REQUEST_TIMEOUT_NANOS);
    assertThat(c.shouldClose()).isTrue();
    assertThat(c.hasOutbound()).isFalse();
  }

  @Test
  void theIdleClockRestartsWhileAnAnswerIsStillBeingWritten() {
    c.receive(buffer(GET), 0);
    long deadline = c.deadlineNanos();
    c.onTimeout(deadline);
    assertThat(c.shouldClose()).as("the answer is not written yet").isFalse();
    assertThat(c.deadlineNanos()).isEqualTo(deadline + HttpLimits.DEFAULT_IDLE_TIMEOUT_NANOS);
    drain(c);
    c.onTimeout(c.deadlineNanos());
    assertThat(c.shouldClose()).isTrue();
  }

  @Test
  void theRequestClockStartsAtTheFirstByteOfTheNextRequest() {
    c.receive(buffer(GET + "GET"), 0);
    drain(c);
    assertThat(c.deadlineNanos()).isEqualTo(HttpLimits.DEFAULT_REQUEST_TIMEOUT_NANOS);
    c.receive(buffer(" / HTTP/1.1\r\nHost: a\r\n\r\n"), 2 * SECOND);
    assertThat(drain(c)).isEqualTo(HELLO);
    assertThat(c.deadlineNanos()).isEqualTo(2 * SECOND + HttpLimits.DEFAULT_IDLE_TIMEOUT_NANOS);
  }

  // ---- end of stream ----

  @Test
  void theEndOfTheStreamInsideARequestClosesWithoutAnswer() {
    c.receive(buffer("GET / HTTP/1.1\r\n"), 0);
    c.receiveEnd();
    assertThat(c.shouldClose()).isTrue();
    assertThat(c.hasOutbound()).isFalse();
    assertThat(c.closeReason()).contains("inside a request");
  }

  @Test
  void answersQueuedBeforeTheEndOfTheStreamAreStillWritten() {
    c.receive(buffer(GET), 0);
    c.receiveEnd();
    assertThat(c.shouldClose()).isTrue();
    assertThat(drain(c)).isEqualTo(HELLO);
  }
}
