package dev.wsjava.bench.e2e;

import dev.wsjava.bench.peer.ResultLine;
import dev.wsjava.bench.peer.Workload;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The end-to-end suite: checks each target against the contract, then starts each target's echo
 * server in a process of its own pinned to CPU 0, drives it with the raw {@link LoadClient} (or
 * wrk, or the {@link ConnectClient}, or the client drivers of scenarios 8 and 10) pinned to CPU 1,
 * repeats every point {@code --runs} times with a fresh server each run, and writes {@code
 * docs/benchmarks/RESULTS.md} and the charts. A target that fails is reported failed, never
 * dropped.
 *
 * <p>Command line (through {@code ./bench e2e}): {@code --root DIR [--quick] [--targets a,b]
 * [--scenarios 1,2c,9] [--runs N] [--out DIR] [--check-only] [--server-cpus 0,1] [--clients a,b]
 * [--client-cpus 0,1]}: {@code --server-cpus} and {@code --client-cpus} pin the servers and the
 * clients to other CPU lists (default {@code 0} and {@code 1}), {@code --clients} runs only these
 * client drivers in scenarios 8 and 10; for the tuning measurements of
 * docs/benchmarks/TUNING.md, which also name targets and clients such as {@code
 * wsjava-nio+maxReadsPerEvent=4} (see {@link Peers#server}).
 */
public final class Suite {
  private static final int IDLE_CONNECTIONS = 10_000;

  private final boolean quick;
  private final long warmupMs;
  private final long measureMs;
  private final int wrkSeconds;
  private final String jcmd;
  final Results results = new Results();
  final Launcher launcher;
  /** Each target's contract check, and each client's TCP_NODELAY. */
  final Map<String, String> contract = new LinkedHashMap<>();
  /** The threads that did a target's work in the points that show them, by point. */
  final Map<String, Map<String, String>> busy = new LinkedHashMap<>();
  /** Minutes each scenario took, over all runs. */
  final Map<String, Double> minutes = new LinkedHashMap<>();

  private Suite(Path root, boolean quick, boolean pin) {
    this.quick = quick;
    // Every workload starts in fresh JVMs, where C2 is still compiling after 2 s on one core: 5 s
    // brings the client drivers of scenario 8 to steady state.
    this.warmupMs = quick ? 500 : 5000;
    this.measureMs = quick ? 1500 : 3000;
    this.wrkSeconds = quick ? 3 : 10;
    this.launcher = new Launcher(root, pin, results);
    this.jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
  }

  long warmupMs() {
    return warmupMs;
  }

  long measureMs() {
    return measureMs;
  }

  boolean quick() {
    return quick;
  }

  int wrkSeconds() {
    return wrkSeconds;
  }

  /**
   * Runs the suite.
   *
   * @param args see the class comment
   * @throws Exception when the report cannot be written
   */
  public static void main(String[] args) throws Exception {
    Path root = Path.of(".");
    Path out = null;
    boolean quick = false;
    boolean checkOnly = false;
    int runs = -1;
    String serverCpus = "0";
    String clientCpus = "1";
    List<String> clientNames = Peers.CLIENTS.stream().map(Peers.Client::name).toList();
    List<String> targets = Peers.SERVERS.stream().map(Peers.Server::name).toList();
    Set<String> scenarios = new LinkedHashSet<>(Scenarios.ALL.stream().map(Scenarios.Scenario::id).toList());
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--root" -> root = Path.of(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        case "--quick" -> quick = true;
        case "--check-only" -> checkOnly = true;
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--targets" -> targets = List.of(args[++i].split(","));
        case "--scenarios" -> scenarios = new LinkedHashSet<>(List.of(args[++i].split(",")));
        case "--server-cpus" -> serverCpus = args[++i];
        case "--client-cpus" -> clientCpus = args[++i];
        case "--clients" -> clientNames = List.of(args[++i].split(","));
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + "; usage: ./bench e2e [--quick] [--targets a,b] [--scenarios 1,2c] [--runs N]"
            + " [--check-only] [--server-cpus 0,1] [--clients a,b] [--client-cpus 0,1]");
      }
    }
    targets.forEach(Peers::server);
    clientNames.forEach(Peers::client);
    scenarios.forEach(Scenarios::byId);
    if (runs < 1) {
      runs = quick ? 1 : 3;
    }
    root = root.toAbsolutePath().normalize();
    boolean pin = MachineInfo.firstLine(List.of("taskset", "-c", "0", "true")) != null;
    Suite suite = new Suite(root, quick, pin);
    suite.launcher.serverCpus = serverCpus;
    suite.launcher.clientCpus = clientCpus;
    // The build the figures belong to, taken before the run: files edited meanwhile don't count.
    String commit = MachineInfo.firstLine(
        List.of("git", "-C", root.toString(), "describe", "--always", "--dirty"));
    long start = System.nanoTime();
    try {
      suite.checkContracts(targets);
      if (checkOnly) {
        suite.contract.forEach((t, v) -> suite.log(t + ": " + v));
        return;
      }
      for (int r = 1; r <= runs; r++) {
        suite.results.startRun(r);
        suite.log("run " + r + " of " + runs);
        suite.serverPoints(order(targets, r).stream().map(Peers::server).toList(), scenarios);
        ClientPoints clients = new ClientPoints(suite);
        List<String> clientOrder = order(clientNames, r);
        suite.timed("8", scenarios, () -> clients.scenario8(clientOrder));
        suite.timed("10", scenarios, () -> clients.scenario10(clientOrder));
      }
    } finally {
      suite.launcher.closeLan();
    }
    double total = (System.nanoTime() - start) / 60e9;
    List<Path> files = Report.write(out == null ? root.resolve("docs/benchmarks") : out,
        Method.context(suite, String.join(" ", args), commit, runs, total, targets, scenarios),
        suite.results);
    suite.log(String.format(Locale.ROOT, "done in %.1f min; wrote %s", total, files));
  }

  /**
   * The targets in the order run {@code run} (from 1) measures them: each run starts one target
   * further on, so that no target always has the same place in a run. This machine's neighbours
   * come and go over minutes, and a fixed order would hand one target the same stretch of their
   * load every run.
   */
  static List<String> order(List<String> targets, int run) {
    List<String> out = new ArrayList<>(targets);
    java.util.Collections.rotate(out, -((run - 1) % Math.max(1, targets.size())));
    return out;
  }

  /** Runs a scenario's points if it was asked for, adding the minutes it took to its total. */
  void timed(String scenario, Set<String> scenarios, Runnable points) {
    if (!scenarios.contains(scenario)) {
      return;
    }
    long t0 = System.nanoTime();
    points.run();
    minutes.merge(scenario, (System.nanoTime() - t0) / 60e9, Double::sum);
  }

  // ---- the contract ----

  /** Checks every target once, in a fresh plain start, before anything is measured. */
  private void checkContracts(List<String> targets) {
    Path probe = SocketProbe.script(launcher.root());
    for (String t : targets) {
      Peers.Server s = Peers.server(t);
      log("contract check: " + t);
      try (Launcher.Started server = launcher.startServer(s, Launcher.Mode.PLAIN, "contract")) {
        contract.put(t, Contract.check(probe, server.host(), server.port(), server.process().pid()).text());
      } catch (IOException e) {
        contract.put(t, "**did not start: " + e.getMessage() + "**");
      }
    }
  }

  // ---- echo points ----

  /** A point of the raw load client: a scenario, a workload, how the server starts. */
  private record Point(String scenario, Workload workload, Launcher.Mode mode) {}

  /**
   * One run of the server scenarios, point by point: every target takes a point before the next
   * point starts, so that the figures a ratio compares were measured a few minutes apart, not a
   * whole run apart (the neighbours on this host come and go over minutes).
   */
  private void serverPoints(List<Peers.Server> servers, Set<String> scenarios) {
    echoPoints(servers, scenarios, List.of(
        new Point("1", Workload.LATENCY, Launcher.Mode.PLAIN),
        new Point("2", Workload.SMALL, Launcher.Mode.PLAIN),
        new Point("2", Workload.SMALL_DEEP, Launcher.Mode.PLAIN),
        new Point("2", Workload.SMALL_FLOOD, Launcher.Mode.PLAIN),
        new Point("2c", Workload.SMALL, Launcher.Mode.ONE_LOOP),
        new Point("3", Workload.LARGE_64K, Launcher.Mode.PLAIN),
        new Point("3", Workload.LARGE_1M, Launcher.Mode.PLAIN),
        new Point("4", Workload.MANY, Launcher.Mode.PLAIN),
        new Point("4c", Workload.MANY, Launcher.Mode.ONE_LOOP)));
    timed("7", scenarios, () -> servers.forEach(this::http));
    timed("5", scenarios, () -> servers.forEach(this::idle));
    echoPoints(servers, scenarios, List.of(new Point("6", Workload.DEFLATE, Launcher.Mode.DEFLATE)));
    timed("9", scenarios, () -> {
      for (boolean tls : new boolean[] {false, true}) {
        log("scenario 9, connect " + (tls ? "wss" : "ws"));
        servers.stream().filter(s -> s.runsIn("9")).forEach(s -> connects(s, tls));
      }
    });
    timed("11", scenarios, () -> servers.forEach(this::fanOut));
    echoPoints(servers, scenarios, List.of(
        new Point("1n", Workload.LATENCY, Launcher.Mode.LAN),
        new Point("2n", Workload.SMALL, Launcher.Mode.LAN),
        // 64 KiB only: at the link's rate both sizes measure the link; 1 MiB would add 11 points.
        new Point("3n", Workload.LARGE_64K, Launcher.Mode.LAN)));
  }

  private void echoPoints(List<Peers.Server> servers, Set<String> scenarios, List<Point> points) {
    // A fresh server (and load client) for every workload, as JMH forks per benchmark: code the
    // JIT compiled for the workload before would otherwise be thrown away (deoptimized) and
    // recompiled inside the next one's measured interval, so a figure would depend on the order.
    for (Point p : points) {
      timed(p.scenario(), scenarios, () -> {
        List<Peers.Server> taking = servers.stream().filter(s -> takesPart(s, p)).toList();
        log("scenario " + p.scenario() + ", " + p.workload().id() + ": "
            + String.join(", ", taking.stream().map(Peers.Server::name).toList()));
        if (p.mode().lan()) {
          try {
            launcher.lan();
          } catch (IOException e) {
            taking.forEach(s -> results.fail(p.scenario(), s.name(), "no simulated LAN: " + e.getMessage()));
            return;
          }
        }
        taking.forEach(s -> echoPoint(s, p));
      });
    }
  }

  private static boolean takesPart(Peers.Server s, Point p) {
    if (!s.runsIn(p.scenario())) {
      return false;
    }
    if (p.mode().oneLoop()) {
      return s.jvm(); // Node, Bun, Beast and gorilla run one loop on one core already
    }
    return !p.mode().deflate() || s.deflate();
  }

  /** One target's point: a fresh server and load client. */
  private void echoPoint(Peers.Server s, Point p) {
    Workload w = p.workload();
    try (Launcher.Started server = launcher.startServer(s, p.mode(), "s" + p.scenario() + "-" + w.id())) {
      if (!p.mode().equals(Launcher.Mode.PLAIN) && !p.mode().lan()) {
        results.note(p.scenario(), s.name(), "runs as: " + server.detail());
      }
      List<String> cmd = launcher.pinned(1, launcher.jvm(null, LoadClient.class.getName(), List.of(
          "--host", server.host(), "--port", Integer.toString(server.port()),
          "--workloads", w.id(), "--warmup-ms", Long.toString(warmupMs),
          "--measure-ms", Long.toString(measureMs),
          "--server-pid", Long.toString(server.process().pid()))));
      if (p.mode().lan()) {
        cmd = launcher.lan().client(cmd);
      }
      Map<String, String> r = resultOf(launcher.runClient(cmd, s.name() + "-s" + p.scenario() + "-"
          + w.id() + "-client", budget(1)), w.id(), p.scenario(), s.name());
      if (r != null) {
        fileEcho(p.scenario(), s.name(), w, r);
      }
    } catch (IOException e) {
      results.fail(p.scenario(), s.name(), w.id() + ": " + e.getMessage());
    }
  }

  /**
   * Files a load client's result under a scenario's metric keys: each side's CPU per echo (or
   * per MB for large messages, in ms), and the threads that did the server's work.
   */
  void fileEcho(String sc, String target, Workload w, Map<String, String> r) {
    switch (w.id()) {
      case "latency" -> {
        for (String k : List.of("p50_us", "p99_us", "p999_us")) {
          results.add(sc, target, k, num(r, k));
        }
        cpu(sc, target, r, "cpu_us_per_msg", "client_cpu_us_per_msg", 1);
      }
      case "small", "many" -> {
        results.add(sc, target, "msgs_per_s", num(r, "msgs_per_s"));
        results.add(sc, target, "p99_us", num(r, "p99_us"));
        cpu(sc, target, r, "cpu_us_per_msg", "client_cpu_us_per_msg", 1);
      }
      case "small256" -> {
        results.add(sc, target, "msgs_256_per_s", num(r, "msgs_per_s"));
        cpu(sc, target, r, "cpu_256_us_per_msg", "client_cpu_256_us_per_msg", 1);
      }
      case "smallflood" -> {
        results.add(sc, target, "msgs_flood_per_s", num(r, "msgs_per_s"));
        cpu(sc, target, r, "cpu_flood_us_per_msg", "client_cpu_flood_us_per_msg", 1);
      }
      case "large64k", "large1m" -> {
        String size = w.id().equals("large64k") ? "64k" : "1m";
        results.add(sc, target, "mb_" + size, num(r, "mb_per_s"));
        cpu(sc, target, r, "cpu_" + size + "_ms_per_mb", "client_cpu_" + size + "_ms_per_mb",
            1000 * w.size() / 1e6);
      }
      case "deflate" -> {
        results.add(sc, target, "msgs_per_s", num(r, "msgs_per_s"));
        results.add(sc, target, "wire_down_per_msg", num(r, "wire_down_per_msg"));
        results.add(sc, target, "wire_up_per_msg", num(r, "wire_up_per_msg"));
        results.add(sc, target, "ratio", w.size() / num(r, "wire_down_per_msg"));
        cpu(sc, target, r, "cpu_us_per_msg", "client_cpu_us_per_msg", 1);
      }
      default -> throw new IllegalStateException(w.id());
    }
    if (r.containsKey("server_threads")) {
      busy.computeIfAbsent(target, t -> new LinkedHashMap<>()).put(sc + " " + w.id(), r.get("server_threads"));
      if (sc.endsWith("c")) { // the one-loop variants: show what ran beside the figures
        results.note(sc, target, "threads that worked: " + Format.threads(r.get("server_threads")));
      }
    }
  }

  /** Files both sides' CPU per unit: the per-echo microseconds divided by {@code per}. */
  private void cpu(String sc, String target, Map<String, String> r, String serverKey, String clientKey,
      double per) {
    if (r.containsKey("server_cpu_us_per_msg")) {
      results.add(sc, target, serverKey, num(r, "server_cpu_us_per_msg") / per);
    }
    if (r.containsKey("client_cpu_us_per_msg")) {
      results.add(sc, target, clientKey, num(r, "client_cpu_us_per_msg") / per);
    }
  }

  // ---- scenario 5 ----

  private void idle(Peers.Server s) {
    log(s.name() + ": scenario 5 (" + IDLE_CONNECTIONS + " idle connections)");
    try (Launcher.Started server = launcher.startServer(s, Launcher.Mode.PLAIN, "idle")) {
      Thread.sleep(1000);
      long heap0 = s.jvm() ? server.process().heapAfterFullGcKib(jcmd) : 0;
      long rss0 = server.process().rssKib();
      List<String> cmd = launcher.pinned(1, launcher.jvm(null, LoadClient.class.getName(), List.of(
          "--port", Integer.toString(server.port()), "--idle", Integer.toString(IDLE_CONNECTIONS))));
      try (ServerProcess client = launcher.startClient(cmd, s.name() + "-idle-client")) {
        String line = client.await(Duration.ofSeconds(180), "RESULT", "ERROR");
        Map<String, String> r = ResultLine.parse(line);
        if (r == null) {
          results.fail("5", s.name(), line.replaceFirst("^ERROR workload=idle ", ""));
          return;
        }
        int n = Integer.parseInt(r.get("connections"));
        Thread.sleep(1000);
        long heap1 = s.jvm() ? server.process().heapAfterFullGcKib(jcmd) : 0;
        long rss1 = server.process().rssKib();
        results.add("5", s.name(), "rss_kib_per_conn", (rss1 - rss0) / (double) n);
        if (s.jvm()) {
          results.add("5", s.name(), "heap_kib_per_conn", (heap1 - heap0) / (double) n);
        } else {
          results.note("5", s.name(), "no JVM heap: RSS only");
        }
        client.closeStdin();
        client.waitFor(Duration.ofSeconds(20));
      }
    } catch (IOException e) {
      results.fail("5", s.name(), e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      results.fail("5", s.name(), "interrupted");
    }
  }

  // ---- scenario 11 ----

  /** The FanOutBench server of each target that has one: its topics, ChannelGroup, event bus. */
  private static final Map<String, String> FAN_OUT_SERVERS =
      Map.of("wsjava-nio", "wsjava", "netty", "netty", "vertx", "vertx");

  /** FanOutBench's result line (see its class comment); its thousands separators are commas. */
  private static final Pattern FAN_OUT_LINE = Pattern.compile("fanout \\S+\\s+subscribers=(\\d+)"
      + " messages=\\d+ size=\\d+: ([\\d,]+) deliveries/s, latency p50 ([\\d.]+) us p99 ([\\d.]+) us,"
      + " server CPU (\\d+) ns/delivery \\([\\d.]+ cores\\), client CPU (\\d+) ns/delivery,"
      + " heap (-?[\\d,]+) B/subscriber, connected and subscribed in ([\\d.]+) s");

  private void fanOut(Peers.Server s) {
    String server = FAN_OUT_SERVERS.get(s.name());
    if (server == null || !s.runsIn("11")) {
      return;
    }
    int subscribers = quick ? 2_000 : 10_000;
    int messages = quick ? 100 : 300;
    log("scenario 11: " + s.name() + ", " + subscribers + " subscribers");
    try {
      List<String> cmd = launcher.jvm(null, "dev.wsjava.bench.FanOutBench",
          List.of(server, Integer.toString(subscribers), Integer.toString(messages)));
      try (ServerProcess bench = launcher.startClient(cmd, s.name() + "-fanout")) {
        String line = bench.await(Duration.ofMinutes(6), "fanout ");
        Matcher m = FAN_OUT_LINE.matcher(line);
        if (!m.find() || Integer.parseInt(m.group(1)) != subscribers) {
          results.fail("11", s.name(), "unexpected result line: " + line);
          return;
        }
        results.add("11", s.name(), "deliveries_per_s", number(m.group(2)));
        results.add("11", s.name(), "fan_p50_ms", Double.parseDouble(m.group(3)) / 1000);
        results.add("11", s.name(), "fan_p99_ms", Double.parseDouble(m.group(4)) / 1000);
        results.add("11", s.name(), "server_ns_per_delivery", Double.parseDouble(m.group(5)));
        results.add("11", s.name(), "client_ns_per_delivery", Double.parseDouble(m.group(6)));
        results.add("11", s.name(), "heap_b_per_subscriber", number(m.group(7)));
        results.add("11", s.name(), "subscribed_s", Double.parseDouble(m.group(8)));
        bench.waitFor(Duration.ofSeconds(60));
      }
    } catch (IOException e) {
      results.fail("11", s.name(), e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      results.fail("11", s.name(), "interrupted");
    }
  }

  private static double number(String withCommas) {
    return Double.parseDouble(withCommas.replace(",", ""));
  }

  // ---- scenario 7 ----

  private void http(Peers.Server s) {
    if (!s.runsIn("7")) {
      return;
    }
    if (!s.http()) {
      results.note("7", s.name(), "serves WebSocket only: no plain HTTP route");
      return;
    }
    log("scenario 7: " + s.name());
    try (Launcher.Started server = launcher.startServer(s, Launcher.Mode.PLAIN, "http")) {
      wrk(s.name(), server);
    } catch (IOException e) {
      results.fail("7", s.name(), "did not start: " + e.getMessage());
    }
  }

  private void wrk(String target, Launcher.Started server) {
    String url = "http://127.0.0.1:" + server.port() + "/";
    // HTTP/1.1 without an h2c upgrade offer: Node's server hands any Upgrade request to ws (400).
    try (HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
      HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(url))
          .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
      String type = res.headers().firstValue("content-type").orElse("");
      if (res.statusCode() != 200 || !res.body().equals("hello") || !type.startsWith("text/plain")) {
        results.fail("7", target, "GET / answered " + res.statusCode() + " " + type + " \""
            + res.body() + "\"");
        return;
      }
      runWrk(url, Math.min(2, wrkSeconds), target + "-wrk-warmup");
      long cpuStart = dev.wsjava.bench.peer.CpuTime.micros(server.process().pid());
      String out = runWrk(url, wrkSeconds, target + "-wrk");
      long cpuEnd = dev.wsjava.bench.peer.CpuTime.micros(server.process().pid());
      WrkOutput w = WrkOutput.parse(out);
      String problem = w.problem();
      if (problem != null) {
        results.fail("7", target, problem);
        return;
      }
      results.add("7", target, "req_per_s", w.requestsPerSecond());
      results.add("7", target, "latency_avg_us", w.latencyAvgMicros());
      if (cpuStart >= 0 && cpuEnd >= 0 && w.requests() > 0) {
        results.add("7", target, "cpu_us_per_msg", (cpuEnd - cpuStart) / (double) w.requests());
      }
      long wrkCpu = childrenCpuMicros(out);
      if (wrkCpu >= 0 && w.requests() > 0) {
        results.add("7", target, "client_cpu_us_per_msg", wrkCpu / (double) w.requests());
      }
      if (w.socketErrors() > 0) {
        results.note("7", target, "run " + results.run() + ": " + w.socketErrors() + " socket errors");
      }
    } catch (IOException | IllegalArgumentException e) {
      results.fail("7", target, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      results.fail("7", target, "interrupted");
    }
  }

  /** wrk under a shell whose {@code times} then prints the CPU time wrk used. */
  private String runWrk(String url, int seconds, String name) throws IOException {
    List<String> cmd = launcher.pinned(1, List.of("bash", "-c", "wrk \"$@\" && times", "wrk",
        "-t2", "-c100", "-d" + seconds + "s", url));
    try (ServerProcess wrk = launcher.startClient(cmd, name)) {
      return String.join("\n", wrk.linesUntilExit(Duration.ofSeconds(seconds + 30L), ""));
    }
  }

  private static final Pattern TIMES = Pattern.compile("(?m)^(\\d+)m([0-9.]+)s (\\d+)m([0-9.]+)s$");

  /**
   * Reads the CPU time of a shell's children from its {@code times} output (the second line:
   * children's user and system time).
   *
   * @param out the shell's output
   * @return microseconds, or -1 when there is no such line
   */
  static long childrenCpuMicros(String out) {
    Matcher m = TIMES.matcher(out);
    if (!m.find() || !m.find()) {
      return -1;
    }
    double seconds = Integer.parseInt(m.group(1)) * 60 + Double.parseDouble(m.group(2))
        + Integer.parseInt(m.group(3)) * 60 + Double.parseDouble(m.group(4));
    return Math.round(seconds * 1e6);
  }

  // ---- scenario 9 ----

  private void connects(Peers.Server s, boolean tls) {
    String id = tls ? "connect_tls" : "connect";
    try (Launcher.Started server = launcher.startServer(s, tls ? Launcher.Mode.TLS : Launcher.Mode.PLAIN,
        "s9-" + id)) {
      if (tls) {
        results.note("9", s.name(), "runs as: " + server.detail());
      }
      List<String> args = new ArrayList<>(List.of("--port", Integer.toString(server.port()),
          "--warmup-ms", Long.toString(connectWarmupMs(tls)), "--measure-ms", Long.toString(measureMs),
          "--server-pid", Long.toString(server.process().pid())));
      if (tls) {
        args.addAll(List.of("--trust", launcher.trustStore().toString()));
      }
      List<String> cmd = launcher.pinned(1, launcher.jvm(null, ConnectClient.class.getName(), args));
      Map<String, String> r = resultOf(launcher.runClient(cmd, s.name() + "-s9-" + id + "-client",
          budget(2)), id, "9", s.name());
      if (r != null) {
        fileConnect("9", s.name(), tls, r);
        results.note("9", s.name(), (tls ? "wss" : "ws") + ": threads that worked: "
            + Format.threads(r.get("server_threads")));
      }
    } catch (IOException e) {
      results.fail("9", s.name(), id + ": " + e.getMessage());
    }
  }

  /** Files a connect result (scenarios 9 and 10). */
  void fileConnect(String sc, String target, boolean tls, Map<String, String> r) {
    String p = tls ? "tls_" : "";
    results.add(sc, target, p + "conns_per_s", num(r, "conns_per_s"));
    results.add(sc, target, tls ? "tls_p50_us" : "conn_p50_us", num(r, "p50_us"));
    results.add(sc, target, tls ? "tls_p99_us" : "conn_p99_us", num(r, "p99_us"));
    if (r.containsKey("server_cpu_us_per_conn")) {
      results.add(sc, target, "cpu_" + p + "us_per_conn", num(r, "server_cpu_us_per_conn"));
    }
    if (r.containsKey("client_cpu_us_per_conn")) {
      results.add(sc, target, "client_cpu_" + p + "us_per_conn", num(r, "client_cpu_us_per_conn"));
    }
  }

  /**
   * The warm-up of a connect point: twice the usual for wss, as a JVM's JIT still compiles the
   * JDK's TLS code (its compiler threads took 40 % of a JVM server's CPU) after 5 s of full
   * handshakes at under 100 a second.
   */
  long connectWarmupMs(boolean tls) {
    return tls && !quick ? 2 * warmupMs : warmupMs;
  }

  // ---- plumbing ----

  /** How long a client process of {@code workloads} points may run. */
  Duration budget(int workloads) {
    return Duration.ofMillis(60_000 + workloads * (warmupMs + measureMs + 40_000));
  }

  /**
   * Picks a workload's result from a client's lines, filing its error as a failure.
   *
   * @return the result's fields, or {@code null} when it failed
   */
  Map<String, String> resultOf(List<String> lines, String id, String scenario, String target) {
    for (String line : lines) {
      Map<String, String> r = ResultLine.parse(line);
      if (r != null && id.equals(r.get("workload"))) {
        return r;
      }
      if (line.startsWith(ResultLine.ERROR + " workload=" + id)) {
        results.fail(scenario, target, id + ": "
            + line.substring((ResultLine.ERROR + " workload=" + id).length()).strip());
        return null;
      }
    }
    results.fail(scenario, target, id + ": no result");
    return null;
  }

  static double num(Map<String, String> r, String key) {
    String v = r.get(key);
    if (v == null) {
      throw new IllegalStateException("result line without " + key + ": " + r);
    }
    return Double.parseDouble(v);
  }

  void log(String what) {
    System.err.println("[e2e] " + what);
  }
}
