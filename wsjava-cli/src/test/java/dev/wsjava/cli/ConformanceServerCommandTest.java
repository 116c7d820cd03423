package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Transport;
import dev.wsjava.conformance.FuzzingServer;
import dev.wsjava.conformance.Result;
import dev.wsjava.conformance.Verdict;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConformanceServerCommandTest {

  /**
   * The server prints the protocol's URLs, and {@code wsjava connect} drives it as its help says:
   * the case count with stdin empty, a case and the reports with {@code --echo}.
   */
  @Test
  void startsOnAFreePortPrintsItsUrlsAndConnectDrivesItCaseByCase(@TempDir Path reports)
      throws Exception {
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    Io io = new Io(new ByteArrayInputStream(new byte[0]),
        new PrintStream(stdout, true, StandardCharsets.UTF_8), System.err, false);
    ConformanceServerCommand command = Cli.parse(io, "conformance", "server", "--port", "0",
        "--cases", "1.1.1,1.1.2,2.1", "--out", reports.toString());
    try (FuzzingServer server = command.start()) {
      String base = "ws://127.0.0.1:" + server.port();
      assertThat(stdout.toString(StandardCharsets.UTF_8)).contains(
          base + "/getCaseCount ", "the number of cases (3)", base + "/runCase?case=N&agent=NAME",
          base + "/updateReports?agent=NAME");

      Cli.Result count = Cli.run("", "connect", base + "/getCaseCount");
      assertThat(count.exit()).as(count.toString()).isZero();
      assertThat(count.out()).isEqualTo("3\n");

      Cli.Result run = Cli.run("", "connect", "--echo", base + "/runCase?case=3&agent=cli");
      assertThat(run.exit()).as(run.toString()).isZero();
      // The server judges after its side of the close, which may come after the client exits.
      assertThat(resultsOf(server, "cli")).singleElement().satisfies(r -> {
        assertThat(r.id()).isEqualTo("2.1");
        assertThat(r.verdict()).isEqualTo(Verdict.OK);
      });
      assertThat(stdout.toString(StandardCharsets.UTF_8)).containsPattern("2\\.1 +OK ");

      Cli.Result update = Cli.run("", "connect", "--echo", base + "/updateReports?agent=cli");
      assertThat(update.exit()).as(update.toString()).isZero();
      assertThat(reports.resolve("cli/index.json")).content().contains("\"id\":\"2.1\"");
    }
  }

  /**
   * The driver its help gives, for real: {@code wsjava connect --echo} as one process per case,
   * on each transport. The process exits as soon as the connection is closed, so a client that
   * reports the server's close before its close reply is on the wire (RFC 6455 §5.5.1) loses the
   * reply and the case FAILS: the suite sees TCP dropped without a close frame.
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void oneShotConnectProcessesPassEveryCaseOnEachTransport(Transport transport,
      @TempDir Path reports) throws Exception {
    String agent = "connect-" + transport.name().toLowerCase(java.util.Locale.ROOT);
    ConformanceServerCommand command = Cli.parse(Io.system(), "conformance", "server",
        "--port", "0", "--cases", "1.1.1,1.2.1,2.1,2.3,7.1.1,7.1.2", "--out", reports.toString());
    try (FuzzingServer server = command.start()) {
      String base = "ws://127.0.0.1:" + server.port();
      int cases = server.cases().size();
      for (int i = 1; i <= cases; i++) {
        Cli.Result run = Cli.child("", Map.of(), "connect", "--echo", "--transport",
            transport.name(), base + "/runCase?case=" + i + "&agent=" + agent);
        assertThat(run.exit()).as(run.toString()).isZero();
      }
      List<Result> results = resultsOf(server, agent, cases);
      assertThat(results).hasSize(cases);
      assertThat(results.stream().filter(r -> r.verdict() != Verdict.OK)
          .map(r -> r.id() + " " + r.verdict() + ": " + r.reason())).isEmpty();
    }
  }

  @Test
  void aPortInUseExitsWithOneAndUsageErrorsWithTwo() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Cli.Result busy = Cli.run("", "conformance", "server", "--port",
          Integer.toString(taken.getLocalPort()));
      assertThat(busy.exit()).as(busy.toString()).isEqualTo(1);
      assertThat(busy.stderr()).contains("wsjava conformance server: cannot listen on 127.0.0.1:"
          + taken.getLocalPort());
    }
    Cli.Result port = Cli.run("", "conformance", "server", "--port", "70000");
    assertThat(port.exit()).as(port.toString()).isEqualTo(2);
    assertThat(port.stderr()).contains("--port 70000 is out of range");
    Cli.Result none = Cli.run("", "conformance", "server", "--cases", "1.1.1", "--exclude", "1.*");
    assertThat(none.exit()).as(none.toString()).isEqualTo(2);
    assertThat(none.stderr()).contains("selects no case");
  }

  /** The agent's results once there are any, waiting at most 5 s. */
  private static List<Result> resultsOf(FuzzingServer server, String agent)
      throws InterruptedException {
    return resultsOf(server, agent, 1);
  }

  /** The agent's results once there are {@code count} of them, waiting at most 5 s. */
  private static List<Result> resultsOf(FuzzingServer server, String agent, int count)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    List<Result> results = server.results(agent);
    while (results.size() < count && System.nanoTime() < deadline) {
      Thread.sleep(10);
      results = server.results(agent);
    }
    return results;
  }
}
