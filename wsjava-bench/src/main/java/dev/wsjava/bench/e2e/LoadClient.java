package dev.wsjava.bench.e2e;

import dev.wsjava.bench.peer.CpuTime;
import dev.wsjava.bench.peer.ResultLine;
import dev.wsjava.bench.peer.Workload;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The raw load client of the end-to-end suite: the same code for every server. One thread, one
 * selector, any number of {@link RawConnection}s; opens them (at most {@link #MAX_CONNECTING}
 * handshakes at a time), warms up, measures, drains, and prints one {@link ResultLine} per
 * workload: messages/s, payload MB/s, round-trip percentiles, and socket bytes per message each way.
 *
 * <p>Command line: {@code --port P [--host 127.0.0.1] [--path /echo] --workloads small,large1m
 * [--connections N] [--warmup-ms 2000] [--measure-ms 5000] [--server-pid PID]}, or {@code --idle
 * N}: open N connections, print {@code RESULT workload=idle}, hold them until standard input ends.
 * Each result has the client's own CPU microseconds per echo over the measured interval and the
 * threads that did the work; with a server PID, the server's too.
 */
public final class LoadClient {
  /** Handshakes in progress at once while opening many connections. */
  static final int MAX_CONNECTING = 200;
  private static final long OPEN_TIMEOUT_MS = 120_000;
  private static final long DRAIN_TIMEOUT_MS = 10_000;

  private final String host;
  private final int port;
  private final String path;
  private long serverPid = -1; // when known, the server's CPU per echo is reported too
  private long seed = 0x9e3779b97f4a7c15L;

  /**
   * Creates a client for one server.
   *
   * @param host the server's address
   * @param port its port
   * @param path the echo path
   */
  public LoadClient(String host, int port, String path) {
    this.host = host;
    this.port = port;
    this.path = path;
  }

  /**
   * Runs the command line.
   *
   * @param args see the class comment
   * @throws Exception on a bad command line
   */
  public static void main(String[] args) throws Exception {
    String host = "127.0.0.1";
    String path = "/echo";
    int port = -1;
    int connections = -1;
    int idle = -1;
    long warmup = 2000;
    long measure = 5000;
    long serverPid = -1;
    List<Workload> workloads = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--host" -> host = args[++i];
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--path" -> path = args[++i];
        case "--connections" -> connections = Integer.parseInt(args[++i]);
        case "--idle" -> idle = Integer.parseInt(args[++i]);
        case "--warmup-ms" -> warmup = Long.parseLong(args[++i]);
        case "--measure-ms" -> measure = Long.parseLong(args[++i]);
        case "--server-pid" -> serverPid = Long.parseLong(args[++i]);
        case "--workloads" -> {
          for (String id : args[++i].split(",")) {
            workloads.add(Workload.byId(id));
          }
        }
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (port < 0 || (workloads.isEmpty() && idle < 0)) {
      throw new IllegalArgumentException("--port and --workloads (or --idle N) are required");
    }
    LoadClient client = new LoadClient(host, port, path);
    client.serverPid = serverPid;
    if (idle >= 0) {
      client.holdIdle(idle, System.in, System.out);
      return;
    }
    for (Workload w : workloads) {
      Workload shaped = connections > 0 ? w.withConnections(connections) : w;
      try {
        client.run(shaped, warmup, measure).print(System.out);
      } catch (Exception e) {
        ResultLine.error(System.out, w.id(), e.getMessage() == null ? e.toString() : e.getMessage());
      }
    }
  }

  /**
   * Runs one workload: open, warm up, measure, drain, close.
   *
   * @param w the workload
   * @param warmupMs warm-up
   * @param measureMs measured interval
   * @return the result line
   * @throws IOException when the selector fails
   * @throws IllegalStateException when a connection fails or echoes stop coming
   */
  public ResultLine run(Workload w, long warmupMs, long measureMs) throws IOException {
    LoadStats stats = new LoadStats();
    try (Selector selector = Selector.open()) {
      List<RawConnection> conns = open(selector, w, stats);
      try {
        for (RawConnection c : conns) {
          c.startSending();
        }
        long measureStart = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(warmupMs);
        loop(selector, stats, measureStart);
        stats.startMeasuring();
        CpuTime.Edge begin = CpuTime.edge(serverPid);
        long start = System.nanoTime();
        loop(selector, stats, start + TimeUnit.MILLISECONDS.toNanos(measureMs));
        long nanos = System.nanoTime() - start;
        CpuTime.Edge end = CpuTime.edge(serverPid);
        stats.stopMeasuring();
        for (RawConnection c : conns) {
          c.stopSending();
        }
        Histogram h = stats.rtt().copy();
        long echoes = stats.echoes();
        long up = stats.bytesUp();
        long down = stats.bytesDown();
        long drainEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_TIMEOUT_MS);
        while (inFlight(conns) > 0 && System.nanoTime() < drainEnd && stats.failures() == 0) {
          select(selector, 10);
        }
        if (stats.failures() > 0) {
          throw new IllegalStateException(stats.failures() + " connection(s) failed; first: "
              + stats.firstFailure());
        }
        int left = inFlight(conns);
        if (left > 0) {
          throw new IllegalStateException(left + " echo(es) still missing " + DRAIN_TIMEOUT_MS / 1000
              + " s after the last send (the server stalled or lost them)");
        }
        if (echoes == 0) {
          throw new IllegalStateException("no echo in the measured interval");
        }
        double seconds = nanos / 1e9;
        ResultLine line = new ResultLine(w.id());
        CpuTime.costs(line, begin, end, echoes, "_per_msg");
        return line
            .put("connections", (long) w.connections())
            .put("echoes", echoes)
            .put("msgs_per_s", echoes / seconds)
            .put("mb_per_s", stats.payloadBytes() / seconds / 1e6)
            .put("p50_us", h.getValueAtPercentile(50) / 1e3)
            .put("p99_us", h.getValueAtPercentile(99) / 1e3)
            .put("p999_us", h.getValueAtPercentile(99.9) / 1e3)
            .put("wire_up_per_msg", up / (double) echoes)
            .put("wire_down_per_msg", down / (double) echoes);
      } finally {
        for (RawConnection c : conns) {
          c.close();
        }
      }
    }
  }

  /**
   * Opens {@code n} connections and holds them idle until {@code stdin} ends (or says anything).
   *
   * @param n connections
   * @param stdin the signal to close
   * @param out where the result line goes
   * @throws IOException when the selector fails
   */
  public void holdIdle(int n, InputStream stdin, PrintStream out) throws IOException {
    Workload w = Workload.LATENCY.withConnections(n);
    LoadStats stats = new LoadStats();
    long start = System.nanoTime();
    List<RawConnection> conns = List.of();
    try (Selector selector = Selector.open()) {
      try {
        conns = open(selector, w, stats);
      } catch (IllegalStateException e) {
        ResultLine.error(out, "idle", e.getMessage());
        return;
      }
      new ResultLine("idle")
          .put("connections", (long) stats.open())
          .put("open_ms", (System.nanoTime() - start) / 1e6)
          .print(out);
      stdin.read();
    } finally {
      for (RawConnection c : conns) {
        c.close();
      }
    }
  }

  private List<RawConnection> open(Selector selector, Workload w, LoadStats stats)
      throws IOException {
    List<RawConnection> conns = new ArrayList<>(w.connections());
    InetSocketAddress address = new InetSocketAddress(host, port);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(OPEN_TIMEOUT_MS);
    try {
      while (stats.open() < w.connections()) {
        while (conns.size() < w.connections() && conns.size() - stats.open() < MAX_CONNECTING) {
          SocketChannel ch = SocketChannel.open();
          ch.configureBlocking(false);
          ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
          RawConnection c = new RawConnection(ch, w, stats, host, port, path, seed++);
          c.attach(ch.register(selector, SelectionKey.OP_CONNECT, c));
          conns.add(c);
          if (ch.connect(address)) {
            c.onConnectable();
          }
        }
        select(selector, 100);
        if (stats.failures() > 0) {
          throw new IllegalStateException("opening " + w.connections() + " connections: "
              + stats.failures() + " failed; first: " + stats.firstFailure());
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("only " + stats.open() + " of " + w.connections()
              + " connections opened in " + OPEN_TIMEOUT_MS + " ms");
        }
      }
      return conns;
    } catch (IOException | RuntimeException e) {
      for (RawConnection c : conns) {
        c.close();
      }
      throw e;
    }
  }

  private void loop(Selector selector, LoadStats stats, long until) throws IOException {
    while (System.nanoTime() < until && stats.failures() == 0) {
      select(selector, 10);
    }
  }

  private static void select(Selector selector, long timeoutMs) throws IOException {
    selector.select(timeoutMs);
    Iterator<SelectionKey> it = selector.selectedKeys().iterator();
    while (it.hasNext()) {
      SelectionKey k = it.next();
      it.remove();
      RawConnection c = (RawConnection) k.attachment();
      if (!k.isValid()) {
        continue;
      }
      try {
        if (k.isConnectable()) {
          c.onConnectable();
        } else {
          if (k.isReadable()) {
            c.onReadable();
          }
          if (k.isValid() && k.isWritable() && c.state() != RawConnection.State.FAILED) {
            c.flush();
          }
        }
      } catch (IOException e) {
        c.fail(e.toString());
      }
    }
  }

  private static int inFlight(List<RawConnection> conns) {
    int n = 0;
    for (RawConnection c : conns) {
      n += c.inFlight();
    }
    return n;
  }
}
