package dev.wsjava.transport.nio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.handshake.HandshakeException;
import dev.wsjava.internal.http.HttpLimits;
import dev.wsjava.http.HttpResponse;
import dev.wsjava.internal.http.Router;
import dev.wsjava.transport.Connection;
import dev.wsjava.transport.Acceptor;
import dev.wsjava.transport.ConnectionHandler;
import dev.wsjava.transport.HandshakeInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The NIO server with a router: plain HTTP routes beside WebSocket routes, over loopback. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpFrontTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  static EventLoopGroup group;

  @BeforeAll
  static void setUp() {
    group = new EventLoopGroup(2);
  }

  @AfterAll
  static void tearDown() {
    assertThat(group.shutdown(Duration.ofSeconds(5))).isTrue();
  }

  static final byte[] BIG = "x".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);

  static NioServer server(HttpLimits limits) throws IOException {
    Acceptor echo = Acceptor.of(info -> Events.echo());
    Acceptor refuse = Acceptor.of(info -> null);
    Router<Acceptor> router =
        Router.<Acceptor>builder()
            .get("/hello", r -> HttpResponse.text(200, "hello " + r.query()))
            .get("/big", r -> HttpResponse.bytes(200, "text/plain", BIG))
            .websocket("/ws", echo)
            .websocket("/closed", refuse)
            .build();
    return NioServer.builder().bind("127.0.0.1", 0).group(group).router(router, limits).start();
  }

  static void await(NioServer s) throws InterruptedException {
    dev.wsjava.Await.until("no connection left open", WAIT, () -> s.openConnections() == 0);
  }

  /** Reads one response with a Content-Length body; returns head and body. */
  static String readResponse(RawPeer peer) throws IOException {
    String head = peer.readHead();
    int at = head.toLowerCase(java.util.Locale.ROOT).indexOf("content-length: ");
    int end = head.indexOf("\r\n", at);
    int length = Integer.parseInt(head.substring(at + 16, end).trim());
    byte[] body = new byte[length];
    peer.in.readFully(body);
    return head + new String(body, StandardCharsets.ISO_8859_1);
  }

  @Test
  void plainRoutesAreAnsweredInOrderOverOneKeepAliveConnection() throws Exception {
    try (NioServer server = server(HttpLimits.defaults());
        RawPeer peer = RawPeer.client(server.port())) {
      peer.send(get("/hello?1"));
      assertThat(readResponse(peer)).startsWith("HTTP/1.1 200 ").endsWith("hello 1");
      peer.send(
          (new String(get("/hello?2")) + new String(get("/nope")) + new String(get("/hello?3")))
              .getBytes(StandardCharsets.US_ASCII)); // pipelined in one write
      assertThat(readResponse(peer)).endsWith("hello 2");
      assertThat(readResponse(peer)).startsWith("HTTP/1.1 404 ");
      assertThat(readResponse(peer)).endsWith("hello 3");
    }
  }

  static byte[] get(String target) {
    return ("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void aClientThatPipelinesWithoutReadingIsServedOnceItReads() throws Exception {
    int n = 300; // 19 MiB of answers: past the socket buffers and the 64 KiB the front may queue
    try (NioServer server = server(HttpLimits.defaults());
        RawPeer peer = RawPeer.client(server.port())) {
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      for (int i = 0; i < n; i++) {
        all.write(get("/big"));
      }
      all.write(get("/hello?last"));
      peer.send(all.toByteArray());
      Thread.sleep(100); // the server fills the socket, then holds the rest of the requests
      for (int i = 0; i < n; i++) {
        String r = readResponse(peer);
        assertThat(r).startsWith("HTTP/1.1 200 ");
        assertThat(r.length() - r.indexOf("\r\n\r\n") - 4).isEqualTo(BIG.length);
      }
      assertThat(readResponse(peer)).endsWith("hello last");
    }
  }

  @Test
  void aWebSocketRouteUpgradesAndEchoes() throws Exception {
    try (NioServer server = server(HttpLimits.defaults());
        NioClient client = NioClient.builder().group(group).build()) {
      Events events = Events.record();
      Connection c =
          client
              .connect(URI.create("ws://127.0.0.1:" + server.port() + "/ws"), events)
              .get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      c.sendText("through the router");
      assertThat(new String(events.next(WAIT).data(), StandardCharsets.UTF_8))
          .isEqualTo("through the router");
      c.close(1000, "").get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      CompletableFuture<Connection> refused =
          client.connect(URI.create("ws://127.0.0.1:" + server.port() + "/closed"), events);
      Throwable cause = NioServerTest.catchCause(refused);
      assertThat(cause).isInstanceOf(HandshakeException.class);
      assertThat(((HandshakeException) cause).status()).isEqualTo(404);
      CompletableFuture<Connection> plain =
          client.connect(URI.create("ws://127.0.0.1:" + server.port() + "/hello"), events);
      assertThat(NioServerTest.catchCause(plain)).isInstanceOf(HandshakeException.class);
      await(server);
    }
  }

  @Test
  void anUnfinishedRequestIsAnswered408AfterTheRequestTimeout() throws Exception {
    HttpLimits limits =
        HttpLimits.defaults().withRequestTimeoutNanos(TimeUnit.MILLISECONDS.toNanos(300));
    try (NioServer server = server(limits);
        RawPeer peer = RawPeer.client(server.port())) {
      peer.send("GET /hello HTTP/1.1\r\nHost: a\r\n".getBytes(StandardCharsets.US_ASCII));
      long start = System.nanoTime();
      assertThat(readResponse(peer)).startsWith("HTTP/1.1 408 ");
      assertThat(peer.readToEnd()).isZero();
      assertThat(Duration.ofNanos(System.nanoTime() - start).toMillis()).isBetween(200L, 5000L);
      peer.socket.close();
      await(server);
    }
  }

  @Test
  void aClientThatHalfClosesStillGetsItsAnswers() throws Exception {
    try (NioServer server = server(HttpLimits.defaults());
        RawPeer peer = RawPeer.client(server.port())) {
      peer.send(
          (new String(get("/hello?a")) + new String(get("/hello?b")))
              .getBytes(StandardCharsets.US_ASCII));
      peer.socket.shutdownOutput();
      assertThat(readResponse(peer)).endsWith("hello a");
      assertThat(readResponse(peer)).endsWith("hello b");
      assertThat(peer.readToEnd()).isZero();
      await(server);
    }
  }
}
