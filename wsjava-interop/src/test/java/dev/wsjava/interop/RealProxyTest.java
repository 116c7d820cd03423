package dev.wsjava.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.wsjava.Message;
import dev.wsjava.ProxyException;
import dev.wsjava.TlsContexts;
import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketProxy;
import dev.wsjava.WebSocketServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our client through real proxies on loopback, started by the test: tinyproxy (HTTP CONNECT with
 * Basic authentication, Debian package {@code tinyproxy}) and Dante (SOCKS5, Debian package {@code
 * dante-server}). ws:// and wss:// through each, on each transport, with an echo; and a wrong
 * password, which tinyproxy answers with 407. A missing binary fails the test, naming its package.
 */
class RealProxyTest {
  static final String USER = "wsjava";
  static final String PASSWORD = "tunnel-s3cret";

  @TempDir static Path dir;
  static WebSocketServer plain;
  static WebSocketServer secure;
  static SSLContext clientTls;
  static Process tinyproxy;
  static Process dante;
  static int httpProxyPort;
  static int socksProxyPort;

  @BeforeAll
  static void start() throws Exception {
    Path tinyproxyBinary = binary("/usr/bin/tinyproxy", "tinyproxy");
    Path danteBinary = binary("/usr/sbin/danted", "dante-server");
    SelfSigned cert = SelfSigned.create(dir);
    clientTls = TlsContexts.trusting(cert.certPem());
    plain = echoServer(null);
    secure = echoServer(TlsContexts.fromPkcs12(cert.pkcs12(), cert.password()));

    httpProxyPort = freePort();
    Path tinyConfig = dir.resolve("tinyproxy.conf");
    Files.writeString(tinyConfig, String.join("\n",
        "Port " + httpProxyPort,
        "Listen 127.0.0.1",
        "Timeout 30",
        "MaxClients 50",
        "LogLevel Info",
        "Allow 127.0.0.1",
        "BasicAuth " + USER + " " + PASSWORD,
        "ConnectPort " + plain.port(),
        "ConnectPort " + secure.port(),
        ""));
    tinyproxy = launch(List.of(tinyproxyBinary.toString(), "-d", "-c", tinyConfig.toString()), "tinyproxy");

    socksProxyPort = freePort();
    Path danteConfig = dir.resolve("danted.conf");
    Files.writeString(danteConfig, String.join("\n",
        "logoutput: stderr",
        "internal: 127.0.0.1 port = " + socksProxyPort,
        "external: lo",
        "clientmethod: none",
        "socksmethod: none",
        "client pass {",
        "  from: 127.0.0.0/8 to: 0.0.0.0/0",
        "}",
        "socks pass {",
        "  from: 127.0.0.0/8 to: 0.0.0.0/0",
        "  command: connect",
        "}",
        ""));
    dante = launch(
        List.of(danteBinary.toString(), "-f", danteConfig.toString(),
            "-p", dir.resolve("danted.pid").toString()),
        "danted");

    awaitListening(tinyproxy, "tinyproxy", httpProxyPort);
    awaitListening(dante, "danted", socksProxyPort);
  }

  @AfterAll
  static void stop() throws Exception {
    for (Process p : new Process[] {tinyproxy, dante}) {
      if (p != null) {
        stopProcess(p);
      }
    }
    for (WebSocketServer s : new WebSocketServer[] {plain, secure}) {
      if (s != null) {
        s.shutdown(Duration.ofSeconds(2));
      }
    }
  }

  static Path binary(String path, String debianPackage) {
    Path p = Path.of(path);
    if (!Files.isExecutable(p)) {
      fail(path + " is missing: install the Debian package " + debianPackage
          + " (apt-get install " + debianPackage + "); .ci/run installs it");
    }
    return p;
  }

  static WebSocketServer echoServer(SSLContext tls) throws IOException {
    WebSocketServer.Builder b = WebSocketServer.builder()
        .bind("127.0.0.1", 0)
        .websocket("/echo", new WebSocketListener() {
          @Override
          public void onText(WebSocket ws, String text) {
            ws.sendText(text);
          }

          @Override
          public void onBinary(WebSocket ws, ByteBuffer data) {
            ws.sendBinary(data);
          }
        });
    if (tls != null) {
      b.tls(tls);
    }
    return b.start();
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  static Process launch(List<String> command, String name) throws IOException {
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve(name + ".log").toFile())
        .start();
  }

  /** Waits (at most 10 s) until the proxy accepts connections; fails with its log otherwise. */
  static void awaitListening(Process p, String name, int port) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        fail(name + " exited with " + p.exitValue() + ":\n" + log(name));
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
        return;
      } catch (IOException notYet) {
        Thread.sleep(50);
      }
    }
    fail(name + " did not listen on port " + port + " within 10 s:\n" + log(name));
  }

  static String log(String name) throws IOException {
    Path log = dir.resolve(name + ".log");
    return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "(no log)";
  }

  /** SIGTERM to the process and the children it forked (Dante forks), bounded waits, then KILL. */
  static void stopProcess(Process p) throws InterruptedException {
    List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
    p.destroy();
    all.forEach(ProcessHandle::destroy);
    if (!p.waitFor(5, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      p.waitFor(5, TimeUnit.SECONDS);
    }
    for (ProcessHandle h : all) {
      if (h.isAlive()) {
        h.destroyForcibly();
      }
    }
  }

  // ---------------------------------------------------------------------------------------------

  record Route(String proxy, Transport transport, boolean tls) {
    @Override
    public String toString() {
      return proxy + " " + transport + (tls ? " wss" : " ws");
    }
  }

  static Stream<Arguments> routes() {
    List<Arguments> out = new ArrayList<>();
    for (String proxy : List.of("tinyproxy", "dante")) {
      for (Transport t : Transport.values()) {
        out.add(Arguments.of(new Route(proxy, t, false)));
        out.add(Arguments.of(new Route(proxy, t, true)));
      }
    }
    return out.stream();
  }

  static WebSocketClient client(Transport t, WebSocketProxy proxy) {
    return WebSocketClient.builder()
        .config(WebSocketConfig.builder().transport(t).eventLoops(1).build())
        .tls(clientTls)
        .proxy(proxy)
        .build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("routes")
  void echoesThroughTheProxy(Route r) throws Exception {
    WebSocketProxy proxy = r.proxy().equals("tinyproxy")
        ? WebSocketProxy.parse("http://" + USER + ":" + PASSWORD + "@127.0.0.1:" + httpProxyPort)
        : WebSocketProxy.parse("socks5h://127.0.0.1:" + socksProxyPort);
    int port = r.tls() ? secure.port() : plain.port();
    try (WebSocketClient client = client(r.transport(), proxy)) {
      // "localhost": the proxy resolves the name; the certificate names localhost
      WebSocket ws = client.open(URI.create((r.tls() ? "wss" : "ws") + "://localhost:" + port + "/echo"));
      for (int size : new int[] {0, 125, 70_000}) {
        String text = "x".repeat(size);
        ws.sendText(text).get(10, TimeUnit.SECONDS);
        assertThat(ws.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text(text));
      }
      byte[] bytes = new byte[256];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = (byte) i;
      }
      ws.sendBinary(bytes).get(10, TimeUnit.SECONDS);
      assertThat(ws.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Binary(ByteBuffer.wrap(bytes)));
      ws.close().get(10, TimeUnit.SECONDS);
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void noCredentialsIsAProxyExceptionNaming407(Transport t) {
    WebSocketProxy proxy = WebSocketProxy.http("127.0.0.1", httpProxyPort);
    try (WebSocketClient client = client(t, proxy)) {
      assertThatThrownBy(() -> client.open(URI.create("ws://localhost:" + plain.port() + "/echo")))
          .isInstanceOf(ProxyException.class)
          .hasMessageStartingWith("proxy http://127.0.0.1:" + httpProxyPort + " refused CONNECT")
          .hasMessageContaining(": 407 Proxy Authentication Required (the proxy wants credentials");
    }
  }

  /**
   * A wrong password: RFC 9110 §15.5.8 says 407, which tinyproxy answers from 1.11.2 on; 1.11.1
   * (Debian bookworm and trixie) answers 401 (tinyproxy issue 532). Either is quoted.
   */
  @ParameterizedTest
  @EnumSource(Transport.class)
  void aWrongPasswordIsAProxyExceptionQuotingTheRefusal(Transport t) {
    WebSocketProxy proxy = WebSocketProxy.http("127.0.0.1", httpProxyPort, USER, "wrong-password");
    try (WebSocketClient client = client(t, proxy)) {
      assertThatThrownBy(() -> client.open(URI.create("ws://localhost:" + plain.port() + "/echo")))
          .isInstanceOf(ProxyException.class)
          .hasMessageStartingWith("proxy http://" + USER + ":***@127.0.0.1:" + httpProxyPort)
          .hasMessageMatching(".*: (407 Proxy Authentication Required|401 Unauthorized) \\(the"
              + " proxy did not accept the credentials of user '" + USER + "'\\)")
          .hasMessageNotContaining("wrong-password");
    }
  }
}
