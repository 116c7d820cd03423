package dev.wsjava.cli;

import dev.wsjava.conformance.FuzzingServer;
import dev.wsjava.conformance.Report;
import dev.wsjava.conformance.Result;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code wsjava conformance server}: the fuzzing server, for a client under test that a driver
 * connects to it case after case over the reference suite's protocol. Runs until Ctrl-C or
 * SIGTERM; prints the protocol's URLs at start and one line per case as clients run them.
 */
@Command(
    name = "server",
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Test a WebSocket client that echoes every message: a driver connects it to /getCaseCount,"
          + " then to /runCase?case=N&agent=NAME for N = 1 to the count, then to"
          + " /updateReports?agent=NAME, which writes the reports.",
      "Prints those URLs at start and one line per case run; runs until Ctrl-C or SIGTERM.",
      ""
    },
    footer = {
      "",
      "Exit status: 1 cannot listen, 2 usage error; otherwise it serves until stopped.",
      "wsjava connect is such a driver, one case per run:",
      "  n=$(wsjava connect ws://127.0.0.1:9001/getCaseCount </dev/null)",
      "  for i in $(seq $n); do wsjava connect --echo \"ws://127.0.0.1:9001/runCase?case=$i&agent=me\"; done",
      "  wsjava connect --echo 'ws://127.0.0.1:9001/updateReports?agent=me'"
    })
public final class ConformanceServerCommand implements Callable<Integer> {
  @ParentCommand private ConformanceCommand parent;

  @Spec private CommandSpec spec;

  @Mixin private ListenAddress listen;

  @Option(names = {"-p", "--port"}, paramLabel = "PORT", defaultValue = "9001",
      description = "Port to listen on; 0 picks a free one.")
  private int port;

  @Mixin private SuiteOptions suite;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "target/conformance",
      description = "Reports go to DIR/AGENT/index.json and index.html.")
  private Path out;

  private final List<Result> results = new ArrayList<>();

  /**
   * Starts the server, prints its URLs, and serves until Ctrl-C or SIGTERM.
   *
   * @return 0 after a shutdown
   * @throws Exception when the server cannot listen (the message says why)
   */
  @Override
  public Integer call() throws Exception {
    FuzzingServer server = start();
    PrintStream err = parent.io().err();
    Shutdown.await("wsjava-conformance-shutdown", () -> {
      List<Result> seen;
      synchronized (results) {
        seen = List.copyOf(results);
      }
      err.println("wsjava conformance server: stopping; cases run: " + Report.summary(seen));
      try {
        server.close();
      } catch (IOException e) {
        err.println("wsjava conformance server: " + e.getMessage());
      }
    });
    return 0;
  }

  /**
   * Starts the server with the parsed options, prints its URLs, and returns at once; for {@link
   * #call()} and for tests, which need the bound port.
   *
   * @return the running server; closing it stops listening
   * @throws IOException when the address cannot be bound
   */
  public FuzzingServer start() throws IOException {
    Usage.checkListenPort(spec, "--port", port);
    suite.check();
    listen.checkResolvable();
    PrintStream stdout = parent.io().out();
    FuzzingServer.Options options = new FuzzingServer.Options(listen.host, port, suite.cases,
        suite.exclude, suite.full, out, suite.settings());
    FuzzingServer server;
    try {
      server = FuzzingServer.start(options, r -> {
        synchronized (results) {
          results.add(r);
        }
        stdout.println(r.line());
        stdout.flush();
      });
    } catch (IOException e) {
      throw new IOException("cannot listen on " + listen.host + ":" + port + ": " + Main.describe(e), e);
    }
    for (String line : urls(server)) {
      stdout.println(line);
    }
    stdout.flush();
    parent.io().err().println("wsjava conformance server: " + server.cases().size()
        + " case(s); reports under " + out.toAbsolutePath() + "/AGENT; the client under test"
        + " must echo every message");
    return server;
  }

  private List<String> urls(FuzzingServer server) {
    String base = "ws://" + listen.authority(server.port());
    int count = server.cases().size();
    return List.of(
        String.format("%-52s the number of cases (%d), as a text message",
            base + "/getCaseCount", count),
        String.format("%-52s plays case N (1 to %d) against the client",
            base + "/runCase?case=N&agent=NAME", count),
        String.format("%-52s case N's id and description, as JSON", base + "/getCaseInfo?case=N"),
        String.format("%-52s NAME's verdict on case N, as JSON",
            base + "/getCaseStatus?case=N&agent=NAME"),
        String.format("%-52s writes NAME's index.json and index.html",
            base + "/updateReports?agent=NAME"));
  }
}
