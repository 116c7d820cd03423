package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConformanceClientCommandTest {

  @Test
  void wsjavasEchoServerPassesFramingAndPingCasesAndTheReportIsWritten(@TempDir Path reports)
      throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0")) {
      Path out = reports.resolve("wsjava");
      Cli.Result r = Cli.run("", "conformance", "client",
          "ws://127.0.0.1:" + server.port() + "/echo", "--cases", "1.1.*,2.*", "--agent", "wsjava",
          "--out", out.toString());
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(r.out()).contains("1.1.1 ", "2.1 ", " 0 FAILED", "report: ");
      assertThat(r.out()).doesNotContain("3.1.1", "FAILED   ");
      assertThat(out.resolve("index.json")).content().contains("\"id\":\"1.1.1\"", "\"id\":\"2.1\"");
      assertThat(out.resolve("index.html")).content().contains("wsjava");
    }
  }

  /**
   * RFC 6455 §5.2: a set RSV bit no extension defined fails the connection. A server that echoes
   * such a frame instead is FAILED on case 3.1.1, while the plain echo of 1.1.1 stays OK, and the
   * run exits 1.
   */
  @Test
  void aServerThatEchoesReservedBitsFailsCase3dot1dot1AndTheExitStatusIsOne(@TempDir Path reports)
      throws Exception {
    try (LoopbackServer server = new LoopbackServer(ConformanceClientCommandTest::echoEveryFrame)) {
      Cli.Result r = Cli.run("", "conformance", "client", "ws://127.0.0.1:" + server.port() + "/",
          "--cases", "1.1.1,3.1.1", "--out", reports.toString());
      assertThat(r.exit()).as(r.toString()).isEqualTo(1);
      assertThat(r.out()).containsPattern("1\\.1\\.1 +OK ").containsPattern("3\\.1\\.1 +FAILED ");
      assertThat(reports.resolve("index.json")).exists();
    }
  }

  @Test
  void usageErrorsExitWithTwoBeforeAnyCaseRuns() {
    Cli.Result scheme = Cli.run("", "conformance", "client", "http://127.0.0.1:1/");
    assertThat(scheme.exit()).as(scheme.toString()).isEqualTo(2);
    assertThat(scheme.stderr()).contains("is not a ws:// or wss:// URL");
    Cli.Result none = Cli.run("", "conformance", "client", "ws://127.0.0.1:1/", "--cases", "99.*");
    assertThat(none.exit()).as(none.toString()).isEqualTo(2);
    assertThat(none.stderr()).contains("--cases 99.* selects no case");
    Cli.Result scale = Cli.run("", "conformance", "client", "ws://127.0.0.1:1/", "--timeout-scale", "0");
    assertThat(scale.exit()).as(scale.toString()).isEqualTo(2);
    assertThat(scale.stderr()).contains("--timeout-scale must be a positive number");
    Cli.Result bare = Cli.run("", "conformance");
    assertThat(bare.exit()).as(bare.toString()).isEqualTo(2);
    assertThat(bare.stderr()).contains("client", "server");
  }

  /**
   * A broken echo server: after the handshake it sends every frame back as it came (FIN, RSV bits
   * and opcode unchanged, unmasked) where RFC 6455 §5.2 says to fail the connection on a set RSV
   * bit; a close ends the connection after its echo.
   */
  private static void echoEveryFrame(java.net.Socket s) throws IOException {
    RawWebSocket.accept(s);
    DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
    OutputStream out = s.getOutputStream();
    RawWebSocket.Frame f;
    do {
      f = RawWebSocket.read(in);
      RawWebSocket.write(out, f);
    } while (f.opcode() != 0x8);
  }
}
