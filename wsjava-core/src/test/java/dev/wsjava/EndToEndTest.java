package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.http.HttpResponse;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The public API end to end on loopback, over both transports x (ws, wss) x (deflate on, off):
 * the same server and client code, only the configuration differs.
 */
class EndToEndTest {
  @TempDir static Path dir;
  static SelfSigned cert;
  static SSLContext serverTls;
  static SSLContext clientTls;

  WebSocketServer server;
  WebSocketClient client;

  @BeforeAll
  static void certificates() throws Exception {
    cert = SelfSigned.create(dir);
    serverTls = TlsContexts.fromPkcs12(cert.pkcs12(), cert.password());
    clientTls = TlsContexts.trusting(cert.certPem());
  }

  record Setup(Transport transport, boolean tls, boolean deflate) {
    @Override
    public String toString() {
      return transport + (tls ? " wss" : " ws") + (deflate ? " deflate" : "");
    }
  }

  static Stream<Arguments> setups() {
    List<Arguments> out = new ArrayList<>();
    for (Transport t : Transport.values()) {
      for (boolean tls : new boolean[] {false, true}) {
        for (boolean deflate : new boolean[] {false, true}) {
          out.add(Arguments.of(new Setup(t, tls, deflate)));
        }
      }
    }
    return out.stream();
  }

  WebSocketConfig config(Setup s) {
    return WebSocketConfig.builder()
        .transport(s.transport())
        .deflate(s.deflate() ? PerMessageDeflate.defaults() : null)
        .maxMessageSize(17 << 20)
        .maxFramePayload(17 << 20)
        .maxQueuedBytes(64L << 20)
        .eventLoops(2)
        // Not under test here: on a loaded machine 1,000 TLS handshakes at once take long.
        .handshakeTimeout(Duration.ofSeconds(60))
        .build();
  }

  /** An echo server at /echo (listener style) and /pull (blocking handler style). */
  URI start(Setup s) throws Exception {
    WebSocketServer.Builder b =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(config(s))
            .get("/", req -> HttpResponse.text(200, "hello"))
            .websocket("/echo", new WebSocketListener() {
              @Override
              public void onText(WebSocket ws, String text) {
                ws.sendText(text);
              }

              @Override
              public void onBinary(WebSocket ws, ByteBuffer data) {
                ws.sendBinary(data);
              }
            })
            .websocket("/pull", ws -> {
              while (true) {
                Message m = ws.receive();
                if (m instanceof Message.Text t) {
                  ws.sendText(t.text()).join();
                } else if (m instanceof Message.Binary bin) {
                  ws.sendBinary(bin.data()).join();
                }
              }
            });
    if (s.tls()) {
      b.tls(serverTls);
    }
    server = b.start();
    WebSocketClient.Builder cb = WebSocketClient.builder().config(config(s));
    if (s.tls()) {
      cb.tls(clientTls);
    }
    client = cb.build();
    return URI.create((s.tls() ? "wss" : "ws") + "://localhost:" + server.port());
  }

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.shutdown(Duration.ofSeconds(5));
    }
  }

  static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new SplittableRandom(seed).nextBytes(b);
    return b;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void payloadsOfEveryLengthClassEchoIntact(Setup s) throws Exception {
    URI base = start(s);
    for (String path : List.of("/echo", "/pull")) {
      WebSocket ws = client.open(base.resolve(path));
      assertThat(ws.extensions()).isEqualTo(s.deflate() ? List.of("permessage-deflate") : List.of());
      for (int n : new int[] {0, 1, 125, 126, 65535, 65536, 16 << 20}) {
        byte[] data = random(n, n);
        ws.sendBinary(data).get(30, TimeUnit.SECONDS);
        Message m = ws.receive(Duration.ofSeconds(30));
        assertThat(m).as(path + " " + n).isInstanceOf(Message.Binary.class);
        ByteBuffer got = ((Message.Binary) m).data();
        assertThat(got.remaining()).isEqualTo(n);
        assertThat(got).isEqualTo(ByteBuffer.wrap(data));
      }
      ws.sendText("héllo wörld €").join();
      assertThat(ws.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("héllo wörld €"));
      ws.close(1000, "bye").get(10, TimeUnit.SECONDS);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void fragmentedSendsArriveAsOneMessage(Setup s) throws Exception {
    URI base = start(s);
    WebSocket ws = client.open(base.resolve("/echo"));
    ws.sendText("Hel", false);
    ws.sendText("lo, ", false);
    ws.sendText("world", true).join();
    assertThat(ws.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("Hello, world"));
    // A surrogate pair split between parts still arrives as one code point.
    ws.sendText("smile \uD83D", false);
    ws.sendText("\uDE00!", true).join();
    assertThat(ws.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("smile \uD83D\uDE00!"));
    assertThatThrownBy(() -> ws.sendText("lone \uD83D")).isInstanceOf(IllegalArgumentException.class);
    ws.close().get(10, TimeUnit.SECONDS);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void manyThreadsSendingOnOneConnectionNeverInterleaveFrames(Setup s) throws Exception {
    URI base = start(s);
    WebSocket ws = client.open(base.resolve("/echo"));
    int threads = 8;
    int perThread = 200;
    List<Thread> senders = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      senders.add(Thread.ofVirtual().start(() -> {
        for (int i = 0; i < perThread; i++) {
          // Each message repeats its own marker, so an interleaved frame would corrupt it.
          String marker = id + ":" + i + ";";
          ws.sendText(marker.repeat(1 + (i % 50) * 40)).join();
        }
      }));
    }
    for (Thread t : senders) {
      t.join(Duration.ofSeconds(60));
    }
    int[] next = new int[threads];
    for (int k = 0; k < threads * perThread; k++) {
      Message m = ws.receive(Duration.ofSeconds(30));
      assertThat(m).isInstanceOf(Message.Text.class);
      String text = ((Message.Text) m).text();
      String marker = text.substring(0, text.indexOf(';') + 1);
      int id = Integer.parseInt(marker.substring(0, marker.indexOf(':')));
      int i = Integer.parseInt(marker.substring(marker.indexOf(':') + 1, marker.length() - 1));
      assertThat(i).as("messages of one sender stay in order").isEqualTo(next[id]++);
      assertThat(text).isEqualTo(marker.repeat(1 + (i % 50) * 40));
    }
    ws.close().get(10, TimeUnit.SECONDS);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void closeCodesTravelBothWays(Setup s) throws Exception {
    URI base = start(s);
    // Client closes: the server's listener sees the code, the client's close completes.
    CompletableFuture<String> serverSaw = new CompletableFuture<>();
    server.close();
    WebSocketServer.Builder b = WebSocketServer.builder().bind("127.0.0.1", 0).config(config(s))
        .websocket("/close", new WebSocketListener() {
          @Override
          public void onText(WebSocket ws, String text) {
            ws.close(Integer.parseInt(text), "server says " + text);
          }

          @Override
          public void onClose(WebSocket ws, int code, String reason) {
            serverSaw.complete(code + " " + reason);
          }
        });
    if (s.tls()) {
      b.tls(serverTls);
    }
    server = b.start();
    base = URI.create(base.getScheme() + "://localhost:" + server.port() + "/close");

    WebSocket ws = client.open(base);
    ws.close(4001, "client says bye").get(10, TimeUnit.SECONDS);
    assertThat(serverSaw.get(10, TimeUnit.SECONDS)).isEqualTo("4001 client says bye");

    // Server closes: the client's pull loop ends with the server's code.
    WebSocket ws2 = client.open(base);
    ws2.sendText("3999").join();
    assertThatThrownBy(() -> ws2.receive(Duration.ofSeconds(10)))
        .isInstanceOfSatisfying(WebSocketClosedException.class, e -> {
          assertThat(e.code()).isEqualTo(3999);
          assertThat(e.reason()).isEqualTo("server says 3999");
        });
    ws2.closeFuture().get(10, TimeUnit.SECONDS);
    assertThatThrownBy(() -> ws2.sendText("late").join()).hasCauseInstanceOf(WebSocketClosedException.class);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void aThousandConcurrentConnectionsEachEchoAndNoneLeak(Setup s) throws Exception {
    URI uri = start(s).resolve("/echo");
    int n = 1000;
    CountDownLatch echoed = new CountDownLatch(n);
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    List<CompletableFuture<WebSocket>> opening = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String expected = "hello " + i;
      opening.add(client.connect(uri, new WebSocketListener() {
        @Override
        public void onOpen(WebSocket ws) {
          ws.sendText(expected);
        }

        @Override
        public void onText(WebSocket ws, String text) {
          if (text.equals(expected)) {
            echoed.countDown();
          } else {
            errors.add(new AssertionError(text));
          }
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
          errors.add(error);
        }
      }).whenComplete((ws, error) -> {
        if (error != null) {
          errors.add(error);
        }
      }));
    }
    assertThat(echoed.await(90, TimeUnit.SECONDS))
        .as("all echoed; " + echoed.getCount() + " missing; errors: " + errors).isTrue();
    assertThat(errors).isEmpty();
    assertThat(server.openTcpConnections()).isEqualTo(n);
    List<CompletableFuture<Void>> closing = new ArrayList<>();
    for (CompletableFuture<WebSocket> f : opening) {
      closing.add(f.join().close());
    }
    CompletableFuture.allOf(closing.toArray(CompletableFuture<?>[]::new)).get(60, TimeUnit.SECONDS);
    Await.until("no connection left open", Duration.ofSeconds(10),
        () -> server.openTcpConnections() == 0);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void theOriginAllowListAndSubprotocolChoiceApply(Setup s) throws Exception {
    WebSocketConfig serverConfig = config(s).toBuilder().subprotocols(List.of("chat.v2")).build();
    WebSocketServer.Builder b = WebSocketServer.builder().bind("127.0.0.1", 0).config(serverConfig)
        .allowOrigins("https://good.example")
        .websocket("/echo", new WebSocketListener() {});
    if (s.tls()) {
      b.tls(serverTls);
    }
    server = b.start();
    URI uri = URI.create((s.tls() ? "wss" : "ws") + "://localhost:" + server.port() + "/echo");
    WebSocketConfig clientConfig =
        config(s).toBuilder().subprotocols(List.of("chat.v1", "chat.v2")).build();
    try (WebSocketClient good = client(clientConfig, s, "https://good.example");
        WebSocketClient evil = client(clientConfig, s, "https://evil.example")) {
      WebSocket ws = good.open(uri);
      assertThat(ws.subprotocol()).isEqualTo("chat.v2");
      ws.close().get(10, TimeUnit.SECONDS);
      assertThatThrownBy(() -> evil.open(uri)).hasMessageContaining("403");
    }
  }

  static WebSocketClient client(WebSocketConfig config, Setup s, String origin) {
    WebSocketClient.Builder b = WebSocketClient.builder().config(config).origin(origin);
    if (s.tls()) {
      b.tls(clientTls);
    }
    return b.build();
  }
}
