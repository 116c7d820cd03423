package dev.wsjava.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the kernel saw of a reconnect storm, for the resilience benchmark: the TCP counters that
 * say a listener's accept queue overflowed or a SYN was sent again (those of {@code nstat -az
 * TcpExtListenOverflows TcpExtListenDrops TcpRetransSegs}, read from {@code /proc/net/netstat} and
 * {@code /proc/net/snmp}; system-wide, so whatever else runs on the machine counts too), and the
 * deepest accept queue of each named listener while sampling ({@code ss -Hlnt}: Recv-Q of a
 * listening socket is its accept queue, Send-Q its backlog). bench-peers/socketio/resilience.js
 * records the same. Not thread-safe: one sampler per scenario.
 */
final class ListenQueues {
  /** The counters, in the order {@link #counters()} returns them. */
  static final List<String> COUNTERS = List.of("ListenOverflows", "ListenDrops", "RetransSegs",
      "SyncookiesSent", "TCPReqQFullDrop", "TCPSynRetrans", "TCPTimeouts", "TCPLossProbes", "TCPBacklogDrop");

  private final Map<String, Integer> ports; // listener name -> port
  private final Map<String, int[]> deepest = new LinkedHashMap<>(); // name -> {max queue, backlog}
  private volatile Thread sampler;

  ListenQueues(Map<String, Integer> ports) {
    this.ports = ports;
    ports.keySet().forEach(n -> deepest.put(n, new int[] {0, -1}));
  }

  /** The kernel's counters now (see {@link #COUNTERS}); -1 where one cannot be read. */
  static long[] counters() {
    long[] v = new long[COUNTERS.size()];
    java.util.Arrays.fill(v, -1);
    read(Path.of("/proc/net/netstat"), "TcpExt:", v);
    read(Path.of("/proc/net/snmp"), "Tcp:", v);
    return v;
  }

  private static void read(Path file, String prefix, long[] into) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      return;
    }
    for (int i = 0; i + 1 < lines.size(); i++) {
      if (lines.get(i).startsWith(prefix) && lines.get(i + 1).startsWith(prefix)) {
        String[] names = lines.get(i).split(" ");
        String[] values = lines.get(i + 1).split(" ");
        for (int k = 1; k < names.length && k < values.length; k++) {
          int at = COUNTERS.indexOf(names[k]);
          if (at >= 0) {
            into[at] = Long.parseLong(values[k]);
          }
        }
      }
    }
  }

  /** The change of each counter from {@code before} to {@code after}, as one line. */
  static String delta(long[] before, long[] after) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < COUNTERS.size(); i++) {
      b.append(i > 0 ? ", " : "").append(COUNTERS.get(i)).append(' ');
      b.append(before[i] < 0 || after[i] < 0 ? "?" : "+" + (after[i] - before[i]));
    }
    return b.toString();
  }

  /** Samples every listener's accept queue every {@code periodMillis} until {@link #stop()}. */
  void start(long periodMillis) {
    sampler = Thread.ofPlatform().daemon().name("listen-queues").start(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        sample();
        try {
          Thread.sleep(periodMillis);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
  }

  /** Stops sampling; returns "name deepest/backlog" for each listener. */
  String stop() throws InterruptedException {
    Thread t = sampler;
    if (t != null) {
      t.interrupt();
      t.join(TimeUnit.SECONDS.toMillis(5));
    }
    StringBuilder b = new StringBuilder();
    deepest.forEach((name, v) -> b.append(b.isEmpty() ? "" : ", ").append(name).append(' ')
        .append(v[0]).append('/').append(v[1] < 0 ? "?" : Integer.toString(v[1])));
    return b.toString();
  }

  /** One look at every listener (ss), keeping the deepest queue seen. */
  void sample() {
    String out;
    try {
      Process p = new ProcessBuilder("ss", "-Hlnt").redirectErrorStream(true).start();
      out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      p.waitFor(5, TimeUnit.SECONDS);
    } catch (IOException e) {
      return; // no ss here: the queues stay unknown
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    for (String line : out.split("\n")) {
      String[] f = line.trim().split("\\s+"); // State Recv-Q Send-Q Local:Port Peer:Port
      if (f.length < 4) {
        continue;
      }
      String local = f[3];
      int port;
      try {
        port = Integer.parseInt(local.substring(local.lastIndexOf(':') + 1));
      } catch (NumberFormatException e) {
        continue;
      }
      ports.forEach((name, p) -> {
        if (p == port) {
          int[] v = deepest.get(name);
          v[0] = Math.max(v[0], Integer.parseInt(f[1]));
          v[1] = Integer.parseInt(f[2]);
        }
      });
    }
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "ListenQueues%s", ports);
  }
}
