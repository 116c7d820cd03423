package dev.wsjava.bench.e2e;

import dev.wsjava.bench.peer.PeerArgs;
import dev.wsjava.bench.peer.ResultLine;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a wss handshake costs a server ({@code ./bench tls-handshake}): for each target and each
 * key type (ECDSA P-256, RSA-2048), the suite's connect client (scenario 9: TCP connect, TLS, the
 * opening handshake, a normal close, one connection after the other) runs three points against a
 * fresh server pinned to CPU 0: plain ws, wss with a full TLS 1.3 handshake every time (the client
 * forgets its sessions), and wss resumed (the client keeps the JDK's session cache and offers the
 * server's last ticket: PSK with (EC)DHE, no certificate, no signature). Prints one table of the
 * server's CPU time per connection (all threads, from /proc), the part TLS adds (wss minus ws), and
 * the share of handshakes the server resumed.
 *
 * <p>Command line: {@code --root DIR [--targets wsjava-nio,wsjava-blocking,netty,beast,gorilla,bun]
 * [--keys ec,rsa] [--engine-handshakes 1000] [--warmup-conns 2000] [--warmup-jit 3]
 * [--warmup-max-ms 60000] [--warmup-ms 3000] [--measure-ms 3000] [--points ws,full,resumed]
 * [--no-pin]}: each point first opens {@code --warmup-conns} connections, then rounds of {@value
 * ConnectClient#WARMUP_ROUND} until the server's JIT compiler threads took under {@code
 * --warmup-jit} percent of its CPU in three rounds in a row (at most {@code --warmup-max-ms} in
 * all; the JDK's handshake code runs most of its methods once per connection, so C2 compiles it
 * only after about ten thousand handshakes, and a measurement before that is largely the
 * compiler's), then warms up and measures by time. Every target gets the same rule; a native
 * server, without compiler threads, stops after the first quiet rounds. A second table ({@link TlsEngineCost}) has the JDK's TLS alone, in process; {@code
 * --engine-handshakes 0} leaves it out and {@code --targets none} leaves out the servers. {@code
 * --accp} adds the same table again with Amazon Corretto Crypto Provider installed first under the
 * JDK's TLS (its native signatures, key agreement and ciphers).
 */
public final class TlsHandshakeBench {
  private static final List<String> DEFAULT_TARGETS =
      List.of("wsjava-nio", "wsjava-blocking", "netty", "beast", "gorilla", "bun");

  private TlsHandshakeBench() {}

  /**
   * How each point warms up and measures (the same for every target).
   *
   * @param conns connections opened first in any case
   * @param jitPercent then rounds until the server's JIT compilers use less than this share
   * @param maxMs bound on the connection-counted warm-up
   * @param ms the timed warm-up after it
   * @param measureMs the measured interval
   */
  private record Warmup(int conns, double jitPercent, long maxMs, long ms, long measureMs) {}

  /** One point's outcome: the parsed result line, or why there is none. */
  private record Outcome(Map<String, String> result, String failure) {
    /** A point left out with {@code --points}. */
    static final Outcome SKIPPED = new Outcome(null, null);

    double num(String key) {
      return Double.parseDouble(result.get(key));
    }
  }

  /**
   * Runs the command line.
   *
   * @param args see the class comment
   * @throws Exception when the TLS files cannot be made
   */
  public static void main(String[] args) throws Exception {
    Path root = null;
    List<String> targets = DEFAULT_TARGETS;
    List<TlsFiles.KeyType> keys = List.of(TlsFiles.KeyType.EC_P256, TlsFiles.KeyType.RSA_2048);
    int warmupConns = 2000;
    double warmupJit = 3;
    long warmupMaxMs = 60_000;
    int engineHandshakes = 1000;
    boolean accp = false;
    long warmupMs = 3000;
    long measureMs = 3000;
    boolean pin = true;
    List<String> points = List.of("ws", "full", "resumed");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--root" -> root = Path.of(args[++i]);
        case "--targets" -> targets = args[++i].equals("none") ? List.of() : Arrays.asList(args[i].split(","));
        case "--engine-handshakes" -> engineHandshakes = Integer.parseInt(args[++i]);
        case "--keys" -> keys = Arrays.stream(args[++i].split(",")).map(k -> switch (k) {
          case "ec" -> TlsFiles.KeyType.EC_P256;
          case "rsa" -> TlsFiles.KeyType.RSA_2048;
          default -> throw new IllegalArgumentException("--keys takes ec and rsa, not " + k);
        }).toList();
        case "--warmup-conns" -> warmupConns = Integer.parseInt(args[++i]);
        case "--warmup-jit" -> warmupJit = Double.parseDouble(args[++i]);
        case "--warmup-max-ms" -> warmupMaxMs = Long.parseLong(args[++i]);
        case "--warmup-ms" -> warmupMs = Long.parseLong(args[++i]);
        case "--measure-ms" -> measureMs = Long.parseLong(args[++i]);
        case "--no-pin" -> pin = false;
        case "--points" -> points = Arrays.asList(args[++i].split(","));
        case "--accp" -> accp = true;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + "; usage: ./bench tls-handshake [--targets a,b] [--keys ec,rsa] [--engine-handshakes N] [--warmup-conns N]"
            + " [--warmup-jit PERCENT] [--warmup-max-ms N] [--warmup-ms N] [--measure-ms N] [--points ws,full,resumed]"
            + " [--no-pin] [--accp]");
      }
    }
    if (root == null) {
      throw new IllegalArgumentException("--root is required");
    }
    pin = pin && MachineInfo.firstLine(List.of("taskset", "-c", "0", "true")) != null;
    Launcher launcher = new Launcher(root, pin, new Results());
    List<Peers.Server> servers = targets.stream().map(Peers::server).toList();
    Map<TlsFiles.KeyType, Path> files = new LinkedHashMap<>();
    for (TlsFiles.KeyType k : keys) {
      files.put(k, TlsFiles.create(root.resolve("wsjava-bench/target/tls-handshake/"
          + k.name().toLowerCase(Locale.ROOT)), List.of("127.0.0.1"), k));
    }
    PrintStream out = System.out;
    Warmup warmup = new Warmup(warmupConns, warmupJit, warmupMaxMs, warmupMs, measureMs);
    out.printf(Locale.ROOT, "TLS handshake cost, server side: %s; warm-up at least %d connections, then"
        + " rounds of %d until the server's JIT compilers take under %.0f %% of its CPU (at most %d ms"
        + " in all), then %d ms; measured %d ms per point; server on CPU %s, client on CPU %s%s%n",
        Runtime.version(), warmupConns, ConnectClient.WARMUP_ROUND, warmupJit, warmupMaxMs,
        warmupMs, measureMs,
        launcher.serverCpus, launcher.clientCpus, pin ? "" : " (not pinned: taskset failed)");
    List<String[]> rows = new ArrayList<>();
    for (Peers.Server s : servers) {
      Outcome ws = points.contains("ws") ? point(launcher, s, null, false, warmup) : Outcome.SKIPPED;
      for (TlsFiles.KeyType k : keys) {
        launcher.useTls(files.get(k));
        Outcome full = points.contains("full")
            ? point(launcher, s, files.get(k), false, warmup) : Outcome.SKIPPED;
        Outcome resumed = points.contains("resumed")
            ? point(launcher, s, files.get(k), true, warmup) : Outcome.SKIPPED;
        rows.add(row(s.name(), k.label, ws, full, resumed));
      }
    }
    if (rows.isEmpty()) {
      out.println("(no servers)");
    } else {
      table(out, rows);
    }
    if (engineHandshakes > 0) {
      TlsEngineCost.run(files, keys, engineHandshakes, out, "the JDK's providers");
      if (accp) {
        com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider.install();
        com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider.INSTANCE.assertHealthy();
        TlsEngineCost.run(files, keys, engineHandshakes, out, "Amazon Corretto Crypto Provider "
            + com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider.INSTANCE.getVersionStr()
            + " installed first");
      }
    }
  }

  private static void table(PrintStream out, List<String[]> rows) {
    out.println();
    out.println("| server | key | ws µs/conn | wss full µs/conn | TLS full µs | wss resumed µs/conn"
        + " | TLS resumed µs | resumed | full conn/s | full warm-up conns | full JIT % warm-up / measured |");
    out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    rows.forEach(r -> out.println("| " + String.join(" | ", r) + " |"));
    out.println();
    out.println("Server CPU time per connection (all its threads, /proc), TCP connect to close;"
        + " \"TLS\" columns are wss minus ws. \"resumed\" is the share of the resumed point's"
        + " handshakes that the server resumed. The last two columns are the full point's: the"
        + " connections its warm-up took, and the share of the server's CPU its JIT compiler threads"
        + " used in the warm-up's last round and in the measured interval."
        + " Logs: wsjava-bench/target/e2e-logs/run1-*-tls-*.");
  }

  private static String[] row(String target, String key, Outcome ws, Outcome full, Outcome resumed) {
    String wsCpu = cell(ws, "server_cpu_us_per_conn");
    String fullCpu = cell(full, "server_cpu_us_per_conn");
    String resCpu = cell(resumed, "server_cpu_us_per_conn");
    return new String[] {target, key, wsCpu, fullCpu, diff(full, ws), resCpu, diff(resumed, ws),
        resumed.result() == null || !resumed.result().containsKey("resumed") ? "–"
            : String.format(Locale.ROOT, "%.0f %%", 100 * resumed.num("resumed")),
        full.result() == null ? "–" : String.format(Locale.ROOT, "%.0f", full.num("conns_per_s")),
        cell(full, "warmup_conns"), share(full, "warmup_jit_share") + " / " + share(full, "server_jit_share")};
  }

  private static String share(Outcome o, String key) {
    return o.result() == null || !o.result().containsKey(key) ? "–"
        : String.format(Locale.ROOT, "%.1f %%", 100 * o.num(key));
  }

  private static String cell(Outcome o, String key) {
    if (o.result() == null) {
      return o.failure() == null ? "–" : "failed: " + o.failure();
    }
    return o.result().containsKey(key) ? String.format(Locale.ROOT, "%.0f", o.num(key)) : "–";
  }

  private static String diff(Outcome tls, Outcome ws) {
    String k = "server_cpu_us_per_conn";
    if (tls.result() == null || ws.result() == null || !tls.result().containsKey(k)
        || !ws.result().containsKey(k)) {
      return "–";
    }
    return String.format(Locale.ROOT, "%.0f", tls.num(k) - ws.num(k));
  }

  /** One point: a fresh server (wss from {@code tls}, or ws) and the connect client. */
  private static Outcome point(Launcher launcher, Peers.Server s, Path tls, boolean resume, Warmup w) {
    String what = tls == null ? "ws" : "tls-" + tls.getFileName() + (resume ? "-resumed" : "-full");
    System.err.println("[tls-handshake] " + s.name() + " " + what);
    Launcher.Mode mode = tls == null ? Launcher.Mode.PLAIN : Launcher.Mode.TLS;
    try (Launcher.Started server = launcher.startServer(s, mode, what)) {
      List<String> args = new ArrayList<>(List.of("--port", Integer.toString(server.port()),
          "--warmup-conns", Integer.toString(w.conns()), "--warmup-jit", Double.toString(w.jitPercent()),
          "--warmup-max-ms", Long.toString(w.maxMs()), "--warmup-ms", Long.toString(w.ms()),
          "--measure-ms", Long.toString(w.measureMs()),
          "--server-pid", Long.toString(server.process().pid())));
      if (tls != null) {
        args.addAll(List.of("--trust", tls.resolve(PeerArgs.TRUST_STORE).toString()));
        if (resume) {
          args.add("--resume");
        }
      }
      List<String> cmd = launcher.pinned(1, launcher.jvm(null, ConnectClient.class.getName(), args));
      String id = tls == null ? "connect" : "connect_tls";
      // A cold JVM client on a busy machine opens its first TLS connections at a few a second.
      Duration budget = Duration.ofMillis(60_000 + 100L * w.conns() + w.maxMs() + w.ms() + w.measureMs());
      for (String line : launcher.runClient(cmd, s.name() + "-" + what + "-client", budget)) {
        Map<String, String> r = ResultLine.parse(line);
        if (r != null && id.equals(r.get("workload"))) {
          return new Outcome(r, null);
        }
        if (line.startsWith(ResultLine.ERROR)) {
          return new Outcome(null, line);
        }
      }
      return new Outcome(null, "no result");
    } catch (IOException e) {
      return new Outcome(null, e.getMessage());
    }
  }
}
