package dev.wsjava.conformance;

import dev.wsjava.protocol.Role;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The fuzzing server: tests a WebSocket client that connects to it and echoes every message it
 * receives. It speaks the reference suite's protocol, so existing drivers work:
 *
 * <ul>
 *   <li>{@code /getCaseCount}: sends the number of cases as a text message, then closes;
 *   <li>{@code /getCaseInfo?case=N}: sends {@code {"id": ..., "description": ...}}, then closes;
 *   <li>{@code /getCaseStatus?case=N&agent=A}: sends {@code {"behavior": "OK"}}, then closes;
 *   <li>{@code /runCase?case=N&agent=A}: plays case N (1-based, catalogue order) against the
 *       client;
 *   <li>{@code /updateReports?agent=A}: writes the agent's reports, then closes.
 * </ul>
 *
 * <p>For the permessage-deflate cases it answers the client's offer with the case's parameters
 * where the offer allows; a client that offers nothing suitable gets UNIMPLEMENTED. Each
 * connection runs on a virtual thread of its own. Thread-safe.
 */
public final class FuzzingServer implements AutoCloseable {
  private static final Duration HEAD_TIMEOUT = Duration.ofSeconds(10);
  private static final String USAGE = """
      usage: FuzzingServer [options]
        --port N            port to listen on (default 9001; 0 for any)
        --host ADDRESS      address to listen on (default 127.0.0.1)
        --cases 1.*,6.4.*   cases to offer (globs, comma-separated; default all)
        --exclude 9.*       cases to leave out
        --full              group 9 at full size (up to 16 MiB; default up to 1 MiB)
        --out DIR           report directory; reports go to DIR/<agent> (default target/conformance)
        --timeout-scale X   multiply every case's timeout by X (default 1)
      The client under test must echo every text and binary message it receives.""";

  /**
   * Where to listen and what to offer.
   *
   * @param host the address to listen on
   * @param port the port, 0 for any free one
   * @param include the case patterns (empty for all)
   * @param exclude the case patterns to leave out
   * @param full group 9 at full size
   * @param out the report directory (reports go to {@code out/<agent>}), or null for none
   * @param settings the runner's patience
   */
  public record Options(
      String host, int port, List<String> include, List<String> exclude, boolean full, Path out,
      Settings settings) {

    /**
     * Checks the options.
     *
     * @param host not null
     * @param port 0-65535
     * @param include not null
     * @param exclude not null
     * @param full see the record
     * @param out may be null
     * @param settings not null
     */
    public Options {
      Objects.requireNonNull(host, "host");
      include = List.copyOf(include);
      exclude = List.copyOf(exclude);
      Objects.requireNonNull(settings, "settings");
    }

    /**
     * All cases on 127.0.0.1 and any free port, reduced group 9, no reports.
     *
     * @return the options
     */
    public static Options loopback() {
      return new Options("127.0.0.1", 0, List.of(), List.of(), false, null, Settings.DEFAULTS);
    }

    /**
     * Returns a copy offering only these cases.
     *
     * @param patterns globs
     * @return the copy
     */
    public Options cases(String... patterns) {
      return new Options(host, port, List.of(patterns), exclude, full, out, settings);
    }

    /**
     * Returns a copy writing reports under a directory.
     *
     * @param dir the directory
     * @return the copy
     */
    public Options reports(Path dir) {
      return new Options(host, port, include, exclude, full, dir, settings);
    }
  }

  /** Drives the client under test through the server's protocol. */
  @FunctionalInterface
  public interface Driver {
    /**
     * Connects the client to {@code base}/getCaseCount, then to each runCase, then to
     * updateReports, one after the other.
     *
     * @param base for example {@code ws://127.0.0.1:9001}
     * @param agent the name to report under
     * @throws Exception when driving fails
     */
    void drive(URI base, String agent) throws Exception;
  }

  private final Options options;
  private final List<Case> cases;
  private final ServerSocket listener;
  private final Map<String, TreeMap<Integer, Result>> results = new HashMap<>();
  private final Consumer<Result> progress;

  private FuzzingServer(Options options, Consumer<Result> progress) throws IOException {
    this.options = options;
    this.progress = progress;
    this.cases = Catalogue.select(Catalogue.all(options.full()), options.include(),
        options.exclude());
    listener = new ServerSocket();
    listener.bind(new InetSocketAddress(InetAddress.getByName(options.host()), options.port()));
    Thread.ofVirtual().name("fuzzing-server-accept").start(this::acceptLoop);
  }

  /**
   * Starts listening.
   *
   * @param options where and what
   * @return the running server
   * @throws IOException when the address cannot be bound
   */
  public static FuzzingServer start(Options options) throws IOException {
    return new FuzzingServer(options, r -> {});
  }

  /**
   * Starts listening and reports each result as it comes.
   *
   * @param options where and what
   * @param progress gets each case's result
   * @return the running server
   * @throws IOException when the address cannot be bound
   */
  public static FuzzingServer start(Options options, Consumer<Result> progress)
      throws IOException {
    return new FuzzingServer(options, progress);
  }

  /**
   * Returns the port the server listens on.
   *
   * @return the bound port
   */
  public int port() {
    return listener.getLocalPort();
  }

  /**
   * Returns the base URI clients connect to.
   *
   * @return for example {@code ws://127.0.0.1:9001}
   */
  public URI base() {
    String host = options.host().contains(":") ? "[" + options.host() + "]" : options.host();
    return URI.create("ws://" + host + ":" + port());
  }

  /**
   * Returns the cases offered, in order (case N of the protocol is element N - 1).
   *
   * @return the cases
   */
  public List<Case> cases() {
    return cases;
  }

  /**
   * Returns the results recorded for an agent, in case order.
   *
   * @param agent the agent's name
   * @return the results (a case run twice counts once, the last run)
   */
  public List<Result> results(String agent) {
    synchronized (results) {
      return List.copyOf(results.getOrDefault(agent, new TreeMap<>()).values());
    }
  }

  /**
   * Runs a driver against this server and returns the agent's results; writes the reports when
   * the options name a directory.
   *
   * @param agent the agent's name
   * @param driver drives the client under test
   * @return the results, in case order
   * @throws Exception when the driver fails
   */
  public List<Result> drive(String agent, Driver driver) throws Exception {
    driver.drive(base(), agent);
    writeReports(agent);
    return results(agent);
  }

  /** Stops listening; connections in progress end on their own. */
  @Override
  public void close() throws IOException {
    listener.close();
  }

  private void writeReports(String agent) throws IOException {
    if (options.out() != null) {
      Report.write(options.out().resolve(agent), agent, results(agent));
    }
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      Socket s;
      try {
        s = listener.accept();
      } catch (IOException e) {
        return;
      }
      Thread.ofVirtual().name("fuzzing-server-connection").start(() -> serve(s));
    }
  }

  private void serve(Socket socket) {
    long start = System.nanoTime();
    try {
      socket.setTcpNoDelay(true);
      socket.setSoTimeout((int) HEAD_TIMEOUT.toMillis());
      InputStream in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
      OutputStream out = socket.getOutputStream();
      HttpHead head = HttpHead.read(in);
      socket.setSoTimeout(0);
      String[] line = head.startLine().split(" ");
      String key = head.header("Sec-WebSocket-Key");
      if (line.length < 3 || !line[0].equals("GET") || !head.hasToken("Upgrade", "websocket")
          || !head.hasToken("Connection", "upgrade")
          || !head.header("Sec-WebSocket-Version").equals("13") || !validKey(key)) {
        refuse(socket, out, "400 Bad Request", "a WebSocket upgrade (RFC 6455 §4.1) is needed");
        return;
      }
      URI target = URI.create(line[1]);
      Map<String, String> query = query(target.getRawQuery());
      switch (target.getPath()) {
        case "/getCaseCount" -> say(socket, in, out, key, Integer.toString(cases.size()));
        case "/getCaseInfo" -> {
          Case c = caseAt(query);
          if (c == null) {
            refuse(socket, out, "404 Not Found", "no such case");
          } else {
            say(socket, in, out, key, new Json().beginObject().field("id", c.id())
                .field("description", c.description()).endObject().toString());
          }
        }
        case "/getCaseStatus" -> {
          Case c = caseAt(query);
          Result r = c == null ? null : result(query.getOrDefault("agent", ""), c);
          say(socket, in, out, key, new Json().beginObject()
              .field("behavior", r == null ? "UNKNOWN" : r.verdict().label()).endObject()
              .toString());
        }
        case "/updateReports" -> {
          writeReports(query.getOrDefault("agent", ""));
          say(socket, in, out, key, "reports written");
        }
        case "/runCase" -> runCase(socket, in, out, head, key, query, start);
        default -> refuse(socket, out, "404 Not Found", "unknown path " + target.getPath());
      }
    } catch (IOException | RuntimeException e) {
      closeQuietly(socket);
    } catch (InterruptedException e) {
      closeQuietly(socket);
      Thread.currentThread().interrupt();
    }
  }

  private void runCase(
      Socket socket, InputStream in, OutputStream out, HttpHead head, String key,
      Map<String, String> query, long start) throws IOException, InterruptedException {
    Case c = caseAt(query);
    if (c == null) {
      refuse(socket, out, "404 Not Found", "no such case: " + query.get("case"));
      return;
    }
    String agent = query.getOrDefault("agent", "client");
    Compression compression = null;
    String extension = null;
    String declined = null;
    Verdict verdict = Verdict.UNIMPLEMENTED;
    if (c.deflate() != null) {
      try {
        List<DeflateParameters> offers =
            DeflateParameters.parse(head.header("Sec-WebSocket-Extensions"), true);
        answering:
        for (DeflateParameters wanted : c.deflate().answers()) {
          for (DeflateParameters offer : offers) {
            try {
              DeflateParameters answer = wanted.answer(offer);
              extension = answer.element();
              compression = Compression.asServer(answer);
              break answering;
            } catch (IllegalStateException e) {
              declined = e.getMessage();
            }
          }
        }
        if (extension == null && declined == null) {
          declined = "the client offered no permessage-deflate";
        }
      } catch (IllegalArgumentException e) {
        declined = "the client's permessage-deflate offer is malformed: " + e.getMessage();
        verdict = Verdict.FAILED;
      }
    }
    accept(out, key, extension);
    if (c.deflate() != null && extension == null) {
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      record(agent, c, Result.notRun(c, verdict, declined, ms));
      say(socket, in, out, null, null);
      return;
    }
    record(agent, c, CaseRunner.run(c, socket, in, out, Role.SERVER, compression,
        options.settings(), start));
  }

  private void record(String agent, Case c, Result r) {
    // Reported first, so whoever sees the result (getCaseStatus, results()) finds its line printed.
    progress.accept(r);
    synchronized (results) {
      results.computeIfAbsent(agent, a -> new TreeMap<>()).put(cases.indexOf(c), r);
    }
  }

  private Result result(String agent, Case c) {
    synchronized (results) {
      TreeMap<Integer, Result> m = results.get(agent);
      return m == null ? null : m.get(cases.indexOf(c));
    }
  }

  private Case caseAt(Map<String, String> query) {
    try {
      int n = Integer.parseInt(query.getOrDefault("case", ""));
      return n >= 1 && n <= cases.size() ? cases.get(n - 1) : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static boolean validKey(String key) {
    try {
      return Base64.getDecoder().decode(key).length == 16;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> q = new HashMap<>();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          q.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
              URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    return q;
  }

  private static void accept(OutputStream out, String key, String extension) throws IOException {
    out.write(("HTTP/1.1 101 Switching Protocols\r\n"
        + "Upgrade: websocket\r\n"
        + "Connection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: " + HttpHead.accept(key) + "\r\n"
        + (extension == null ? "" : "Sec-WebSocket-Extensions: " + extension + "\r\n")
        + "Server: wsjava-conformance\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
  }

  private static void refuse(Socket socket, OutputStream out, String status, String why)
      throws IOException {
    byte[] body = (why + "\n").getBytes(StandardCharsets.UTF_8);
    out.write(("HTTP/1.1 " + status + "\r\nContent-Type: text/plain; charset=utf-8\r\n"
        + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
        .getBytes(StandardCharsets.ISO_8859_1));
    out.write(body);
    out.flush();
    socket.close();
  }

  /**
   * Accepts the upgrade (unless {@code key} is null: already accepted), sends {@code text} (if
   * any) and closes with 1000: waits briefly for the client's close, then closes TCP.
   */
  private static void say(Socket socket, InputStream in, OutputStream out, String key, String text)
      throws IOException {
    try (socket) {
      if (key != null) {
        accept(out, key, null);
      }
      if (text != null) {
        out.write(Frames.encode(Frame.text(text), false, 0));
      }
      out.write(Frames.encode(Frame.close(1000, ""), false, 0));
      out.flush();
      socket.setSoTimeout(2000);
      FrameReader frames = new FrameReader(in, 1 << 20);
      WireFrame f;
      while ((f = frames.next()) != null && f.opcode() != Frame.CLOSE) {
        // skip what the client still sends before its close
      }
    } catch (IOException ignored) {
      // the client went away first: nothing to judge here
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // nothing left to do
    }
  }

  /**
   * Starts the server from the command line and serves until the process is stopped.
   *
   * @param args see the usage text ({@code --help})
   * @throws Exception when the address cannot be bound
   */
  public static void main(String[] args) throws Exception {
    int status = run(args, System.out, System.err);
    if (status != 0) {
      System.exit(status);
    }
  }

  /**
   * Starts the server from a command line and blocks while it serves.
   *
   * @param args the arguments
   * @param out where the address and each result go
   * @param err where usage errors go
   * @return 2 on a usage error, 0 after {@code --help}; otherwise does not return until
   *     interrupted
   * @throws IOException when the address cannot be bound
   * @throws InterruptedException when interrupted
   */
  static int run(String[] args, PrintStream out, PrintStream err)
      throws IOException, InterruptedException {
    Options options;
    try {
      Args a = Args.parse(args, Set.of("--port", "--host", "--cases", "--exclude", "--out",
          "--timeout-scale"), Set.of("--full", "--help"));
      if (a.flag("--help")) {
        out.println(USAGE);
        return 0;
      }
      options = new Options(a.get("--host", "127.0.0.1"), a.integer("--port", 9001),
          a.list("--cases"), a.list("--exclude"), a.flag("--full"),
          Path.of(a.get("--out", "target/conformance")),
          Settings.DEFAULTS.withTimeoutScale(a.decimal("--timeout-scale", 1.0)));
    } catch (Args.UsageException | IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      err.println(USAGE);
      return 2;
    }
    try (FuzzingServer server = start(options, r -> out.println(r.line()))) {
      out.println("fuzzing server on " + server.base() + " with " + server.cases().size()
          + " cases; reports under " + options.out().toAbsolutePath() + "/<agent>");
      new CountDownLatch(1).await();
    }
    return 0;
  }
}
