package dev.wsjava.transport.blocking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.handshake.ClientHandshakeConfig;
import dev.wsjava.handshake.HandshakeException;
import dev.wsjava.Headers;
import dev.wsjava.handshake.ServerHandshakeConfig;
import dev.wsjava.CloseCode;
import dev.wsjava.transport.Connection;
import dev.wsjava.transport.HandshakeInfo;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The client's handshake: what it sends, and how each way of failing is reported. */
@Timeout(30)
class BlockingClientTest {
  @TempDir static Path dir;
  static TestTls localhost;

  @BeforeAll
  static void makeCertificate() throws Exception {
    localhost = TestTls.create(dir, "dns:localhost");
  }

  /**
   * Runs a one-connection fake server on a virtual thread: reads the request, then writes {@code
   * reply} ("101" for a correct 101, "" to hang up, null to stay silent).
   */
  static ServerSocket fakeServer(String reply, BlockingQueue<String> requests) throws Exception {
    ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    Thread.ofVirtual()
        .start(
            () -> {
              try (RawPeer peer = RawPeer.acceptRequest(listener)) {
                requests.add(peer.request);
                if ("".equals(reply)) {
                  return; // hang up
                }
                if (reply != null) {
                  peer.write(reply.equals("101") ? peer.switching() : reply);
                }
                peer.atEnd(); // hold the connection until the client drops it
              } catch (Exception e) {
                // the test is over
              }
            });
    return listener;
  }

  static final BlockingClient CLIENT = BlockingClient.builder().build();

  static URI ws(ServerSocket s, String path) {
    return URI.create("ws://127.0.0.1:" + s.getLocalPort() + path);
  }

  @Test
  void sendsTheUpgradeRequestOfRfc6455AndOpens() throws Exception {
    BlockingQueue<String> requests = new LinkedBlockingQueue<>();
    try (ServerSocket server = fakeServer("101", requests)) {
      Recorder events = Recorder.quiet();
      Connection c = CLIENT.connectBlocking(ws(server, "/chat?room=1"), events);
      String request = requests.poll(5, TimeUnit.SECONDS);
      assertThat(request)
          .startsWith("GET /chat?room=1 HTTP/1.1\r\n")
          .contains("Host: 127.0.0.1:" + server.getLocalPort() + "\r\n")
          .contains("Upgrade: websocket\r\n")
          .contains("Sec-WebSocket-Version: 13\r\n");
      assertThat(events.opened.get(5, TimeUnit.SECONDS)).isSameAs(c);
      assertThat(c.remoteAddress().toString()).endsWith(":" + server.getLocalPort());
      c.abort();
    }
  }

  @Test
  void aRefusedUpgradeFailsWithTheStatusAndTheUri() throws Exception {
    String forbidden = "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    try (ServerSocket server = fakeServer(forbidden, new LinkedBlockingQueue<>())) {
      URI uri = ws(server, "/private");
      assertThatThrownBy(() -> CLIENT.connectBlocking(uri, Recorder.quiet()))
          .isInstanceOfSatisfying(
              HandshakeException.class,
              e -> {
                assertThat(e.status()).isEqualTo(403);
                assertThat(e.getMessage()).contains(uri.toString()).contains("403 Forbidden");
              });
    }
  }

  @Test
  void aWrongAcceptKeyFailsTheHandshake() throws Exception {
    String wrong =
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"; // for another key
    try (ServerSocket server = fakeServer(wrong, new LinkedBlockingQueue<>())) {
      assertThatThrownBy(() -> CLIENT.connectBlocking(ws(server, "/"), Recorder.quiet()))
          .isInstanceOfSatisfying(
              HandshakeException.class,
              e -> {
                assertThat(e.status()).isEqualTo(101);
                assertThat(e.getMessage()).contains("Sec-WebSocket-Accept");
              });
    }
  }

  @Test
  void aServerThatNeverAnswersTimesOutAfterTheHandshakeTimeout() throws Exception {
    try (ServerSocket server = fakeServer(null, new LinkedBlockingQueue<>())) {
      BlockingClient client =
          BlockingClient.builder()
              .connectionConfig(Configs.handshakeTimeout(Duration.ofMillis(300)))
              .build();
      long start = System.nanoTime();
      assertThatThrownBy(() -> client.connectBlocking(ws(server, "/"), Recorder.quiet()))
          .isInstanceOf(SocketTimeoutException.class)
          .hasMessageContaining("within 300 ms");
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(250L, 3000L);
    }
  }

  @Test
  void aServerThatHangsUpFailsTheHandshakeWithEndOfStream() throws Exception {
    try (ServerSocket server = fakeServer("", new LinkedBlockingQueue<>())) {
      assertThatThrownBy(() -> CLIENT.connectBlocking(ws(server, "/"), Recorder.quiet()))
          .isInstanceOf(EOFException.class)
          .hasMessageContaining("before answering");
    }
  }

  @Test
  void connectCompletesExceptionallyWhenNothingListens() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    var future =
        BlockingClient.builder()
            .build()
            .connect(URI.create("ws://127.0.0.1:" + port + "/"), Recorder.quiet());
    ExecutionException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
    assertThat(e.getCause()).isInstanceOf(ConnectException.class);
  }

  @Test
  void rejectsAUriThatIsNotWebSocket() {
    assertThatThrownBy(
            () ->
                BlockingClient.builder()
                    .build()
                    .connectBlocking(URI.create("http://localhost/"), Recorder.quiet()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ws or wss");
  }

  @Test
  void negotiatesTheSubprotocolAndPassesTheHandshakeToTheHandlerFactory() throws Exception {
    BlockingQueue<HandshakeInfo> infos = new LinkedBlockingQueue<>();
    try (BlockingServer server =
        BlockingServer.builder()
            .bind("127.0.0.1", 0)
            .handshakeConfig(
                ServerHandshakeConfig.defaults()
                    .withSubprotocolSelector(offered -> offered.contains("chat") ? "chat" : null))
            .handlers(
                info -> {
                  infos.add(info);
                  return Recorder.echo();
                })
            .start()) {
      Connection c =
          BlockingClient.builder()
              .handshakeConfig(
                  ClientHandshakeConfig.defaults()
                      .withSubprotocols(List.of("superchat", "chat"))
                      .withHeaders(Headers.builder().add("Cookie", "id=7").build()))
              .build()
              .connectBlocking(
                  URI.create("ws://127.0.0.1:" + server.port() + "/room?x=1"), Recorder.quiet());
      assertThat(c.subprotocol()).isEqualTo("chat");
      HandshakeInfo info = infos.poll(5, TimeUnit.SECONDS);
      assertThat(info.path()).isEqualTo("/room");
      assertThat(info.request().target()).isEqualTo("/room?x=1");
      assertThat(info.subprotocol()).isEqualTo("chat");
      assertThat(info.headers().first("Cookie")).isEqualTo("id=7");
      assertThat(info.remoteAddress()).isEqualTo(c.localAddress());
      c.close(CloseCode.NORMAL, "").get(5, TimeUnit.SECONDS);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // TLS: SNI and host name checks

  @Test
  void namesTheHostInSni() throws Exception {
    try (SSLServerSocket listener =
        (SSLServerSocket)
            localhost
                .server
                .getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      BlockingQueue<List<SNIServerName>> names = new LinkedBlockingQueue<>();
      Thread.ofVirtual()
          .start(
              () -> {
                try (SSLSocket s = (SSLSocket) listener.accept()) {
                  s.startHandshake();
                  names.add(((ExtendedSSLSession) s.getSession()).getRequestedServerNames());
                  s.getInputStream().readAllBytes();
                } catch (Exception e) {
                  names.add(List.of());
                }
              });
      BlockingClient client =
          BlockingClient.builder()
              .sslContext(localhost.client)
              .connectionConfig(Configs.handshakeTimeout(Duration.ofMillis(500)))
              .build();
      // The fake server never answers the upgrade: only its TLS handshake matters here.
      URI uri = URI.create("wss://localhost:" + listener.getLocalPort() + "/");
      assertThatThrownBy(() -> client.connectBlocking(uri, Recorder.quiet()))
          .isInstanceOf(SocketTimeoutException.class);
      assertThat(names.poll(5, TimeUnit.SECONDS)).containsExactly(new SNIHostName("localhost"));
    }
  }

  @Test
  void refusesACertificateForAnotherHostUnlessToldToSkipTheCheck() throws Exception {
    TestTls other = TestTls.create(dir, "dns:other.example");
    try (BlockingServer server =
        BlockingServer.builder()
            .bind("127.0.0.1", 0)
            .tls(other.server)
            .handlers(info -> Recorder.echo())
            .start()) {
      URI uri = URI.create("wss://localhost:" + server.port() + "/");
      BlockingClient strict = BlockingClient.builder().sslContext(other.client).build();
      assertThatThrownBy(() -> strict.connectBlocking(uri, Recorder.quiet()))
          .isInstanceOf(SSLHandshakeException.class);
      Connection c =
          BlockingClient.builder()
              .sslContext(other.client)
              .insecureSkipHostnameVerification()
              .build()
              .connectBlocking(uri, Recorder.quiet());
      assertThat(c.isOpen()).isTrue();
      c.close(CloseCode.NORMAL, "").get(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void refusesAnUntrustedCertificate() throws Exception {
    try (BlockingServer server =
        BlockingServer.builder()
            .bind("127.0.0.1", 0)
            .tls(localhost.server)
            .handlers(info -> Recorder.echo())
            .start()) {
      // The JDK's default trust store does not know the test's self-signed certificate.
      URI uri = URI.create("wss://localhost:" + server.port() + "/");
      assertThatThrownBy(() -> CLIENT.connectBlocking(uri, Recorder.quiet()))
          .isInstanceOf(SSLHandshakeException.class);
    }
  }
}
