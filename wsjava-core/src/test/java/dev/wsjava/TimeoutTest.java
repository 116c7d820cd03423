package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ServerSocketFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each timeout end to end, on both transports, ws and wss: handshake (a client dribbling its
 * request), idle, keepalive with a dead peer, and close (a peer that never answers a close).
 */
class TimeoutTest {
  @TempDir static Path dir;
  static SSLContext serverTls;
  static SSLContext clientTls;

  WebSocketServer server;
  WebSocketClient client;
  ServerSocket rawPeer;

  @BeforeAll
  static void certificates() throws Exception {
    SelfSigned cert = SelfSigned.create(dir);
    serverTls = TlsContexts.fromPkcs12(cert.pkcs12(), cert.password());
    clientTls = TlsContexts.trusting(cert.certPem());
  }

  record Setup(Transport transport, boolean tls) {
    @Override
    public String toString() {
      return transport + (tls ? " wss" : " ws");
    }
  }

  static Stream<Setup> setups() {
    return Stream.of(Transport.values())
        .flatMap(t -> Stream.of(new Setup(t, false), new Setup(t, true)));
  }

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.shutdown(Duration.ofSeconds(2));
    }
    if (rawPeer != null) {
      rawPeer.close();
    }
  }

  WebSocketConfig.Builder base(Setup s) {
    return WebSocketConfig.builder().transport(s.transport()).eventLoops(1);
  }

  URI startServer(Setup s, WebSocketConfig config) throws Exception {
    WebSocketServer.Builder b = WebSocketServer.builder().bind("127.0.0.1", 0).config(config)
        .websocket("/echo", new WebSocketListener() {
          @Override
          public void onText(WebSocket ws, String text) {
            ws.sendText(text);
          }
        });
    if (s.tls()) {
      b.tls(serverTls);
    }
    server = b.start();
    return URI.create((s.tls() ? "wss" : "ws") + "://localhost:" + server.port() + "/echo");
  }

  WebSocketClient client(Setup s, WebSocketConfig config) {
    WebSocketClient.Builder b = WebSocketClient.builder().config(config);
    if (s.tls()) {
      b.tls(clientTls);
    }
    return client = b.build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void aClientDribblingItsRequestIsCutOffAfterTheHandshakeTimeout(Setup s) throws Exception {
    URI uri = startServer(s, base(s).handshakeTimeout(Duration.ofMillis(800)).build());
    Socket socket = s.tls()
        ? clientTls.getSocketFactory().createSocket("localhost", server.port())
        : new Socket("localhost", server.port());
    try (socket) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      byte[] request = ("GET /echo HTTP/1.1\r\nHost: localhost\r\n").getBytes(StandardCharsets.US_ASCII);
      long start = System.nanoTime();
      boolean cut = false;
      for (byte b : request) { // one byte every 100 ms: the head would take ~4 s
        try {
          out.write(b);
          out.flush();
        } catch (java.io.IOException e) {
          cut = true;
          break;
        }
        if (socket.getInputStream().available() > 0) {
          break;
        }
        Thread.sleep(100);
      }
      // The server answers 408 or just closes; either way the stream ends well before 4 s.
      InputStream in = socket.getInputStream();
      try {
        while (!cut && in.read() >= 0) {
          // drain the 408 answer, if any
        }
      } catch (java.io.IOException reset) {
        // a reset also ends it
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      assertThat(seconds).as("cut off after the 0.8 s handshake timeout").isLessThan(3.0);
    }
    assertThat(uri).isNotNull();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void anIdleConnectionIsClosedWith1001(Setup s) throws Exception {
    URI uri = startServer(s, base(s).idleTimeout(Duration.ofMillis(500)).build());
    WebSocket ws = client(s, base(s).build()).open(uri);
    long start = System.nanoTime();
    assertThatThrownBy(() -> ws.receive(Duration.ofSeconds(10)))
        .isInstanceOfSatisfying(WebSocketClosedException.class, e -> assertThat(e.code()).isEqualTo(1001));
    assertThat((System.nanoTime() - start) / 1e9).isBetween(0.3, 5.0);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void keepalivePingsFindADeadPeer(Setup s) throws Exception {
    URI uri = startDeadPeer(s);
    CompletableFuture<Throwable> error = new CompletableFuture<>();
    CompletableFuture<Integer> closed = new CompletableFuture<>();
    WebSocketConfig config =
        base(s).pingInterval(Duration.ofMillis(300)).closeTimeout(Duration.ofMillis(500)).build();
    client(s, config).connect(uri, new WebSocketListener() {
      @Override
      public void onError(WebSocket ws, Throwable e) {
        error.complete(e);
      }

      @Override
      public void onClose(WebSocket ws, int code, String reason) {
        closed.complete(code);
      }
    }).get(10, TimeUnit.SECONDS);
    assertThat(closed.get(10, TimeUnit.SECONDS))
        .as("a dead peer sent no close: the application sees 1006").isEqualTo(1006);
    assertThat(error.get(1, TimeUnit.SECONDS)).isNotNull();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void aCloseThePeerNeverAnswersEndsAfterTheCloseTimeout(Setup s) throws Exception {
    URI uri = startDeadPeer(s);
    WebSocket ws =
        client(s, base(s).closeTimeout(Duration.ofMillis(500)).build()).open(uri);
    long start = System.nanoTime();
    ws.close(1000, "bye").get(10, TimeUnit.SECONDS);
    assertThat((System.nanoTime() - start) / 1e9).isBetween(0.3, 5.0);
    assertThat(ws.isOpen()).isFalse();
  }

  /** A server that accepts one upgrade, then reads and ignores everything: a dead peer. */
  URI startDeadPeer(Setup s) throws Exception {
    ServerSocketFactory factory =
        s.tls() ? serverTls.getServerSocketFactory() : ServerSocketFactory.getDefault();
    rawPeer = factory.createServerSocket(0, 5, InetAddress.getLoopbackAddress());
    DeadPeer.start(rawPeer, true);
    return URI.create((s.tls() ? "wss" : "ws") + "://localhost:" + rawPeer.getLocalPort() + "/");
  }
}
