package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.handshake.HandshakeException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The server's handshake hook end to end, over both transports, ws and wss: what it sees of the
 * request, how its acceptance and rejection reach real clients (the JDK's and ours), the async
 * form, and the attachment in later callbacks.
 */
class HandshakeHookTest {
  @TempDir static Path dir;
  static TestTls tls;

  WebSocketServer server;
  WebSocketClient client;

  @BeforeAll
  static void certificates() throws Exception {
    tls = TestTls.create(dir);
  }

  record Setup(Transport transport, boolean tls) {
    @Override
    public String toString() {
      return transport + (tls ? " wss" : " ws");
    }
  }

  static Stream<Setup> setups() {
    List<Setup> out = new ArrayList<>();
    for (Transport t : Transport.values()) {
      out.add(new Setup(t, false));
      out.add(new Setup(t, true));
    }
    return out.stream();
  }

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  WebSocketConfig config(Setup s, Duration handshakeTimeout, String... subprotocols) {
    return WebSocketConfig.builder()
        .transport(s.transport())
        .eventLoops(1)
        .subprotocols(List.of(subprotocols))
        .handshakeTimeout(handshakeTimeout)
        .build();
  }

  /** Echoes, prefixed with what the socket kept: the attachment and a cookie of the request. */
  static final WebSocketListener ECHO_STATE =
      new WebSocketListener() {
        @Override
        public void onText(WebSocket ws, String text) {
          HandshakeRequest r = ws.request();
          ws.sendText(ws.attachment() + "|" + r.cookie("sid") + "|" + r.queryParam("q") + "|" + text);
        }
      };

  URI start(Setup s, WebSocketServer.Builder b, Duration handshakeTimeout) throws Exception {
    b.bind("127.0.0.1", 0).config(config(s, handshakeTimeout)).websocket("/ws", ECHO_STATE);
    if (s.tls()) {
      b.tls(tls.server());
    }
    server = b.start();
    return URI.create((s.tls() ? "wss" : "ws") + "://localhost:" + server.port() + "/ws");
  }

  WebSocketClient client(Setup s, String... subprotocols) {
    WebSocketClient.Builder b =
        WebSocketClient.builder()
            .config(config(s, Duration.ofSeconds(10), subprotocols))
            .header("Cookie", "theme=dark; sid=\"s-42\"");
    if (s.tls()) {
      b.tls(tls.client());
    }
    client = b.build();
    return client;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void aRejectionWith401AndItsHeadersReachesTheClientAndAnAuthorizedOneIsServed(Setup s)
      throws Exception {
    URI uri =
        start(
            s,
            WebSocketServer.builder()
                .onHandshake(
                    req ->
                        req.header("Authorization") != null
                            ? HandshakeDecision.accept()
                            : HandshakeDecision.reject(401)
                                .header("WWW-Authenticate", "Bearer realm=\"chat\"")
                                .body("log in first\n")),
            Duration.ofSeconds(10));
    assertThatThrownBy(() -> client(s).connect(uri).get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            HandshakeException.class,
            e -> {
              assertThat(e.status()).isEqualTo(401);
              assertThat(e.response().headers().first("WWW-Authenticate"))
                  .isEqualTo("Bearer realm=\"chat\"");
              assertThat(e.response().headers().first("Content-Length")).isEqualTo("13");
            });
    client.close();
    WebSocketClient.Builder b =
        WebSocketClient.builder()
            .config(config(s, Duration.ofSeconds(10)))
            .header("Authorization", "Bearer t");
    if (s.tls()) {
      b.tls(tls.client());
    }
    client = b.build();
    client.connect(uri).get(10, TimeUnit.SECONDS).close().get(10, TimeUnit.SECONDS);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void aRejectionWith429ReachesOurClientWithRetryAfter(Setup s) throws Exception {
    URI uri =
        start(
            s,
            WebSocketServer.builder()
                .onHandshake(req -> HandshakeDecision.reject(429).header("Retry-After", "7")),
            Duration.ofSeconds(10));
    assertThatThrownBy(() -> client(s).connect(uri).get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            HandshakeException.class,
            e -> {
              assertThat(e.status()).isEqualTo(429);
              assertThat(e.response().headers().first("Retry-After")).isEqualTo("7");
            });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void anAcceptanceWithoutExtensionsAnswersNoneAndBothSidesSpeakUncompressed(Setup s)
      throws Exception {
    URI uri =
        start(
            s,
            WebSocketServer.builder()
                .onHandshake(
                    req ->
                        req.queryParam("plain") != null
                            ? HandshakeDecision.accept().withoutExtensions().attach("p")
                            : HandshakeDecision.accept().attach("d")),
            Duration.ofSeconds(10));
    String big = "compressible ".repeat(400);
    WebSocket deflated = client(s).connect(uri).get(10, TimeUnit.SECONDS);
    assertThat(deflated.extensions()).as("the default negotiates deflate").isNotEmpty();
    deflated.close().get(10, TimeUnit.SECONDS);

    WebSocket plain = client.connect(URI.create(uri + "?plain")).get(10, TimeUnit.SECONDS);
    assertThat(plain.extensions()).isEmpty();
    assertThat(plain.responseHeaders().first("Sec-WebSocket-Extensions")).isNull();
    plain.sendText(big);
    assertThat(plain.receive(Duration.ofSeconds(10)))
        .as("the server does not compress either (the client would fail on RSV1)")
        .isEqualTo(new Message.Text("p|s-42|null|" + big));
    plain.close().get(10, TimeUnit.SECONDS);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void anAcceptanceChoosesTheSubprotocolAndSetsACookieTheClientSees(Setup s) throws Exception {
    AtomicReference<HandshakeRequest> seen = new AtomicReference<>();
    URI uri =
        start(
            s,
            WebSocketServer.builder()
                .onHandshake(
                    req -> {
                      seen.set(req);
                      return HandshakeDecision.accept()
                          .subprotocol(req.subprotocols().get(1))
                          .header("Set-Cookie", "sid=s-43; HttpOnly")
                          .attach("user-" + req.cookie("sid"));
                    }),
            Duration.ofSeconds(10));
    WebSocket ws =
        client(s, "chat.v1", "chat.v2")
            .connect(URI.create(uri + "?q=a%20b&q=c"))
            .get(10, TimeUnit.SECONDS);
    assertThat(ws.subprotocol()).isEqualTo("chat.v2");
    assertThat(ws.responseHeaders().first("Set-Cookie")).isEqualTo("sid=s-43; HttpOnly");
    assertThat(ws.request()).as("a client-side socket has no server request").isNull();

    HandshakeRequest req = seen.get();
    assertThat(req.method()).isEqualTo("GET");
    assertThat(req.path()).isEqualTo("/ws");
    assertThat(req.queryParams()).containsEntry("q", List.of("a b", "c"));
    assertThat(req.cookies()).containsEntry("theme", "dark").containsEntry("sid", "s-42");
    assertThat(req.subprotocols()).containsExactly("chat.v1", "chat.v2");
    assertThat(req.header("host")).isEqualTo("localhost:" + server.port());
    assertThat(req.remoteAddress()).isNotNull();
    assertThat(req.localAddress()).isEqualTo(new java.net.InetSocketAddress("127.0.0.1", server.port()));
    if (s.tls()) {
      assertThat(req.tlsSession()).isNotNull();
      assertThat(req.tlsSession().getProtocol()).startsWith("TLS");
      assertThat(req.serverName()).isEqualTo("localhost");
      assertThat(req.peerCertificates()).as("no client certificate").isEmpty();
    } else {
      assertThat(req.tlsSession()).isNull();
      assertThat(req.serverName()).isNull();
    }
    ws.sendText("hi");
    assertThat(ws.receive(Duration.ofSeconds(10)))
        .isEqualTo(new Message.Text("user-s-42|s-42|a b|hi"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void anAsyncHookDecidesWhileTheConnectionWaits(Setup s) throws Exception {
    CompletableFuture<HandshakeDecision> decision = new CompletableFuture<>();
    CountDownLatch asked = new CountDownLatch(1);
    URI uri =
        start(
            s,
            WebSocketServer.builder()
                .onHandshakeAsync(
                    req -> {
                      asked.countDown();
                      return decision;
                    }),
            Duration.ofSeconds(10));
    CompletableFuture<WebSocket> connecting = client(s).connect(uri);
    assertThat(asked.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(connecting).as("no 101 before the decision").isNotDone();
    // Completed from this thread, not the connection's.
    decision.complete(HandshakeDecision.accept().attach("later"));
    WebSocket ws = connecting.get(10, TimeUnit.SECONDS);
    ws.sendText("x");
    assertThat(ws.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("later|s-42|null|x"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void anAsyncRejectionAndAFailedStageAreAnswered(Setup s) throws Exception {
    URI uri =
        start(
            s,
            WebSocketServer.builder()
                .onHandshakeAsync(
                    req ->
                        "deny".equals(req.queryParam("do"))
                            ? CompletableFuture.supplyAsync(() -> HandshakeDecision.reject(403))
                            : CompletableFuture.failedFuture(new IllegalStateException("down"))),
            Duration.ofSeconds(10));
    WebSocketClient c = client(s);
    assertThat(CountingEcho.status(c, URI.create(uri + "?do=deny"))).isEqualTo(403);
    assertThat(CountingEcho.status(c, uri)).isEqualTo(500);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void anAsyncHookThatNeverDecidesIsAnswered503AfterTheHandshakeTimeout(Setup s)
      throws Exception {
    URI uri =
        start(
            s,
            WebSocketServer.builder().onHandshakeAsync(req -> new CompletableFuture<>()),
            // The timeout covers the TLS handshake too, which a loaded machine may make slow.
            Duration.ofMillis(1500));
    assertThat(CountingEcho.status(client(s), uri)).isEqualTo(503);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void aHookThatThrowsOrPicksAnUnofferedSubprotocolIsAnswered500(Setup s) throws Exception {
    URI uri =
        start(
            s,
            WebSocketServer.builder()
                .onHandshake(
                    req -> {
                      if (req.queryParam("throw") != null) {
                        throw new IllegalStateException("bug");
                      }
                      return HandshakeDecision.accept().subprotocol("never-offered");
                    }),
            Duration.ofSeconds(10));
    WebSocketClient c = client(s, "chat.v1");
    assertThat(CountingEcho.status(c, URI.create(uri + "?throw"))).isEqualTo(500);
    assertThat(CountingEcho.status(c, uri)).isEqualTo(500);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void withoutAHookTheSocketStillKeepsItsRequestAndTakesAnAttachmentLater(Setup s)
      throws Exception {
    CompletableFuture<String> seen = new CompletableFuture<>();
    WebSocketServer.Builder b =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(config(s, Duration.ofSeconds(10)))
            .websocket(
                "/pull",
                ws -> {
                  ws.attach(42);
                  Message m = ws.receive();
                  seen.complete(
                      ws.attachment(Integer.class) + " " + ws.request().cookie("sid") + " " + m);
                });
    if (s.tls()) {
      b.tls(tls.server());
    }
    server = b.start();
    URI uri = URI.create((s.tls() ? "wss" : "ws") + "://localhost:" + server.port() + "/pull");
    WebSocket ws = client(s).connect(uri).get(10, TimeUnit.SECONDS);
    assertThat(ws.responseHeaders().contains("Sec-WebSocket-Accept")).isTrue();
    ws.sendText("m");
    assertThat(seen.get(10, TimeUnit.SECONDS)).isEqualTo("42 s-42 Text[text=m]");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void templatesGiveParametersToWebSocketAndHttpRoutesAndUnknownPathsOrMethodsAreRefused(Setup s)
      throws Exception {
    WebSocketServer.Builder b =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(config(s, Duration.ofSeconds(10)))
            .onHandshake(
                req ->
                    "closed".equals(req.pathParam("room"))
                        ? HandshakeDecision.reject(403)
                        : HandshakeDecision.accept().attach(req.pathParam("room")))
            .websocket("/rooms/{room}", ECHO_STATE)
            .websocket("/rooms/lobby", ECHO_STATE)
            .get("/users/{id}", req -> dev.wsjava.http.HttpResponse.text(200, "user " + req.pathParam("id")))
            .route("DELETE", "/users/{id}", req -> dev.wsjava.http.HttpResponse.empty(204));
    if (s.tls()) {
      b.tls(tls.server());
    }
    server = b.start();
    String base = (s.tls() ? "wss" : "ws") + "://localhost:" + server.port();
    WebSocketClient c = client(s);
    WebSocket ws = c.connect(URI.create(base + "/rooms/caf%C3%A9")).get(10, TimeUnit.SECONDS);
    ws.sendText("t");
    assertThat(ws.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("café|s-42|null|t"));
    WebSocket lobby = c.connect(URI.create(base + "/rooms/lobby")).get(10, TimeUnit.SECONDS);
    lobby.sendText("t");
    assertThat(lobby.receive(Duration.ofSeconds(10)))
        .as("the exact route: no parameter")
        .isEqualTo(new Message.Text("null|s-42|null|t"));
    assertThat(CountingEcho.status(c, URI.create(base + "/rooms/closed"))).isEqualTo(403);
    assertThat(CountingEcho.status(c, URI.create(base + "/nowhere"))).isEqualTo(404);

    assertThat(http(s, "GET /users/7 HTTP/1.1")).startsWith("HTTP/1.1 200 ").endsWith("user 7");
    assertThat(http(s, "POST /users/7 HTTP/1.1"))
        .startsWith("HTTP/1.1 405 ")
        .contains("\r\nAllow: GET, HEAD, DELETE\r\n");
    assertThat(http(s, "GET /users HTTP/1.1")).startsWith("HTTP/1.1 404 ");
  }

  /** Sends one request with {@code Connection: close} and returns the whole answer. */
  String http(Setup s, String requestLine) throws Exception {
    java.net.Socket socket =
        s.tls()
            ? tls.client().getSocketFactory().createSocket("localhost", server.port())
            : new java.net.Socket("127.0.0.1", server.port());
    try (socket) {
      socket.setSoTimeout(10_000);
      socket
          .getOutputStream()
          .write(
              (requestLine + "\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                  .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      return new String(
          socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
  }
}
