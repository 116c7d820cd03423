package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The client through in-process proxies: tunnels on both transports, ws and wss, and failures. */
class ProxyClientTest {
  @TempDir static Path dir;
  static TestTls tls;

  WebSocketServer server;
  WebSocketClient client;
  FakeProxy proxy;

  @BeforeAll
  static void certificates() throws Exception {
    tls = TestTls.create(dir);
  }

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (proxy != null) {
      proxy.close();
    }
    if (server != null) {
      server.shutdown(Duration.ofSeconds(2));
    }
  }

  int startServer(boolean secure) throws Exception {
    WebSocketServer.Builder b =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .websocket("/echo", new WebSocketListener() {
              @Override
              public void onText(WebSocket ws, String text) {
                ws.sendText(text);
              }
            });
    if (secure) {
      b.tls(tls.server());
    }
    server = b.start();
    return server.port();
  }

  WebSocketClient client(Transport t, WebSocketProxy through, Duration handshakeTimeout) {
    return client =
        WebSocketClient.builder()
            .config(
                WebSocketConfig.builder()
                    .transport(t)
                    .eventLoops(1)
                    .handshakeTimeout(handshakeTimeout)
                    .build())
            .tls(tls.client())
            .proxy(through)
            .build();
  }

  static void echoes(WebSocket ws) throws Exception {
    ws.sendText("through the tunnel").join();
    assertThat(ws.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("through the tunnel"));
    ws.close().join();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.wsjava.TimeoutTest#setups")
  void echoesThroughAnHttpConnectProxyWithBasicCredentials(TimeoutTest.Setup s) throws Exception {
    int port = startServer(s.tls());
    proxy = new FakeProxy(FakeProxy.httpConnect(port));
    client(s.transport(), WebSocketProxy.http("127.0.0.1", proxy.port(), "alice", "s3cret"), Duration.ofSeconds(10));
    echoes(client.open(URI.create((s.tls() ? "wss" : "ws") + "://localhost:" + port + "/echo")));
    assertThat(proxy.requests.peek())
        .startsWith("CONNECT localhost:" + port + " HTTP/1.1\r\nHost: localhost:" + port + "\r\n")
        .contains("\r\nProxy-Authorization: Basic YWxpY2U6czNjcmV0\r\n"); // alice:s3cret
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.wsjava.TimeoutTest#setups")
  void echoesThroughASocks5ProxyThatResolvesTheName(TimeoutTest.Setup s) throws Exception {
    int port = startServer(s.tls());
    proxy = new FakeProxy(FakeProxy.socks5(port));
    client(s.transport(), WebSocketProxy.socks5("127.0.0.1", proxy.port()), Duration.ofSeconds(10));
    echoes(client.open(URI.create((s.tls() ? "wss" : "ws") + "://localhost:" + port + "/echo")));
    // CONNECT, ATYP 3, "localhost", port
    assertThat(proxy.requests.peek())
        .isEqualTo("05010003" + "09" + HexFormat.of().formatHex("localhost".getBytes(StandardCharsets.US_ASCII))
            + String.format("%04x", port));
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void tlsChecksTheServersNameNotTheProxys(Transport t) throws Exception {
    int port = startServer(true);
    proxy = new FakeProxy(FakeProxy.httpConnect(port)); // tunnels to our server whatever is asked
    client(t, WebSocketProxy.http("127.0.0.1", proxy.port()), Duration.ofSeconds(10));
    assertThatThrownBy(() -> client.open(URI.create("wss://impostor.invalid:" + port + "/echo")))
        .isInstanceOf(SSLException.class)
        .hasMessageContaining("impostor.invalid");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void a407IsAProxyExceptionQuotingTheStatusLine(Transport t) throws Exception {
    proxy = new FakeProxy(FakeProxy.answer(
        "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"x\"\r\n\r\n"
            .getBytes(StandardCharsets.ISO_8859_1)));
    client(t, WebSocketProxy.http("127.0.0.1", proxy.port(), "alice", "wrong"), Duration.ofSeconds(10));
    assertThatThrownBy(() -> client.open(URI.create("ws://echo.example/")))
        .isInstanceOf(ProxyException.class)
        .hasMessageContaining("proxy http://alice:***@127.0.0.1:" + proxy.port())
        .hasMessageContaining("refused CONNECT echo.example:80: 407 Proxy Authentication Required")
        .hasMessageNotContaining("wrong");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aSocksRefusalIsAProxyExceptionWithTheReplyCodeAndItsMeaning(Transport t) throws Exception {
    proxy = new FakeProxy(FakeProxy.socks5Refusing(4));
    client(t, WebSocketProxy.socks5("127.0.0.1", proxy.port()), Duration.ofSeconds(10));
    assertThatThrownBy(() -> client.open(URI.create("wss://echo.example/")))
        .isInstanceOf(ProxyException.class)
        .hasMessageEndingWith("refused CONNECT echo.example:443: reply 4 (host unreachable)");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aProxyThatRefusesTheConnectionIsReportedAsSuch(Transport t) throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    client(t, WebSocketProxy.socks5("127.0.0.1", closed), Duration.ofSeconds(10));
    assertThatThrownBy(() -> client.open(URI.create("ws://echo.example/")))
        .isInstanceOf(ProxyException.class)
        .hasMessageStartingWith("proxy socks5://127.0.0.1:" + closed + " refused the connection")
        .hasCauseInstanceOf(ConnectException.class);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aProxyThatHangsUpIsReported(Transport t) throws Exception {
    proxy = new FakeProxy(FakeProxy.hangUp());
    client(t, WebSocketProxy.http("127.0.0.1", proxy.port()), Duration.ofSeconds(10));
    assertThatThrownBy(() -> client.open(URI.create("ws://echo.example/")))
        .isInstanceOf(ProxyException.class)
        .hasMessageEndingWith("closed the connection before answering CONNECT echo.example:80");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theHandshakeTimeoutCoversASilentProxy(Transport t) throws Exception {
    proxy = new FakeProxy(FakeProxy.silent());
    client(t, WebSocketProxy.http("127.0.0.1", proxy.port()), Duration.ofMillis(400));
    long start = System.nanoTime();
    assertThatThrownBy(() -> client.open(URI.create("wss://echo.example/")))
        .isInstanceOf(SocketTimeoutException.class)
        .hasMessageContaining("within 400 ms")
        .hasMessageEndingWith("(proxy http://127.0.0.1:" + proxy.port() + " had not opened the tunnel)");
    assertThat((System.nanoTime() - start) / 1e9).isBetween(0.3, 5.0);
  }
}
