package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.CloseCode;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConnectCommandTest {

  @Test
  void twoPipedLinesComeBackFromTheEchoAndTheExitStatusIsZero() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0")) {
      Cli.Result r = Cli.run("a\nb\n", "connect", "ws://127.0.0.1:" + server.port() + "/echo");
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(r.out()).isEqualTo("a\nb\n");
    }
  }

  /**
   * A server that answers each line 300 ms late: by then the end of stdin has come and gone. The
   * client lingers (1 s of quiet by default), so both answers arrive; with {@code --linger 0} it
   * closes at once and they are lost, as they were before there was a linger.
   */
  @Test
  void afterTheEndOfStdinTheClientLingersForTheRepliesOfASlowServer() throws Exception {
    java.util.concurrent.ScheduledExecutorService later =
        java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
    try (WebSocketServer server = WebSocketServer.builder()
        .bind("127.0.0.1", 0)
        .websocket("/slow", new WebSocketListener() {
          @Override
          public void onText(WebSocket ws, String text) {
            later.schedule(() -> ws.isOpen() ? ws.sendText("late " + text) : null,
                300, TimeUnit.MILLISECONDS);
          }
        })
        .start()) {
      String url = "ws://127.0.0.1:" + server.port() + "/slow";
      Cli.Result lingered = Cli.run("a\nb\n", "connect", url);
      assertThat(lingered.exit()).as(lingered.toString()).isZero();
      assertThat(lingered.out()).isEqualTo("late a\nlate b\n");
      Cli.Result hasty = Cli.run("a\nb\n", "connect", "--linger", "0", url);
      assertThat(hasty.exit()).as(hasty.toString()).isZero();
      assertThat(hasty.out()).isEmpty();
    } finally {
      later.shutdownNow();
    }
  }

  @Test
  void aLastLineWithoutNewlineAndUtf8TextSurviveTheRoundTrip() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--transport", "blocking")) {
      Cli.Result r = Cli.run("héllo 日本 😀\r\nno newline", "connect", "--transport", "blocking",
          "ws://127.0.0.1:" + server.port() + "/echo");
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(r.out()).isEqualTo("héllo 日本 😀\nno newline\n");
    }
  }

  @Test
  void binaryLinesAreSentAsBinaryAndPrintedRawOrInHex() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0")) {
      String url = "ws://127.0.0.1:" + server.port() + "/echo";
      Cli.Result raw = Cli.run("ab\ncd\n", "connect", "--binary", url);
      assertThat(raw.exit()).as(raw.toString()).isZero();
      assertThat(raw.stdout()).isEqualTo("abcd".getBytes(StandardCharsets.US_ASCII));
      Cli.Result hex = Cli.run("ab\n\n", "connect", "--binary", "--hex", url);
      assertThat(hex.exit()).as(hex.toString()).isZero();
      assertThat(hex.out()).isEqualTo("6162\n\n");
    }
  }

  @Test
  void headersAndSubprotocolsReachTheServer() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    try (WebSocketServer server = WebSocketServer.builder()
        .bind("127.0.0.1", 0)
        .config(dev.wsjava.WebSocketConfig.builder().subprotocols(List.of("chat.v2")).build())
        .websocket("/who", new WebSocketListener() {
          @Override
          public void onOpen(WebSocket ws) {
            seen.add(ws.subprotocol());
            ws.sendText("subprotocol " + ws.subprotocol());
            ws.close();
          }
        })
        .start()) {
      Cli.Result r = Cli.run("", "connect", "-v", "--subprotocol", "chat.v1,chat.v2",
          "--header", "Authorization: Bearer x", "ws://127.0.0.1:" + server.port() + "/who");
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(r.out()).isEqualTo("subprotocol chat.v2\n");
      assertThat(r.stderr()).contains("subprotocol chat.v2", "closed normally (1000)");
      assertThat(seen).containsExactly("chat.v2");
    }
  }

  @Test
  void anUnreachableServerExitsWithOne() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Cli.Result r = Cli.run("a\n", "connect", "ws://127.0.0.1:" + port + "/echo");
    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    assertThat(r.stderr()).contains("cannot connect to ws://127.0.0.1:" + port + "/echo");
  }

  @Test
  void aRefusedHandshakeExitsWithOneAndNamesTheStatus() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0")) {
      Cli.Result r = Cli.run("", "connect", "ws://127.0.0.1:" + server.port() + "/nowhere");
      assertThat(r.exit()).as(r.toString()).isEqualTo(1);
      assertThat(r.stderr()).contains("404");
    }
  }

  @Test
  void aServerClosingWithAnErrorCodeExitsWithThreeAndSaysWhy() throws Exception {
    try (WebSocketServer server = WebSocketServer.builder()
        .bind("127.0.0.1", 0)
        .websocket("/fail", new WebSocketListener() {
          @Override
          public void onOpen(WebSocket ws) {
            ws.close(CloseCode.INTERNAL_ERROR, "boom");
          }
        })
        .start()) {
      Cli.Result r = Cli.run("", "connect", "ws://127.0.0.1:" + server.port() + "/fail");
      assertThat(r.exit()).as(r.toString()).isEqualTo(3);
      assertThat(r.stderr()).contains("closed abnormally: 1011 boom");
    }
  }

  @Test
  void echoModeSendsEveryMessageStraightBack() throws Exception {
    List<String> echoes = new CopyOnWriteArrayList<>();
    try (WebSocketServer server = WebSocketServer.builder()
        .bind("127.0.0.1", 0)
        .websocket("/drive", new WebSocketListener() {
          @Override
          public void onOpen(WebSocket ws) {
            ws.sendText("one");
            ws.sendBinary(new byte[] {1, 2, 3});
            ws.sendText("three");
          }

          @Override
          public void onText(WebSocket ws, String text) {
            echoes.add(text);
            if (echoes.size() == 3) {
              ws.close();
            }
          }

          @Override
          public void onBinary(WebSocket ws, ByteBuffer data) {
            echoes.add(data.equals(ByteBuffer.wrap(new byte[] {1, 2, 3})) ? "[1, 2, 3]" : "wrong bytes");
          }
        })
        .start()) {
      Cli.Result r = Cli.run("ignored\n", "connect", "--echo", "ws://127.0.0.1:" + server.port() + "/drive");
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(r.out()).isEmpty();
      assertThat(echoes).containsExactly("one", "[1, 2, 3]", "three");
    }
  }

  /**
   * As conformance case 3.2.1: a valid message and a frame with RSV2 set arrive in one write. The
   * message is echoed before the bad frame fails the connection with 1002 (exit status 3).
   */
  @Test
  void echoModeEchoesAMessageBeforeTheFrameThatFailsTheConnection() throws Exception {
    List<RawWebSocket.Frame> received = new CopyOnWriteArrayList<>();
    CountDownLatch closeRead = new CountDownLatch(1);
    try (LoopbackServer server = new LoopbackServer(s -> {
      RawWebSocket.accept(s);
      ByteArrayOutputStream both = new ByteArrayOutputStream();
      RawWebSocket.write(both, 0x1, "first".getBytes(StandardCharsets.UTF_8));
      RawWebSocket.write(both, new RawWebSocket.Frame(true, 2, 0x1, new byte[] {'x'}));
      s.getOutputStream().write(both.toByteArray());
      DataInputStream in = new DataInputStream(s.getInputStream());
      RawWebSocket.Frame f;
      do {
        f = RawWebSocket.read(in);
        received.add(f);
      } while (f.opcode() != 0x8);
      closeRead.countDown();
    })) {
      Cli.Result r = Cli.run("", "connect", "--echo", "--no-deflate", "ws://127.0.0.1:" + server.port() + "/");
      assertThat(r.exit()).as(r.toString()).isEqualTo(3);
      assertThat(r.stderr()).contains("closed abnormally: 1002");
      assertThat(closeRead.await(10, TimeUnit.SECONDS)).as("the client's close reached the server").isTrue();
      assertThat(received).hasSize(2);
      assertThat(received.get(0).opcode()).isEqualTo(0x1);
      assertThat(new String(received.get(0).payload(), StandardCharsets.UTF_8)).isEqualTo("first");
      assertThat(received.get(1).payload()).startsWith(0x03, 0xEA); // 1002
    }
  }

  @Test
  void insecureWarnsOnStderrAndStillConnects() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--self-signed")) {
      Cli.Result r = Cli.run("over tls\n", "connect", "--insecure", "wss://127.0.0.1:" + server.port() + "/echo");
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(r.out()).isEqualTo("over tls\n");
      assertThat(r.stderr()).contains("WARNING: --insecure", "Development only");
    }
  }

  @Test
  void cacertTrustsTheServersSelfSignedCertificate() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--self-signed")) {
      String url = "wss://localhost:" + server.port() + "/echo";
      Cli.Result trusted = Cli.run("x\n", "connect", "--cacert", server.certificatePem().toString(), url);
      assertThat(trusted.exit()).as(trusted.toString()).isZero();
      assertThat(trusted.out()).isEqualTo("x\n");
      Cli.Result untrusted = Cli.run("x\n", "connect", url);
      assertThat(untrusted.exit()).as(untrusted.toString()).isEqualTo(1);
    }
  }

  @Test
  void anHttpProxyCarriesTheConnectionThroughOneTunnel() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0");
        ConnectProxy proxy = new ConnectProxy()) {
      Cli.Result r = Cli.run("a\nb\n", "connect", "--proxy", "http://127.0.0.1:" + proxy.port(),
          "ws://127.0.0.1:" + server.port() + "/echo");
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(r.out()).isEqualTo("a\nb\n");
      assertThat(proxy.tunnels()).containsExactly("127.0.0.1:" + server.port());
    }
  }

  @Test
  void aProxyThatIsNotThereExitsWithOneAndIsNamed() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    try (ServeCommand.Running server = Cli.serve("--port", "0")) {
      Cli.Result r = Cli.run("a\n", "connect", "--proxy", "http://127.0.0.1:" + port,
          "ws://127.0.0.1:" + server.port() + "/echo");
      assertThat(r.exit()).as(r.toString()).isEqualTo(1);
      assertThat(r.stderr()).contains("proxy http://127.0.0.1:" + port + " refused the connection");
    }
  }

  /** {@code --proxy-from-env} reads {@code http_proxy}: set for a child JVM, as the shell would. */
  @Test
  void proxyFromEnvTakesTheProxyFromHttpProxy() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0");
        ConnectProxy proxy = new ConnectProxy()) {
      java.util.Map<String, String> env = new java.util.HashMap<>();
      env.put("http_proxy", "http://127.0.0.1:" + proxy.port());
      env.put("no_proxy", null);
      env.put("NO_PROXY", null);
      Cli.Result r = Cli.child("through the environment\n", env,
          "connect", "--proxy-from-env", "ws://127.0.0.1:" + server.port() + "/echo");
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(r.out()).isEqualTo("through the environment\n");
      assertThat(proxy.tunnels()).containsExactly("127.0.0.1:" + server.port());
    }
  }

  @Test
  void aProxyItCannotReadIsAUsageErrorThatNamesTheAcceptedForms() {
    Cli.Result scheme = Cli.run("", "connect", "--proxy", "ftp://127.0.0.1:21", "ws://127.0.0.1:1/");
    assertThat(scheme.exit()).as(scheme.toString()).isEqualTo(2);
    assertThat(scheme.stderr()).contains("--proxy", "unsupported proxy scheme 'ftp'",
        "http://[user:password@]host[:port]", "socks5://[user:password@]host[:port]");
    Cli.Result path = Cli.run("", "load", "--proxy", "http://user:secret@proxy:3128/path", "ws://127.0.0.1:1/");
    assertThat(path.exit()).as(path.toString()).isEqualTo(2);
    assertThat(path.stderr()).contains("with no path", "socks5://").doesNotContain("secret");
    Cli.Result both = Cli.run("", "connect", "--proxy", "http://127.0.0.1:1", "--proxy-from-env",
        "ws://127.0.0.1:1/");
    assertThat(both.exit()).as(both.toString()).isEqualTo(2);
    assertThat(both.stderr()).contains("choose --proxy or --proxy-from-env");
  }

  @Test
  void usageErrorsExitWithTwo() {
    Cli.Result scheme = Cli.run("", "connect", "http://127.0.0.1:1/");
    assertThat(scheme.exit()).as(scheme.toString()).isEqualTo(2);
    assertThat(scheme.stderr()).contains("is not a ws:// or wss:// URL");
    Cli.Result header = Cli.run("", "connect", "--header", "no colon", "ws://127.0.0.1:1/");
    assertThat(header.exit()).as(header.toString()).isEqualTo(2);
    assertThat(header.stderr()).contains("is not 'Name: value'");
    Cli.Result missing = Cli.run("", "connect");
    assertThat(missing.exit()).isEqualTo(2);
  }
}
