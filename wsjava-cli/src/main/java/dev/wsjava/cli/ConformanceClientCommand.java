package dev.wsjava.cli;

import dev.wsjava.conformance.FuzzingClient;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code wsjava conformance client URL}: the fuzzing client against a server that echoes. Checks
 * the command line, then hands it to {@link FuzzingClient#run(String[], java.io.PrintStream,
 * java.io.PrintStream)}, whose exit status it returns.
 */
@Command(
    name = "client",
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Test a WebSocket server that echoes every text and binary message: each case opens a"
          + " connection of its own, plays its frames, and is judged; one line per case.",
      "Writes index.json and index.html to --out.",
      ""
    },
    footer = {
      "",
      "Exit status: 0 no case FAILED, 1 some case FAILED or the server cannot be reached,"
          + " 2 usage error.",
      "Example: wsjava conformance client ws://127.0.0.1:8080/echo --cases '1.*,6.4.*'"
          + " --exclude 9.* --agent wsjava"
    })
public final class ConformanceClientCommand implements Callable<Integer> {
  /** How long to wait for the server's TCP connection before running anything. */
  private static final java.time.Duration REACH_TIMEOUT = java.time.Duration.ofSeconds(10);

  @ParentCommand private ConformanceCommand parent;

  @Spec private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "URL", description = "ws:// or wss:// URL of an echo server.")
  private URI url;

  @Mixin private SuiteOptions suite;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Report directory (default: target/conformance/AGENT).")
  private Path out;

  @Option(names = "--agent", paramLabel = "NAME", defaultValue = "server",
      description = "The server's name, for the report.")
  private String agent;

  @Option(names = {"-k", "--insecure"},
      description = "wss:// without certificate or host name checks: development only.")
  private boolean insecure;

  /**
   * Runs the suite and returns its exit status.
   *
   * @return 0 none FAILED, 1 some FAILED or the server cannot be reached, 2 usage error
   * @throws Exception when interrupted or the report cannot be written
   */
  @Override
  public Integer call() throws Exception {
    Io io = parent.io();
    ClientOptions.checkUrl(spec, url);
    suite.check();
    if (insecure) {
      ClientOptions.warnInsecure(io.err());
    }
    try {
      FuzzingClient.checkReachable(url, REACH_TIMEOUT);
    } catch (IOException e) {
      io.err().println("wsjava conformance client: cannot connect to " + url + ": "
          + Main.describe(e));
      return 1;
    }
    List<String> args = new ArrayList<>(List.of("--url", url.toString(), "--agent", agent,
        "--timeout-scale", Double.toString(suite.timeoutScale)));
    if (!suite.cases.isEmpty()) {
      args.addAll(List.of("--cases", String.join(",", suite.cases)));
    }
    if (!suite.exclude.isEmpty()) {
      args.addAll(List.of("--exclude", String.join(",", suite.exclude)));
    }
    if (out != null) {
      args.addAll(List.of("--out", out.toString()));
    }
    if (suite.full) {
      args.add("--full");
    }
    if (insecure) {
      args.add("--insecure");
    }
    int status = FuzzingClient.run(args.toArray(String[]::new), io.out(), io.err());
    io.out().flush();
    return status;
  }
}
