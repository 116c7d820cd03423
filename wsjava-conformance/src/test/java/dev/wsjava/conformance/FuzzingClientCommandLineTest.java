package dev.wsjava.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Transport;
import dev.wsjava.TlsContexts;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fuzzing client's command line: exit statuses, output, reports, and wss://. */
class FuzzingClientCommandLineTest {
  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) throws Exception {
    return FuzzingClient.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void aCommandLineItCannotUnderstandExitsWithTwo() throws Exception {
    assertThat(run()).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--url is required", "usage:");
    assertThat(run("--url", "http://localhost/")).isEqualTo(2);
    assertThat(run("--url", "ws://localhost/", "--colour")).isEqualTo(2);
    assertThat(run("--url")).isEqualTo(2);
    assertThat(run("--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("--cases");
  }

  /** A server that is not there is one error and exit status 1, not every case FAILED. */
  @Test
  void aServerThatIsNotThereIsOneErrorBeforeAnyCase() throws Exception {
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    assertThat(run("--url", "ws://127.0.0.1:" + port + "/", "--cases", "1.1.*", "--out",
        dir.toString())).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo("error: cannot connect to ws://127.0.0.1:" + port + "/: Connection refused\n");
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void aPassingServerExitsWithZeroAndLeavesBothReports() throws Exception {
    try (WebSocketServer server = OurEchoServer.start(Transport.NIO, false)) {
      int status = run("--url", OurEchoServer.echoUri(server).toString(), "--cases", "1.1.*,2.1",
          "--exclude", "1.1.9", "--out", dir.toString(), "--agent", "cli");
      assertThat(status).isZero();
    }
    String printed = out.toString(StandardCharsets.UTF_8);
    assertThat(printed).contains("1.1.1", "2.1", "10 cases: 10 OK, 0 FAILED")
        .doesNotContain("1.1.9 ");
    assertThat(Files.readString(dir.resolve("index.json"))).startsWith("[{\"id\":\"1.1.1\"");
    assertThat(Files.readString(dir.resolve("index.html"))).contains("wsjava conformance: cli");
  }

  @Test
  void aFailingServerExitsWithOne() throws Exception {
    try (LaxEchoServer server = new LaxEchoServer(LaxEchoServer.Flaw.ACCEPTS_EVERYTHING)) {
      int status = run("--url", server.uri().toString(), "--cases", "3.1.1", "--out",
          dir.toString());
      assertThat(status).isEqualTo(1);
    }
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("3.1.1", "FAILED");
  }

  @Test
  void wssChecksTheCertificateUnlessToldToBeInsecure() throws Exception {
    Path store = selfSigned(dir);
    SSLContext tls = TlsContexts.fromPkcs12(store, "changeit".toCharArray());
    WebSocketConfig config = WebSocketConfig.builder().deflate(null).build();
    try (WebSocketServer server = WebSocketServer.builder().bind("127.0.0.1", 0).config(config)
        .tls(tls).websocket("/echo", new WebSocketListener() {
          @Override
          public void onText(WebSocket ws, String text) {
            ws.sendText(text);
          }
        }).start()) {
      String url = "wss://127.0.0.1:" + server.port() + "/echo";
      assertThat(run("--url", url, "--cases", "1.1.2", "--out", dir.toString())).isEqualTo(1);
      assertThat(out.toString(StandardCharsets.UTF_8)).contains("could not open the WebSocket");
      out.reset();
      assertThat(run("--url", url, "--cases", "1.1.*,5.3", "--out", dir.toString(), "--insecure"))
          .isZero();
      assertThat(out.toString(StandardCharsets.UTF_8)).contains("11 cases: 11 OK");
    }
  }

  /** A self-signed PKCS12 store for 127.0.0.1, made with the JDK's keytool. */
  private static Path selfSigned(Path dir) throws IOException, InterruptedException {
    Path store = dir.resolve("server.p12");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool")
        .toString(), "-genkeypair", "-keyalg", "EC", "-groupname", "secp256r1", "-alias", "s",
        "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-validity", "1", "-storetype",
        "PKCS12", "-keystore", store.toString(), "-storepass", "changeit")
        .redirectErrorStream(true).start();
    String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(log).isZero();
    return store;
  }
}
