package dev.wsjava.conformance;

import dev.wsjava.protocol.Role;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The fuzzing client: tests a WebSocket server at a ws:// or wss:// URL that echoes every message
 * it receives. Each case opens a fresh connection (its own handshake; permessage-deflate is offered
 * only in groups 12 and 13), plays its script, waits for the close, and is judged. Writes {@code
 * index.json} and {@code index.html} and exits 0 when nothing FAILED, 1 otherwise, 2 on a usage
 * error. Stateless: runs may go on from several threads, each with connections of its own.
 *
 * <pre>
 * java dev.wsjava.conformance.FuzzingClient --url ws://127.0.0.1:9001/echo --cases 1.*,6.4.*
 * </pre>
 */
public final class FuzzingClient {
  private static final String USAGE = """
      usage: FuzzingClient --url ws://host:port/path [options]
        --cases 1.*,6.4.*   cases to run (globs, comma-separated; default all)
        --exclude 9.*       cases to skip
        --full              group 9 at full size (up to 16 MiB; default up to 1 MiB)
        --out DIR           report directory (default target/conformance/<agent>)
        --agent NAME        the name of the server under test, for the report (default server)
        --insecure          wss: accept any certificate (development only)
        --timeout-scale X   multiply every case's timeout by X (default 1)
      The server must echo every text and binary message it receives.""";

  /**
   * What to run and where.
   *
   * @param url the server's ws:// or wss:// URL
   * @param include the case patterns to run (empty for all)
   * @param exclude the case patterns to skip
   * @param full group 9 at full size
   * @param out the report directory, or null for none
   * @param agent the server's name for the report
   * @param insecure accept any certificate
   * @param settings the runner's patience
   */
  public record Options(
      URI url, List<String> include, List<String> exclude, boolean full, Path out, String agent,
      boolean insecure, Settings settings) {

    /**
     * Checks the options.
     *
     * @param url ws or wss
     * @param include not null
     * @param exclude not null
     * @param full see the record
     * @param out may be null
     * @param agent not null
     * @param insecure see the record
     * @param settings not null
     */
    public Options {
      Objects.requireNonNull(url, "url");
      if (!"ws".equalsIgnoreCase(url.getScheme()) && !"wss".equalsIgnoreCase(url.getScheme())) {
        throw new IllegalArgumentException("the URL must be ws:// or wss://: " + url);
      }
      include = List.copyOf(include);
      exclude = List.copyOf(exclude);
      Objects.requireNonNull(agent, "agent");
      Objects.requireNonNull(settings, "settings");
    }

    /**
     * All cases, reduced group 9, no report, default settings.
     *
     * @param url the server
     * @return the options
     */
    public static Options of(URI url) {
      return new Options(url, List.of(), List.of(), false, null, "server", false,
          Settings.DEFAULTS);
    }

    /**
     * Returns a copy running only these cases.
     *
     * @param patterns globs
     * @return the copy
     */
    public Options cases(String... patterns) {
      return new Options(url, List.of(patterns), exclude, full, out, agent, insecure, settings);
    }

    /**
     * Returns a copy writing the report to a directory.
     *
     * @param dir the directory
     * @param agentName the server's name
     * @return the copy
     */
    public Options report(Path dir, String agentName) {
      return new Options(url, include, exclude, full, dir, agentName, insecure, settings);
    }

    /**
     * Returns a copy with other settings.
     *
     * @param value the settings
     * @return the copy
     */
    public Options settings(Settings value) {
      return new Options(url, include, exclude, full, out, agent, insecure, value);
    }
  }

  private FuzzingClient() {}

  /**
   * Runs the selected cases one after the other and writes the report when asked to.
   *
   * @param options what to run
   * @param progress gets each result as it comes
   * @return the results, in catalogue order
   * @throws InterruptedException when interrupted
   * @throws IOException when the report cannot be written
   */
  public static List<Result> run(Options options, Consumer<Result> progress)
      throws InterruptedException, IOException {
    List<Case> cases =
        Catalogue.select(Catalogue.all(options.full()), options.include(), options.exclude());
    List<Result> results = new ArrayList<>(cases.size());
    for (Case c : cases) {
      Result r = runOne(c, options);
      results.add(r);
      progress.accept(r);
    }
    if (options.out() != null) {
      Report.write(options.out(), options.agent(), results);
    }
    return results;
  }

  /**
   * Runs one case on a fresh connection.
   *
   * @param c the case
   * @param options where
   * @return the result
   * @throws InterruptedException when interrupted
   */
  public static Result runOne(Case c, Options options) throws InterruptedException {
    long start = System.nanoTime();
    Duration handshakeTimeout =
        options.settings().scaled(options.settings().closeTimeout()).plusSeconds(2);
    ClientOpening.Opened o;
    try {
      o = ClientOpening.open(options.url(), options.insecure(), c.deflate(), handshakeTimeout);
    } catch (ClientOpening.Refused e) {
      return Result.notRun(c, e.verdict(), e.getMessage(),
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }
    return CaseRunner.run(c, o.socket(), o.in(), o.out(), Role.CLIENT, o.compression(),
        options.settings(), start);
  }

  /**
   * Checks that the server can be reached at all (a TCP connection, closed at once), so that a
   * server that is not there is one clear error rather than every case FAILED.
   *
   * @param url the server's URL
   * @param timeout the longest wait for the connection
   * @throws IOException saying why it cannot be reached, in words: "Connection refused", "cannot
   *     resolve host NAME", "timed out after N ms"
   */
  public static void checkReachable(URI url, Duration timeout) throws IOException {
    boolean tls = "wss".equalsIgnoreCase(url.getScheme());
    int port = url.getPort() >= 0 ? url.getPort() : tls ? 443 : 80;
    java.net.InetSocketAddress address = new java.net.InetSocketAddress(url.getHost(), port);
    if (address.isUnresolved()) {
      throw new java.net.UnknownHostException("cannot resolve host " + url.getHost());
    }
    try (java.net.Socket probe = new java.net.Socket()) {
      probe.connect(address, (int) timeout.toMillis());
    } catch (java.net.SocketTimeoutException e) {
      throw new java.net.SocketTimeoutException("timed out after " + timeout.toMillis() + " ms");
    }
  }

  /** How long {@link #run(String[], PrintStream, PrintStream)} waits to reach the server. */
  private static final Duration REACH_TIMEOUT = Duration.ofSeconds(10);

  /**
   * Runs the suite from the command line.
   *
   * @param args see the usage text ({@code --help})
   * @throws Exception when interrupted or the report cannot be written
   */
  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs the suite from a command line and returns the exit status.
   *
   * @param args the arguments
   * @param out where the per-case lines and the summary go
   * @param err where usage errors go
   * @return 0 when nothing FAILED, 1 when a case FAILED or the server cannot be reached, 2 on a
   *     usage error
   * @throws InterruptedException when interrupted
   * @throws IOException when the report cannot be written
   */
  public static int run(String[] args, PrintStream out, PrintStream err)
      throws InterruptedException, IOException {
    Options options;
    try {
      Args a = Args.parse(args,
          Set.of("--url", "--cases", "--exclude", "--out", "--agent", "--timeout-scale"),
          Set.of("--full", "--insecure", "--help"));
      if (a.flag("--help")) {
        out.println(USAGE);
        return 0;
      }
      String url = a.get("--url", null);
      if (url == null) {
        throw new Args.UsageException("--url is required");
      }
      String agent = a.get("--agent", "server");
      Path dir = Path.of(a.get("--out", "target/conformance/" + agent));
      options = new Options(URI.create(url), a.list("--cases"), a.list("--exclude"),
          a.flag("--full"), dir, agent, a.flag("--insecure"),
          Settings.DEFAULTS.withTimeoutScale(a.decimal("--timeout-scale", 1.0)));
    } catch (Args.UsageException | IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      err.println(USAGE);
      return 2;
    }
    try {
      checkReachable(options.url(), REACH_TIMEOUT);
    } catch (IOException e) {
      err.println("error: cannot connect to " + options.url() + ": " + e.getMessage());
      return 1;
    }
    List<Result> results = run(options, r -> out.println(r.line()));
    out.println(Report.summary(results));
    out.println("report: " + options.out().resolve("index.html").toAbsolutePath());
    return results.stream().anyMatch(r -> r.verdict() == Verdict.FAILED) ? 1 : 0;
  }
}
