package dev.wsjava.bench.e2e;

import dev.wsjava.bench.peer.ResultLine;
import dev.wsjava.bench.peer.Workload;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The end-to-end suite: starts each target's echo server in a process of its own pinned to CPU 0,
 * drives it with the raw {@link LoadClient} (or wrk, or scenario 8's client drivers) pinned to CPU
 * 1, repeats every point {@code --runs} times with a fresh server each run, and writes {@code
 * docs/benchmarks/RESULTS.md} and the charts. A target that fails is reported failed, never
 * dropped.
 *
 * <p>Command line (through {@code ./bench e2e}): {@code --root DIR [--quick] [--targets a,b]
 * [--scenarios 1,2] [--runs N] [--out DIR]}.
 */
public final class Suite {
  /** Flags of every JVM process, servers and clients alike. */
  static final List<String> JVM_FLAGS = List.of("-Xms1g", "-Xmx1g", "-XX:+UseParallelGC");
  private static final int IDLE_CONNECTIONS = 10_000;
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final Path root;
  private final Path logs;
  private final boolean quick;
  private final long warmupMs;
  private final long measureMs;
  private final int wrkSeconds;
  private final boolean pin;
  private final String jcmd;
  private final Results results = new Results();
  private final Map<String, String> targetNotes = new LinkedHashMap<>();

  private Suite(Path root, boolean quick, boolean pin) {
    this.root = root;
    this.logs = root.resolve("wsjava-bench/target/e2e-logs");
    this.quick = quick;
    // Every workload starts in fresh JVMs (see target()), where C2 is still compiling after 2 s
    // on one core: 5 s brings the client drivers of scenario 8 to steady state.
    this.warmupMs = quick ? 500 : 5000;
    this.measureMs = quick ? 1500 : 3000;
    this.wrkSeconds = quick ? 3 : 10;
    this.pin = pin;
    this.jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
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
    int runs = -1;
    List<String> targets = Peers.SERVERS.stream().map(Peers.Server::name).toList();
    Set<String> scenarios = new LinkedHashSet<>(List.of("1", "2", "3", "4", "5", "6", "7", "8"));
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--root" -> root = Path.of(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        case "--quick" -> quick = true;
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--targets" -> targets = List.of(args[++i].split(","));
        case "--scenarios" -> scenarios = new LinkedHashSet<>(List.of(args[++i].split(",")));
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + "; usage: ./bench e2e [--quick] [--targets a,b] [--scenarios 1,2] [--runs N]");
      }
    }
    targets.forEach(Peers::server);
    scenarios.forEach(Scenarios::byId);
    if (runs < 1) {
      runs = quick ? 1 : 3;
    }
    root = root.toAbsolutePath().normalize();
    boolean pin = MachineInfo.firstLine(List.of("taskset", "-c", "0", "true")) != null;
    Suite suite = new Suite(root, quick, pin);
    // The build the figures belong to, taken before the run: files edited meanwhile don't count.
    String commit = MachineInfo.firstLine(
        List.of("git", "-C", root.toString(), "describe", "--always", "--dirty"));
    long start = System.nanoTime();
    for (int r = 1; r <= runs; r++) {
      suite.results.startRun(r);
      suite.log("run " + r + " of " + runs);
      suite.serverPoints(order(targets, r).stream().map(Peers::server).toList(), scenarios);
      if (scenarios.contains("8")) {
        suite.clients(order(Peers.CLIENTS.stream().map(Peers.Client::name).toList(), r));
      }
    }
    double minutes = (System.nanoTime() - start) / 60e9;
    List<Path> files = Report.write(out == null ? root.resolve("docs/benchmarks") : out,
        suite.context(String.join(" ", args), commit, runs, minutes, targets, scenarios),
        suite.results);
    suite.log(String.format(java.util.Locale.ROOT, "done in %.1f min; wrote %s", minutes, files));
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

  // ---- scenarios 1-7, point by point ----

  /**
   * One run of scenarios 1-7, point by point: every target takes a point before the next point
   * starts, so that the figures a ratio compares were measured a few minutes apart, not a whole
   * run apart (the neighbours on this host come and go over minutes).
   */
  private void serverPoints(List<Peers.Server> servers, Set<String> scenarios) {
    Map<Workload, String> scenarioOf = new LinkedHashMap<>();
    if (scenarios.contains("1")) {
      scenarioOf.put(Workload.LATENCY, "1");
    }
    if (scenarios.contains("2")) {
      scenarioOf.put(Workload.SMALL, "2");
      scenarioOf.put(Workload.SMALL_DEEP, "2");
    }
    if (scenarios.contains("3")) {
      scenarioOf.put(Workload.LARGE_64K, "3");
      scenarioOf.put(Workload.LARGE_1M, "3");
    }
    if (scenarios.contains("4")) {
      scenarioOf.put(Workload.MANY, "4");
    }
    String names = String.join(", ", servers.stream().map(Peers.Server::name).toList());
    // A fresh server (and load client) for every workload, as JMH forks per benchmark: code the
    // JIT compiled for the workload before would otherwise be thrown away (deoptimized) and
    // recompiled inside the next one's measured interval, so a figure would depend on the order.
    scenarioOf.forEach((w, sc) -> {
      log("scenario " + sc + ", " + w.id() + ": " + names);
      servers.forEach(s -> echoPoint(s, w, sc));
    });
    if (scenarios.contains("7")) {
      log("scenario 7: " + names);
      for (Peers.Server s : servers) {
        if (!s.http()) {
          results.note("7", s.name(), "serves WebSocket only: no plain HTTP route");
          continue;
        }
        try (Started server = startServer(s, false, "http")) {
          wrk(s.name(), server);
        } catch (IOException e) {
          results.fail("7", s.name(), "did not start: " + e.getMessage());
        }
      }
    }
    if (scenarios.contains("5")) {
      servers.forEach(this::idle);
    }
    if (scenarios.contains("6")) {
      log("scenario 6: " + names);
      for (Peers.Server s : servers) {
        if (!s.deflate()) {
          results.note("6", s.name(), "no permessage-deflate in this library");
          continue;
        }
        echoPoint(s, Workload.DEFLATE, "6");
      }
    }
  }

  /** One target's point of an echo workload: a fresh server and load client. */
  private void echoPoint(Peers.Server s, Workload w, String scenario) {
    boolean deflate = w == Workload.DEFLATE;
    try (Started server = startServer(s, deflate, deflate ? "deflate" : "echo-" + w.id())) {
      loadClient(s.name(), server, List.of(w), Map.of(w, scenario));
    } catch (IOException e) {
      results.fail(scenario, s.name(), w.id() + ": did not start: " + e.getMessage());
    }
  }

  /** A started server and the port it listens on. */
  private record Started(ServerProcess process, int port) implements AutoCloseable {
    @Override
    public void close() {
      process.close();
    }
  }

  private Started startServer(Peers.Server s, boolean deflate, String what) throws IOException {
    int port = freePort();
    List<String> cmd = pinned(0, Peers.command(root, s, JVM_FLAGS, port, deflate));
    ServerProcess p = ServerProcess.start(cmd, logFile(s.name() + "-" + what));
    try {
      String ready = p.await(START_TIMEOUT, "READY ");
      String detail = ready.substring("READY ".length()).replaceFirst("^\\d+\\s*", "");
      if (!detail.isEmpty()) {
        targetNotes.put(s.name(), detail);
      }
      return new Started(p, port);
    } catch (IOException e) {
      p.close();
      throw e;
    }
  }

  /** Runs the raw load client's workloads against a server and files the figures. */
  private void loadClient(String target, Started server, List<Workload> ws,
      Map<Workload, String> scenarioOf) {
    int port = server.port();
    List<String> ids = ws.stream().map(Workload::id).toList();
    List<String> cmd = new ArrayList<>();
    cmd.add(Peers.javaBinary());
    cmd.addAll(JVM_FLAGS);
    try {
      cmd.add("-cp");
      cmd.add(Peers.classpath(root, null));
      cmd.add(LoadClient.class.getName());
      cmd.addAll(List.of("--port", Integer.toString(port), "--workloads", String.join(",", ids),
          "--warmup-ms", Long.toString(warmupMs), "--measure-ms", Long.toString(measureMs),
          "--server-pid", Long.toString(server.process().pid())));
      List<String> lines = runClient(pinned(1, cmd), target + "-client", ws.size());
      Map<String, Map<String, String>> byWorkload = new LinkedHashMap<>();
      Map<String, String> errors = new LinkedHashMap<>();
      parseLines(lines, byWorkload, errors);
      for (Workload w : ws) {
        String sc = scenarioOf.get(w);
        Map<String, String> r = byWorkload.get(w.id());
        if (r == null) {
          results.fail(sc, target, w.id() + ": " + errors.getOrDefault(w.id(), "no result"));
          continue;
        }
        fileServerResult(sc, target, w, r);
      }
    } catch (IOException e) {
      scenarioOf.values().forEach(sc -> results.fail(sc, target, "load client: " + e.getMessage()));
    }
  }

  private void fileServerResult(String sc, String target, Workload w, Map<String, String> r) {
    switch (w.id()) {
      case "latency" -> {
        for (String k : List.of("p50_us", "p99_us", "p999_us")) {
          results.add(sc, target, k, num(r, k));
        }
      }
      case "small", "many" -> {
        results.add(sc, target, "msgs_per_s", num(r, "msgs_per_s"));
        results.add(sc, target, "p99_us", num(r, "p99_us"));
        if (r.containsKey("server_cpu_us_per_msg")) {
          results.add(sc, target, "cpu_us_per_msg", num(r, "server_cpu_us_per_msg"));
        }
      }
      case "small256" -> {
        results.add(sc, target, "msgs_256_per_s", num(r, "msgs_per_s"));
        if (r.containsKey("server_cpu_us_per_msg")) {
          results.add(sc, target, "cpu_256_us_per_msg", num(r, "server_cpu_us_per_msg"));
        }
      }
      case "large64k" -> results.add(sc, target, "mb_64k", num(r, "mb_per_s"));
      case "large1m" -> results.add(sc, target, "mb_1m", num(r, "mb_per_s"));
      case "deflate" -> {
        results.add(sc, target, "msgs_per_s", num(r, "msgs_per_s"));
        results.add(sc, target, "wire_down_per_msg", num(r, "wire_down_per_msg"));
        results.add(sc, target, "wire_up_per_msg", num(r, "wire_up_per_msg"));
      }
      default -> throw new IllegalStateException(w.id());
    }
  }

  // ---- scenario 5 ----

  private void idle(Peers.Server s) {
    log(s.name() + ": scenario 5 (" + IDLE_CONNECTIONS + " idle connections)");
    try (Started server = startServer(s, false, "idle")) {
      int port = server.port();
      Thread.sleep(1000);
      long heap0 = s.jvm() ? server.process().heapAfterFullGcKib(jcmd) : 0;
      long rss0 = server.process().rssKib();
      List<String> cmd = new ArrayList<>();
      cmd.add(Peers.javaBinary());
      cmd.addAll(JVM_FLAGS);
      cmd.addAll(List.of("-cp", Peers.classpath(root, null), LoadClient.class.getName(), "--port",
          Integer.toString(port), "--idle", Integer.toString(IDLE_CONNECTIONS)));
      try (ServerProcess client = ServerProcess.start(pinned(1, cmd),
          logFile(s.name() + "-idle-client"))) {
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

  // ---- scenario 7 ----

  private void wrk(String target, Started server) {
    int port = server.port();
    String url = "http://127.0.0.1:" + port + "/";
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
      long cpuStart = CpuTime.micros(server.process().pid());
      WrkOutput w = WrkOutput.parse(runWrk(url, wrkSeconds, target + "-wrk"));
      long cpuEnd = CpuTime.micros(server.process().pid());
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

  private String runWrk(String url, int seconds, String name) throws IOException {
    List<String> cmd = pinned(1, List.of("wrk", "-t2", "-c100", "-d" + seconds + "s", url));
    try (ServerProcess wrk = ServerProcess.start(cmd, logFile(name))) {
      return String.join("\n", wrk.linesUntilExit(Duration.ofSeconds(seconds + 30L), ""));
    }
  }

  // ---- scenario 8 ----

  /**
   * Scenario 8, point by point like scenarios 1-7: every client takes a workload, each against a
   * fresh fixed server, before the next workload starts, so that the figures a ratio compares were
   * measured minutes apart rather than a whole client's turn apart.
   *
   * @param clients the client drivers, in this run's order
   */
  private void clients(List<String> clients) {
    Peers.Server fixed = Peers.server("netty");
    log("scenario 8: client drivers against " + fixed.name() + ": " + String.join(", ", clients));
    for (Workload w : List.of(Workload.LATENCY, Workload.SMALL, Workload.LARGE_64K, Workload.LARGE_1M)) {
      for (String name : clients) {
        Peers.Client c = Peers.CLIENTS.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
        results.cell("8", c.name());
        try (Started server = startServer(fixed, false, "scenario8-" + c.name() + "-" + w.id())) {
          List<String> cmd = new ArrayList<>();
          cmd.add(Peers.javaBinary());
          cmd.addAll(JVM_FLAGS);
          cmd.addAll(List.of("-cp", Peers.classpath(root, c.module()), c.mainClass()));
          cmd.addAll(c.preArgs());
          if (c.module() == null) {
            cmd.addAll(List.of("--port", Integer.toString(server.port())));
          } else {
            cmd.addAll(List.of("--url", "ws://127.0.0.1:" + server.port() + "/echo"));
          }
          cmd.addAll(List.of("--workloads", w.id(), "--warmup-ms", Long.toString(warmupMs),
              "--measure-ms", Long.toString(measureMs)));
          fileClient(c.name(), w, runClient(pinned(1, cmd), "client-" + c.name() + "-" + w.id(), 1));
        } catch (IOException e) {
          results.fail("8", c.name(), w.id() + ": " + e.getMessage());
        }
      }
    }
  }

  /** Files one client's point of scenario 8 from the driver's output lines. */
  private void fileClient(String client, Workload w, List<String> lines) {
    Map<String, Map<String, String>> byWorkload = new LinkedHashMap<>();
    Map<String, String> errors = new LinkedHashMap<>();
    parseLines(lines, byWorkload, errors);
    errors.forEach((id, why) -> results.fail("8", client, id + ": " + why));
    Map<String, String> r = byWorkload.get(w.id());
    if (r == null) {
      return;
    }
    switch (w.id()) {
      case "latency" -> {
        results.add("8", client, "lat_p50_us", num(r, "p50_us"));
        results.add("8", client, "lat_p99_us", num(r, "p99_us"));
      }
      case "small" -> {
        results.add("8", client, "small_msgs_per_s", num(r, "msgs_per_s"));
        if (r.containsKey("cpu_us_per_echo")) {
          results.add("8", client, "small_cpu_us", num(r, "cpu_us_per_echo"));
        }
      }
      case "large64k" -> {
        results.add("8", client, "mb_64k", num(r, "mb_per_s"));
        if (r.containsKey("cpu_us_per_echo")) {
          results.add("8", client, "cpu_64k_us", num(r, "cpu_us_per_echo"));
        }
      }
      case "large1m" -> results.add("8", client, "mb_1m", num(r, "mb_per_s"));
      default -> throw new IllegalStateException(w.id());
    }
  }

  // ---- plumbing ----

  private Path logFile(String name) {
    return logs.resolve("run" + results.run() + "-" + name + ".log");
  }

  private List<String> runClient(List<String> cmd, String name, int workloads) throws IOException {
    Duration limit = Duration.ofMillis(60_000 + workloads * (warmupMs + measureMs + 40_000));
    try (ServerProcess client = ServerProcess.start(cmd, logFile(name))) {
      return client.linesUntilExit(limit, ResultLine.RESULT, ResultLine.ERROR);
    }
  }

  private static void parseLines(List<String> lines, Map<String, Map<String, String>> byWorkload,
      Map<String, String> errors) {
    for (String line : lines) {
      Map<String, String> r = ResultLine.parse(line);
      if (r != null) {
        byWorkload.put(r.get("workload"), r);
      } else if (line.startsWith(ResultLine.ERROR + " workload=")) {
        String rest = line.substring((ResultLine.ERROR + " workload=").length());
        int sp = rest.indexOf(' ');
        errors.put(sp < 0 ? rest : rest.substring(0, sp), sp < 0 ? "failed" : rest.substring(sp + 1));
      }
    }
  }

  private static double num(Map<String, String> r, String key) {
    String v = r.get(key);
    if (v == null) {
      throw new IllegalStateException("result line without " + key + ": " + r);
    }
    return Double.parseDouble(v);
  }

  private List<String> pinned(int cpu, List<String> cmd) {
    if (!pin) {
      return cmd;
    }
    List<String> out = new ArrayList<>(List.of("taskset", "-c", Integer.toString(cpu)));
    out.addAll(cmd);
    return out;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private void log(String what) {
    System.err.println("[e2e] " + what);
  }

  private Report.Context context(String args, String commit, int runs, double minutes,
      List<String> targets, Set<String> scenarios) {
    String date = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
    String title = quick
        ? "> **Quick smoke run on a busy machine** (`--quick`: one run, " + warmupMs + " ms warm-up, "
            + measureMs + " ms measured per point, other engineers compiling on the same two cores)."
            + " It shows that the harness works; its figures are not results."
        : "Full run: " + runs + " runs per point, " + warmupMs + " ms warm-up and " + measureMs
            + " ms measured per point.";
    String chartNote = (quick ? "QUICK SMOKE RUN on a busy machine: proves the harness, not a result. "
        : "") + "Bars: median of " + runs + (runs == 1 ? " run" : " runs; whiskers: min–max") + ". "
        + date + ".";
    List<Map.Entry<String, String>> facts = new ArrayList<>();
    facts.add(Map.entry("date", date));
    facts.add(Map.entry("command", "`./bench e2e " + args.replaceAll("--root \\S+ ?", "").strip() + "`"));
    facts.add(Map.entry("commit", commit == null ? "unknown (not a git checkout)" : "`" + commit + "`"));
    facts.add(Map.entry("duration", String.format(java.util.Locale.ROOT, "%.1f min", minutes)));
    facts.add(Map.entry("CPU", MachineInfo.cpuModel()));
    facts.add(Map.entry("cores", Integer.toString(Runtime.getRuntime().availableProcessors())));
    facts.add(Map.entry("RAM", MachineInfo.memory()));
    facts.add(Map.entry("kernel", MachineInfo.kernel()));
    facts.add(Map.entry("JDK", MachineInfo.jdk()));
    facts.add(Map.entry("JVM flags (every JVM process)", "`" + String.join(" ", JVM_FLAGS) + "`"));
    String node = MachineInfo.firstLine(List.of("node", "--version"));
    facts.add(Map.entry("Node", node == null ? "not found" : node));
    facts.add(Map.entry("CPU pinning", pin ? "server `taskset -c 0`, load client and wrk `taskset -c 1`"
        : "none: taskset did not run, server and client share the cores"));
    facts.add(Map.entry("runs per point", runs + " (median, spread min–max)"));
    facts.add(Map.entry("targets", String.join(", ", targets)));
    facts.add(Map.entry("scenarios", String.join(", ", scenarios)));
    List<String> method = List.of(
        "One server process at a time, started fresh for every workload of every run of every"
            + " target, with a fresh client process too (no workload runs on code the JIT shaped"
            + " for another); it prints `READY PORT` once it listens on 127.0.0.1. A run goes point"
            + " by point (every target's latency, then every target's 64 in flight, and so on), so"
            + " that the figures a ratio compares were taken minutes apart at most. Run r starts"
            + " with the r-th target, so that each target takes each place in a point in turn.",
        "Load: one raw NIO WebSocket client (`dev.wsjava.bench.e2e.LoadClient`), the same for every"
            + " server, in a separate process: handshake, masked frames, a window of messages in"
            + " flight, every echo checked byte for byte (length and content, a sequence number"
            + " stamped in each message), round trips into HdrHistogram 2.2.2.",
        "Each point: " + warmupMs + " ms warm-up on the same connections, then " + measureMs
            + " ms measured, then a drain that must bring back every echo; a wrong echo or a"
            + " lost one fails the point.",
        "MB/s counts echoed payload in one direction (10^6 bytes); wire bytes are counted at the"
            + " client's socket during the measured interval.",
        "Scenario 5 reads the server's VmRSS and, for JVM targets, the heap used after `jcmd GC.run`,"
            + " before and after the client opens " + IDLE_CONNECTIONS + " connections.",
        "Scenario 7: wrk -t2 -c100, a " + Math.min(2, wrkSeconds) + " s warm-up then " + wrkSeconds
            + " s measured.",
        "Scenario 8's fixed server is the Netty peer: the most used JVM WebSocket server and not"
            + " ours, on epoll, so no client is measured against its own server. It goes point by"
            + " point like the others (every client's latency, then every client's 300 B, and so"
            + " on), a fresh server for each, the client order rotated from run to run.",
        "Ratios: each wsjava target's median divided by the best JVM peer's median (Node and the"
            + " raw reference client excluded). Per run: the same ratio within each run, against"
            + " that run's best JVM peer, which pairs figures measured minutes apart rather than"
            + " up to an hour apart.",
        "Expected duration on this 2-core machine: a full run (3 runs, all targets and scenarios)"
            + " about 55-65 minutes; `--quick` about 6-9 minutes.");
    Map<String, String> described = new LinkedHashMap<>();
    for (String t : targets) {
      Peers.Server s = Peers.server(t);
      String note = targetNotes.get(t);
      described.put(t, s.what() + (note == null ? "" : " — reported: " + note));
    }
    if (scenarios.contains("8")) {
      for (Peers.Client c : Peers.CLIENTS) {
        described.put("client " + c.name(), c.what());
      }
    }
    return new Report.Context(title, chartNote, facts, method, described);
  }
}
