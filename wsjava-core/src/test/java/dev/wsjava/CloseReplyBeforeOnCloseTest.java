package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PushbackInputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * RFC 6455 §5.5.1: an endpoint that receives a Close frame sends one in response. An application
 * may end at once in {@code onClose} (a command-line client exits there), so {@code onClose} is
 * reported only once that response is written: a listener that aborts in {@code onClose}, the
 * in-process stand-in for a process that exits, must not cut the reply off.
 */
@Timeout(60)
class CloseReplyBeforeOnCloseTest {
  @TempDir static Path dir;
  static SSLContext serverTls;
  static SSLContext clientTls;

  @BeforeAll
  static void makeCertificate() throws Exception {
    SelfSigned cert = SelfSigned.create(dir);
    serverTls = TlsContexts.fromPkcs12(cert.pkcs12(), cert.password());
    clientTls = TlsContexts.trusting(cert.certPem());
  }

  /** Ends the connection at once when it is reported closed, and remembers how it closed. */
  static final class AbortInOnClose implements WebSocketListener {
    final CompletableFuture<Integer> closed = new CompletableFuture<>();

    @Override
    public void onClose(WebSocket ws, int code, String reason) {
      ws.abort();
      closed.complete(code);
    }
  }

  /** Remembers how the connection closed. */
  static final class Recording implements WebSocketListener {
    final CompletableFuture<WebSocket> opened = new CompletableFuture<>();
    final CompletableFuture<Integer> closed = new CompletableFuture<>();

    @Override
    public void onOpen(WebSocket ws) {
      opened.complete(ws);
    }

    @Override
    public void onClose(WebSocket ws, int code, String reason) {
      closed.complete(code);
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aClientThatAbortsInOnCloseHasAnsweredTheServersCloseOnTheWire(Transport t)
      throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        WebSocketClient client = WebSocketClient.builder()
            .config(WebSocketConfig.builder().transport(t).build()).build()) {
      CompletableFuture<List<String>> seen = new CompletableFuture<>();
      Thread.ofVirtual().start(() -> {
        try (Socket peer = DeadPeer.acceptUpgrade(listener)) {
          peer.setSoTimeout(10_000);
          peer.getOutputStream().write(HexFormat.of().parseHex("880203e8")); // close 1000
          List<String> frames = new ArrayList<>();
          PushbackInputStream in = new PushbackInputStream(peer.getInputStream(), 1);
          HalfClosedPeerTest.Frame f;
          while ((f = readFrameOrNull(in)) != null) {
            frames.add(Integer.toHexString(f.first()) + " " + HexFormat.of().formatHex(f.payload()));
          }
          seen.complete(frames);
        } catch (Exception e) {
          seen.completeExceptionally(e);
        }
      });
      AbortInOnClose app = new AbortInOnClose();
      client.connect(URI.create("ws://127.0.0.1:" + listener.getLocalPort() + "/"), app)
          .get(10, TimeUnit.SECONDS);
      assertThat(app.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1000);
      // The server saw the client's close reply (code 1000) before the end of the stream.
      assertThat(seen.get(10, TimeUnit.SECONDS)).containsExactly("88 03e8");
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aServerThatAbortsInOnCloseHasAnsweredTheClientsCloseOnTheWire(Transport t)
      throws Exception {
    AbortInOnClose app = new AbortInOnClose();
    WebSocketServer server = WebSocketServer.builder().bind("127.0.0.1", 0)
        .config(WebSocketConfig.builder().transport(t).build()).websocket("/echo", app).start();
    try (Socket peer = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      peer.setSoTimeout(10_000);
      assertThat(HardeningTest.upgrade(peer, "")).startsWith("HTTP/1.1 101 ");
      OutputStream out = peer.getOutputStream();
      InputStream in = peer.getInputStream();
      out.write(HexFormat.of().parseHex("888200000000" + "03e8")); // masked close 1000, zero key
      assertThat(app.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1000);
      byte[] rest = in.readAllBytes(); // to the end of the stream
      assertThat(HexFormat.of().formatHex(rest)).isEqualTo("880203e8");
    } finally {
      server.shutdown(java.time.Duration.ofSeconds(2));
    }
  }

  static java.util.stream.Stream<Arguments> setups() {
    List<Arguments> all = new ArrayList<>();
    for (Transport t : Transport.values()) {
      for (boolean tls : new boolean[] {false, true}) {
        all.add(Arguments.of(t, tls));
      }
    }
    return all.stream();
  }

  /**
   * Our own client and server, over ws and wss: the side that answers a close and aborts in its
   * {@code onClose} has answered it, so the side that started the close sees its code (1000), not
   * an abnormal end (1006).
   */
  @ParameterizedTest(name = "{0} tls={1}")
  @MethodSource("setups")
  void theSideThatStartedTheCloseGetsItsAnswerWhenThePeerAbortsInOnClose(Transport t, boolean tls)
      throws Exception {
    for (boolean serverStarts : new boolean[] {true, false}) {
      Recording starter = new Recording();
      AbortInOnClose answerer = new AbortInOnClose();
      WebSocketServer.Builder sb = WebSocketServer.builder().bind("127.0.0.1", 0)
          .config(WebSocketConfig.builder().transport(t).build())
          .websocket("/", serverStarts ? starter : answerer);
      if (tls) {
        sb.tls(serverTls);
      }
      WebSocketServer server = sb.start();
      WebSocketClient.Builder cb = WebSocketClient.builder()
          .config(WebSocketConfig.builder().transport(t).build());
      if (tls) {
        cb.tls(clientTls);
      }
      try (WebSocketClient client = cb.build()) {
        URI uri = URI.create((tls ? "wss" : "ws") + "://localhost:" + server.port() + "/");
        WebSocket ws = client.connect(uri, serverStarts ? answerer : starter)
            .get(10, TimeUnit.SECONDS);
        WebSocket closer = serverStarts ? starter.opened.get(10, TimeUnit.SECONDS) : ws;
        closer.close(1000, "bye");
        assertThat(answerer.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1000);
        assertThat(starter.closed.get(10, TimeUnit.SECONDS))
            .as(serverStarts ? "the server, whose close the client answered"
                : "the client, whose close the server answered")
            .isEqualTo(1000);
      } finally {
        server.shutdown(java.time.Duration.ofSeconds(2));
      }
    }
  }

  /** Reads one masked frame, or null at the end of the stream before one. */
  private static HalfClosedPeerTest.Frame readFrameOrNull(PushbackInputStream in)
      throws IOException {
    int b = in.read();
    if (b < 0) {
      return null;
    }
    in.unread(b);
    return HalfClosedPeerTest.readClientFrame(in);
  }
}
