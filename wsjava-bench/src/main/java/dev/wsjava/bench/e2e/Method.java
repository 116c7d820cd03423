package dev.wsjava.bench.e2e;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the report says about a run besides its figures: the machine and settings, the method, and
 * the targets and clients with how each ran, which of its threads did the work, and what the
 * contract check found.
 */
final class Method {
  private Method() {}

  static Report.Context context(Suite suite, String args, String commit, int runs, double minutes,
      List<String> targets, Set<String> scenarios) {
    long warmupMs = suite.warmupMs();
    long measureMs = suite.measureMs();
    int wrkSeconds = suite.wrkSeconds();
    String date = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
    String title = suite.quick()
        ? "> **Quick smoke run on a busy machine** (`--quick`: one run, " + warmupMs + " ms warm-up, "
            + measureMs + " ms measured per point, other engineers compiling on the same two cores)."
            + " It shows that the harness works; its figures are not results."
        : "Full run: " + runs + " runs per point, " + warmupMs + " ms warm-up and " + measureMs
            + " ms measured per point.";
    String chartNote = (suite.quick() ? "QUICK SMOKE RUN on a busy machine: proves the harness, not a result. "
        : "") + "Bars: median of " + runs + (runs == 1 ? " run" : " runs; whiskers: min–max") + ". "
        + date + ".";
    List<Map.Entry<String, String>> facts = new ArrayList<>();
    facts.add(Map.entry("date", date));
    facts.add(Map.entry("command", "`./bench e2e " + args.replaceAll("--root \\S+ ?", "").strip() + "`"));
    facts.add(Map.entry("commit", commit == null ? "unknown (not a git checkout)" : "`" + commit + "`"));
    StringBuilder took = new StringBuilder(String.format(Locale.ROOT, "%.1f min", minutes));
    if (!suite.minutes.isEmpty()) {
      took.append(" (");
      suite.minutes.forEach((sc, m) -> took.append(took.charAt(took.length() - 1) == '(' ? "" : ", ")
          .append(sc).append(": ").append(String.format(Locale.ROOT, "%.1f", m)));
      took.append("; the rest: the contract checks and the start-up)");
    }
    facts.add(Map.entry("duration", took.toString()));
    facts.add(Map.entry("CPU", MachineInfo.cpuModel()));
    facts.add(Map.entry("cores", Integer.toString(Runtime.getRuntime().availableProcessors())));
    facts.add(Map.entry("RAM", MachineInfo.memory()));
    facts.add(Map.entry("kernel", MachineInfo.kernel()));
    facts.add(Map.entry("JDK", MachineInfo.jdk()));
    facts.add(Map.entry("JVM flags (every JVM process)", "`" + String.join(" ", Launcher.JVM_FLAGS)
        + "`; one-loop starts (2c, 4c) add `" + Launcher.ONE_CARRIER + "`"));
    String node = MachineInfo.firstLine(List.of("node", "--version"));
    facts.add(Map.entry("Node", node == null ? "not found" : node));
    String gxx = MachineInfo.firstLine(List.of("g++", "--version"));
    String go = MachineInfo.firstLine(List.of("go", "version"));
    facts.add(Map.entry("native builds", (gxx == null ? "g++ not found" : gxx + ", -O2 -std=c++17") + "; "
        + (go == null ? "go not found" : go + ", GOPATH mode, offline")));
    facts.add(Map.entry("CPU pinning", suite.launcher.pinned()
        ? "server `taskset -c " + suite.launcher.serverCpus + "`, load client, client drivers and wrk"
            + " `taskset -c " + suite.launcher.clientCpus + "`"
        : "none: taskset did not run, server and client share the cores"));
    facts.add(Map.entry("permessage-deflate (scenario 6)", "level " + Launcher.DEFLATE_LEVEL
        + " for every target (zlib's default, the peers' usual one); Helidon has no permessage-deflate;"
        + " the load client compresses at level 1"));
    facts.add(Map.entry("TLS (scenarios 9, 10)", TlsFiles.DESCRIPTION));
    String lan = suite.launcher.lanShaping();
    if (lan != null) {
      facts.add(Map.entry("simulated LAN (1n-3n)", lan + "; server 10.241.28.1, client 10.241.28.2,"
          + " each in its own network namespace"));
    }
    facts.add(Map.entry("runs per point", runs + " (median, spread min–max)"));
    facts.add(Map.entry("targets", String.join(", ", targets)));
    facts.add(Map.entry("scenarios", String.join(", ", scenarios)));
    List<String> method = List.of(
        "Before anything is measured, each target is started once and checked from outside"
            + " (the targets table's last column): TCP_NODELAY on its end of a connection, read from"
            + " its process (pidfd_getfd; what it really has, not what its documentation says);"
            + " no permessage-deflate answered to a client that offers it when the target was"
            + " started without it; a 16 MiB message in one frame echoed whole; one byte more"
            + " refused. Every peer is set to 16 MiB frames and messages, TCP_NODELAY on, deflate"
            + " only in scenario 6 at one level. Each client's TCP_NODELAY is read the same way"
            + " during its first point.",
        "One server process at a time, started fresh for every workload of every run of every"
            + " target, with a fresh client process too (no workload runs on code the JIT shaped"
            + " for another); it prints `READY PORT` and how it runs (its I/O threads, level, TLS)"
            + " once it listens. A run goes point by point (every target's latency, then every"
            + " target's 64 in flight, and so on), so that the figures a ratio compares were taken"
            + " minutes apart at most. Run r starts with the r-th target, so that each target"
            + " takes each place in a point in turn.",
        "Load: one raw NIO WebSocket client (`dev.wsjava.bench.e2e.LoadClient`), the same for every"
            + " server, in a separate process: handshake, masked frames, a window of messages in"
            + " flight, every echo checked byte for byte (length and content, a sequence number"
            + " stamped in each message), round trips into HdrHistogram 2.2.2. Scenario 9 uses"
            + " `ConnectClient` (blocking sockets, one connection after the other).",
        "Each point: " + warmupMs + " ms warm-up on the same connections, then " + measureMs
            + " ms measured, then a drain that must bring back every echo; a wrong echo or a"
            + " lost one fails the point.",
        "CPU time: each process's user + system time over the measured interval (/proc/PID/stat,"
            + " all threads, 10 ms ticks), divided by the echoes, MB, requests or connections of"
            + " the interval; both sides, in every scenario but 5 (idle). Throughput on a shared"
            + " machine moves with its neighbours and with the other side's limit; the cost per"
            + " unit moves much less. Per thread (/proc/PID/task), the threads that used at least"
            + " 2 % of a server's CPU in scenarios 2 and 4 are named in the targets table: the"
            + " threads that did the work, whatever the configuration says.",
        "MB/s counts echoed payload in one direction (10^6 bytes); wire bytes are counted at the"
            + " client's socket during the measured interval.",
        "Scenario 5 reads the server's VmRSS and, for JVM targets, the heap used after `jcmd GC.run`,"
            + " before and after the client opens 10000 connections.",
        "Scenario 7: wrk -t2 -c100, a " + Math.min(2, wrkSeconds) + " s warm-up then " + wrkSeconds
            + " s measured; wrk's CPU time from its shell's `times`.",
        "Scenarios 8 and 10's fixed server is the Netty peer: the most used JVM WebSocket server"
            + " and not ours, on epoll, so no client is measured against its own server. They go"
            + " point by point like the others, a fresh server for each, the client order rotated"
            + " from run to run.",
        "Ratios: each wsjava target's median ÷ the best JVM peer's median, and ÷ the best native"
            + " server's (Boost.Beast, gorilla/websocket; built by the suite from Debian's packages)."
            + " Node and the raw reference client are in no ratio. A ratio within ±"
            + Math.round(Report.PARITY * 100) + " %, or within the run-to-run spread, is reported as"
            + " even, not as a lead. The Jakarta containers (Tomcat, Jetty, Tyrus running the shared"
            + " annotated endpoint) are in no such ratio: jakarta-wsjava is compared with the best"
            + " of them and with wsjava-nio (the core API) in a table of its own.");
    return new Report.Context(title, chartNote, facts, method, setup(suite, targets, scenarios));
  }

  private static List<Report.Table> setup(Suite suite, List<String> targets, Set<String> scenarios) {
    List<List<String>> rows = new ArrayList<>();
    for (String t : targets) {
      Peers.Server s = Peers.server(t);
      Map<String, String> busy = suite.busy.getOrDefault(t, Map.of());
      rows.add(List.of(t, s.what(), suite.launcher.runsAs.getOrDefault(t, "–"),
          Format.threads(busy.get("2 small")), Format.threads(busy.get("4 many")),
          suite.contract.getOrDefault(t, "not checked")));
    }
    List<Report.Table> tables = new ArrayList<>();
    tables.add(new Report.Table("Targets", List.of("target", "what", "runs as (its own words, default start)",
        "threads that worked: 1 connection (2, 64 in flight)", "threads that worked: 1,000 connections (4)",
        "contract check"), rows));
    if (scenarios.contains("8") || scenarios.contains("10")) {
      List<List<String>> clients = new ArrayList<>();
      for (Peers.Client c : Peers.CLIENTS) {
        clients.add(List.of(c.name(), c.what(), suite.contract.getOrDefault("client " + c.name(), "not checked")));
      }
      tables.add(new Report.Table("Clients (scenarios 8 and 10)", List.of("client", "what", "contract check"),
          clients));
    }
    return tables;
  }
}
