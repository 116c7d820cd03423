package dev.wsjava.bench;

import dev.wsjava.ReconnectListener;
import dev.wsjava.ReconnectPolicy;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.cli.balancer.Haproxy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The resilience benchmark ({@code ./bench resilience}): N reconnecting clients (resume on) spread
 * by a real HAProxy over three {@code wsjava serve --cluster} processes, one topic per 100
 * clients, a publisher at a steady rate; then (a) a node killed with SIGKILL, (b) a rolling
 * restart of the three (SIGTERM: each drains with 1012 over {@code --drain-window}, then is started
 * again), (c) HAProxy killed and started again. For each: the time until every client that
 * dropped is connected again, and until each has received a message again (the resume), messages
 * lost and duplicated (of those that reached at least one client), reconnect attempts, p99
 * delivery latency during the event and after it, CPU per node, and per phase where each client's
 * recovery time went (drop noticed, backoff wait, connect and handshake, open to first message).
 *
 * <p>HAProxy is started by the balancer harness of wsjava-cli's tests ({@link Haproxy}, the
 * configuration docs/DEPLOYMENT.md shows, {@code send-proxy-v2} to nodes started with {@code
 * --proxy-protocol}); its {@code maxconn} is N + 10, and N is bounded by the descriptors a process
 * may open here (two per client in HAProxy).
 *
 * <p>Command line: {@code --serve JAR --engine redis|nats --history N --clients N --rate
 * MSGS_PER_S --after SECONDS --scenarios kill,rolling,balancer --drain-window MS --work DIR}.
 * Everything is bounded: each wait has a deadline, and the run prints its table even when a
 * deadline passed (the row says so).
 */
public final class Resilience {
  private static final int PER_TOPIC = 100;
  /** The table's head; bench-peers/socketio/resilience.js prints the same. */
  static final String HEADER = "| scenario | clients dropped | all reconnected after (ms)"
      + " | all receiving again after (ms) | lost | duplicated | gap signals | reconnect attempts"
      + " | p99 during (ms) | p99 after (ms) | CPU per node (%) |\n"
      + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|";
  private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(60);

  private final String serveJar;
  private final String engine;
  private final int history;
  private final int clients;
  private final int rate;
  private final int afterSeconds;
  private final Path work;
  private final int topics;
  private final List<String> scenarios;
  private final Duration drainWindow;

  private Process engineProcess;
  private final int[] nodePorts = new int[3];
  private final Process[] nodes = new Process[3];
  private final long[] cpuTicksDone = new long[3]; // CPU of a slot's processes that ended
  private Haproxy haproxy;

  // Measurements
  private final List<Client> all = new ArrayList<>();
  private final BitSet[] anyone; // per topic: seqs some client received; guarded by itself
  private final AtomicLongArray nextSeq; // per topic
  private final LongAdder attempts = new LongAdder();
  private final LongAdder unsent = new LongAdder(); // publications the publisher could not send
  private final Histogram during = new Histogram();
  private final Histogram after = new Histogram();
  private volatile int phase; // 0 steady, 1 during, 2 after
  private volatile boolean publishing;

  private Resilience(String[] args) {
    String jar = null;
    String eng = "redis";
    int hist = 10_000;
    int n = 10_000;
    int r = 200;
    int aft = 5;
    Path w = Path.of("wsjava-bench/target/resilience");
    List<String> sc = List.of("kill", "rolling", "balancer");
    Duration dw = Duration.ofSeconds(2);
    for (int i = 0; i < args.length; i += 2) {
      String v = args[i + 1];
      switch (args[i]) {
        case "--serve" -> jar = v;
        case "--engine" -> eng = v;
        case "--history" -> hist = Integer.parseInt(v);
        case "--clients" -> n = Integer.parseInt(v);
        case "--rate" -> r = Integer.parseInt(v);
        case "--after" -> aft = Integer.parseInt(v);
        case "--work" -> w = Path.of(v);
        case "--scenarios" -> sc = List.of(v.split(","));
        case "--drain-window" -> dw = Duration.ofMillis(Long.parseLong(v));
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    long fds = descriptorLimit();
    long most = (fds - 40) / 2 - 10; // HAProxy: two per connection, ~20 of its own; + publisher
    if (jar == null || n < 1 || n > most || r < 1 || r > 10_000) {
      throw new IllegalArgumentException("--serve JAR is required; --clients 1 to " + most
          + " (HAProxy holds two descriptors per client, and a process may open " + fds
          + " here: raise the hard limit, ulimit -Hn, for more); --rate 1 to 10000");
    }
    serveJar = jar;
    engine = eng;
    history = hist;
    clients = n;
    rate = r;
    afterSeconds = aft;
    work = w;
    scenarios = sc;
    drainWindow = dw;
    topics = (n + PER_TOPIC - 1) / PER_TOPIC;
    anyone = new BitSet[topics];
    for (int i = 0; i < topics; i++) {
      anyone[i] = new BitSet();
    }
    nextSeq = new AtomicLongArray(topics);
  }

  /**
   * Runs the benchmark and prints its table.
   *
   * @param args see the class
   * @throws Exception when a part cannot start
   */
  public static void main(String[] args) throws Exception {
    new Resilience(args).run();
  }

  /** Delivery latency in 0.1 ms buckets up to 60 s. */
  static final class Histogram {
    final AtomicLongArray buckets = new AtomicLongArray(600_001);

    void add(long nanos) {
      buckets.incrementAndGet((int) Math.min(buckets.length() - 1, Math.max(0, nanos / 100_000)));
    }

    String p99() {
      long total = 0;
      for (int i = 0; i < buckets.length(); i++) {
        total += buckets.get(i);
      }
      if (total == 0) {
        return "-";
      }
      long seen = 0;
      for (int i = 0; i < buckets.length(); i++) {
        seen += buckets.get(i);
        if (seen >= Math.ceil(total * 0.99)) {
          return String.format(Locale.ROOT, "%.1f", i / 10.0);
        }
      }
      return "-";
    }

    void reset() {
      for (int i = 0; i < buckets.length(); i++) {
        buckets.set(i, 0);
      }
    }
  }

  /** One subscriber: its topic, what it received, whether it is connected. */
  final class Client implements WebSocketListener {
    final int topic;
    final BitSet got = new BitSet(); // guarded by this
    long duplicates; // guarded by this
    long gaps; // guarded by this
    volatile boolean down;
    // Phases of the latest drop, System.nanoTime(): noticed, the last attempt's start (after its
    // wait), open again, and the first message after that (the resumed topic flowing again).
    volatile long droppedAt;
    volatile long attemptAt;
    volatile long openAt;
    volatile long flowingAt;
    volatile long firstSent; // the publisher's stamp on the message that set flowingAt

    Client(int topic) {
      this.topic = topic;
    }

    @Override
    public void onText(WebSocket ws, String text) {
      long now = System.nanoTime();
      boolean first = flowingAt == 0 && openAt != 0;
      if (first) {
        flowingAt = now;
      }
      if (text.startsWith("- ")) {
        synchronized (this) {
          gaps++;
        }
        return;
      }
      int nl = text.indexOf('\n');
      String body = nl >= 0 ? text.substring(nl + 1) : text;
      int sp = body.indexOf(' ');
      if (sp < 0) {
        return;
      }
      int seq;
      long sent;
      try {
        seq = Integer.parseInt(body.substring(0, sp));
        sent = Long.parseLong(body.substring(sp + 1));
      } catch (NumberFormatException e) {
        return;
      }
      if (first) {
        firstSent = sent;
      }
      boolean again;
      synchronized (this) {
        again = got.get(seq);
        if (again) {
          duplicates++;
        } else {
          got.set(seq);
        }
      }
      if (!again) {
        synchronized (anyone[topic]) {
          anyone[topic].set(seq);
        }
        if (phase == 1) {
          during.add(now - sent);
        } else if (phase == 2) {
          after.add(now - sent);
        }
      }
    }
  }

  private void run() throws Exception {
    // What else ran on the machine, for the table's title: the figures are only as good as that.
    double loadAtStart =
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    Files.createDirectories(work);
    startEngine();
    for (int i = 0; i < 3; i++) {
      nodePorts[i] = freePort();
      startNode(i);
    }
    // The publisher comes through HAProxy's listener pinned to node 2, which is never the killed
    // one: where it sits does not depend on leastconn's tie-breaking (it did: on node 0, killed,
    // it stopped publishing while the clients were away, and nothing they missed was counted).
    haproxy = Haproxy.start(Files.createDirectories(work.resolve("haproxy")), "127.0.0.1",
        List.of(nodePorts[0], nodePorts[1], nodePorts[2]), clients + 10, true, true);

    System.err.printf(Locale.ROOT, "[resilience] %s, history %d, %d clients in %d topics, %d msg/s%n",
        engine, history, clients, topics, rate);
    URI uri = URI.create("ws://127.0.0.1:" + haproxy.port() + "/topics");
    ReconnectListener counting = new ReconnectListener() {
      @Override
      public void onReconnecting(WebSocket ws, int attempt, Duration delay, Throwable cause) {
        attempts.increment();
        if (ws.attachment() instanceof Client c) {
          long now = System.nanoTime();
          if (attempt == 1) {
            c.droppedAt = now;
            c.openAt = 0;
            c.flowingAt = 0;
          }
          c.attemptAt = now + delay.toNanos();
          c.down = true;
        }
      }

      @Override
      public void onReconnected(WebSocket ws, int tries) {
        if (ws.attachment() instanceof Client c) {
          c.openAt = System.nanoTime();
          c.down = false;
        }
      }
    };
    List<String> rows = new ArrayList<>();
    try (WebSocketClient client = WebSocketClient.builder()
        .config(WebSocketConfig.builder().deflate(null).build())
        .reconnect(ReconnectPolicy.builder().initialDelay(Duration.ofMillis(250))
            .maxDelay(Duration.ofSeconds(5)).build(), counting)
        .resumeTopics()
        .build();
        WebSocketClient pubClient = WebSocketClient.builder()
            .reconnect(ReconnectPolicy.builder().initialDelay(Duration.ofMillis(100))
                .maxDelay(Duration.ofSeconds(1)).build())
            .build()) {
      connectAll(client, uri);
      URI pinned = URI.create("ws://127.0.0.1:" + haproxy.pinnedPort() + "/topics");
      WebSocket publisher = pubClient.connect(pinned, new WebSocketListener() {}).get(30, TimeUnit.SECONDS);
      Thread pub = Thread.ofPlatform().daemon().name("publisher").start(() -> publish(publisher));
      publishing = true;
      awaitEveryoneHeard();
      if (scenarios.contains("kill")) {
        rows.add(scenario("node killed", () -> {
          long rss = rssMegabytes(nodes[0].pid()); // a process's memory goes before its sockets
          long k = System.nanoTime();
          kill(0, true);
          System.err.printf(Locale.ROOT, "[resilience] node 0 gone %d ms after SIGKILL (RSS %d MB)%n",
              (System.nanoTime() - k) / 1_000_000, rss);
        }, () -> startNode(0)));
      }
      if (scenarios.contains("rolling")) {
        rows.add(scenario("rolling restart", () -> {
          for (int i = 0; i < 3; i++) {
            kill(i, false); // SIGTERM: the node drains over --drain-window, then exits
            awaitNobodyDown(System.nanoTime());
            startNode(i);
          }
        }, () -> { }));
      }
      if (scenarios.contains("balancer")) {
        rows.add(scenario("balancer restarted", () -> {
          haproxy = haproxy.restart();
        }, () -> { }));
      }
      publishing = false;
      pub.interrupt();
    } finally {
      stopAll();
    }
    System.out.println();
    System.out.printf(Locale.ROOT, "wsjava, %s, history %s: %d clients, %d topics, %d msg/s"
        + " (load average %.1f at the start)%n", engine, history > 0 ? history : "off",
        clients, topics, rate, loadAtStart);
    System.out.println(HEADER);
    rows.forEach(System.out::println);
    System.out.println();
    System.out.println("Phases per client that dropped (ms, p50/p99/max):");
    phaseLines.forEach(l -> System.out.println("- " + l));
  }

  private final List<String> phaseLines = new ArrayList<>();

  /**
   * Where the recovery time of the clients that dropped after {@code t0} went, per client: the
   * wait before its last attempt (from the drop it noticed), that attempt's TCP connect and
   * handshake through the balancer, and from open to its first message (the resumed topics
   * flowing again); p50 / p99 / max in ms.
   */
  private String phases(long t0) {
    List<long[]> rows = new ArrayList<>();
    for (Client c : all) {
      long d = c.droppedAt;
      long a = c.attemptAt;
      long o = c.openAt;
      long f = c.flowingAt;
      if (d >= t0 && o > 0) {
        rows.add(new long[] {d - t0, a - d, o - a, f > 0 ? f - o : -1, o - t0});
      }
    }
    String[] names = {"drop noticed", "wait", "connect+handshake", "open to first message",
        "open (since the event)"};
    StringBuilder b = new StringBuilder(rows.size() + " clients;");
    for (int k = 0; k < names.length; k++) {
      int col = k;
      long[] v = rows.stream().mapToLong(r -> r[col]).filter(x -> x >= 0).sorted().toArray();
      b.append(' ').append(names[k]).append(' ');
      if (v.length == 0) {
        b.append('-');
      } else {
        b.append(String.format(Locale.ROOT, "%d/%d/%d", v[v.length / 2] / 1_000_000,
            v[(int) Math.min(v.length - 1, Math.ceil(v.length * 0.99) - 1)] / 1_000_000,
            v[v.length - 1] / 1_000_000));
      }
      b.append(k < names.length - 1 ? "," : "");
    }
    return b.toString();
  }

  /**
   * The publications the clients that dropped after {@code t0} could not have had without a
   * history: for each, those of its topic from the event to its open again (at this rate, one
   * topic's share); what a count of lost messages without history should come close to.
   */
  private String away(long t0) {
    double seconds = 0;
    int n = 0;
    List<Long> early = new ArrayList<>();
    for (Client c : all) {
      long o = c.openAt;
      if (c.droppedAt >= t0 && o > 0) {
        seconds += (o - t0) / 1e9;
        n++;
        if (c.flowingAt > 0 && c.firstSent != 0) {
          early.add(o - c.firstSent);
        }
      }
    }
    early.sort(null);
    return String.format(Locale.ROOT, "%d clients away %.0f s in all (event to open), about %.0f"
        + " publications of their topics at %.2f/s each", n, seconds, seconds * rate / topics,
        (double) rate / topics)
        + (early.isEmpty() ? "" : String.format(Locale.ROOT, "; their first message after open"
        + " was published %d/%d ms (p50/max) before the open", early.get(early.size() / 2)
        / 1_000_000, early.get(early.size() - 1) / 1_000_000));
  }

  interface Step {
    void run() throws Exception;
  }

  /** One scenario's window: a steady second, the event, recovery, the after window, then counts. */
  private String scenario(String name, Step event, Step then) throws Exception {
    System.err.println("[resilience] " + name);
    long[] from = new long[topics];
    for (int t = 0; t < topics; t++) {
      from[t] = nextSeq.get(t);
    }
    for (Client c : all) {
      synchronized (c) {
        c.duplicates = 0;
        c.gaps = 0;
      }
    }
    during.reset();
    after.reset();
    long attemptsBefore = attempts.sum();
    long unsentBefore = unsent.sum();
    long[] kernelBefore = ListenQueues.counters();
    java.util.Map<String, Integer> listeners = new java.util.LinkedHashMap<>();
    listeners.put("HAProxy", haproxy.port());
    for (int i = 0; i < 3; i++) {
      listeners.put("node" + i, nodePorts[i]);
    }
    ListenQueues queues = new ListenQueues(listeners);
    long[] cpuBefore = cpuTicks();
    long wallBefore = System.nanoTime();
    Thread.sleep(1000);
    AtomicInteger dropped = new AtomicInteger();
    Thread watcher = Thread.ofVirtual().start(() -> {
      // counts the clients that drop during the event
      java.util.Set<Client> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
      while (!Thread.currentThread().isInterrupted()) {
        for (Client c : all) {
          if (c.down && seen.add(c)) {
            dropped.incrementAndGet();
          }
        }
        try {
          Thread.sleep(5);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    phase = 1;
    queues.start(20);
    long[] stormBefore = stormTicks();
    long t0 = System.nanoTime();
    event.run();
    long recovered = awaitDrop(t0) ? awaitNobodyDown(t0) : -1;
    String stormCpu = stormCpu(stormBefore, stormTicks(), (System.nanoTime() - t0) / 1e9);
    String deepest = queues.stop();
    long flowing = recovered < 0 ? -1 : awaitFlowing(t0);
    phase = 2;
    Thread.sleep(afterSeconds * 1000L);
    watcher.interrupt();
    phase = 0;
    long[] to = new long[topics];
    for (int t = 0; t < topics; t++) {
      to[t] = nextSeq.get(t);
    }
    long[] cpuAfter = cpuTicks();
    double wall = (System.nanoTime() - wallBefore) / 1e9;
    // What was published by the end of the window and reached someone must reach everyone:
    // counted once it has (or after 15 s, what is still missing is lost).
    long settleEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    long lost;
    while ((lost = lost(from, to, false)) > 0 && System.nanoTime() < settleEnd) {
      Thread.sleep(100);
    }
    if (lost > 0) {
      lost(from, to, System.getenv("RESILIENCE_DEBUG") != null);
    }
    long dup = 0;
    long gaps = 0;
    for (Client c : all) {
      synchronized (c) {
        dup += c.duplicates;
        gaps += c.gaps;
      }
    }
    StringBuilder cpu = new StringBuilder();
    for (int i = 0; i < 3; i++) {
      cpu.append(i > 0 ? " / " : "").append(String.format(Locale.ROOT, "%.0f",
          100.0 * (cpuAfter[i] - cpuBefore[i]) / 100.0 / wall));
    }
    phaseLines.add(name + ": " + phases(t0));
    phaseLines.add(name + ": " + away(t0) + "; publisher could not send "
        + (unsent.sum() - unsentBefore));
    phaseLines.add(name + ": kernel " + ListenQueues.delta(kernelBefore, ListenQueues.counters())
        + "; deepest accept queue/backlog " + deepest);
    phaseLines.add(name + ": CPU from the event until nobody was down (% of one core) " + stormCpu);
    then.run();
    awaitNobodyDown(System.nanoTime());
    String recovery = recovered < 0 ? "not within 60 s" : Long.toString(recovered / 1_000_000);
    String receiving = flowing < 0 ? "not within 60 s" : Long.toString(flowing / 1_000_000);
    return String.format(Locale.ROOT, "| %s | %d | %s | %s | %d | %d | %d | %d | %s | %s | %s |",
        name, dropped.get(), recovery, receiving, lost, dup, gaps, attempts.sum() - attemptsBefore, during.p99(),
        after.p99(), cpu);
  }

  /**
   * Messages of the window [from, to) that reached some client of their topic but not each of
   * them.
   */
  private long lost(long[] from, long[] to, boolean tell) {
    long lost = 0;
    for (Client c : all) {
      BitSet reached;
      synchronized (anyone[c.topic]) {
        reached = (BitSet) anyone[c.topic].clone();
      }
      synchronized (c) {
        long before = lost;
        StringBuilder which = new StringBuilder();
        for (long s = from[c.topic]; s < to[c.topic]; s++) {
          if (reached.get((int) s) && !c.got.get((int) s)) {
            lost++;
            if (which.length() < 200) {
              which.append(s).append(' ');
            }
          }
        }
        if (tell && lost > before) {
          System.err.println("[resilience] t" + c.topic + " lost " + (lost - before) + ": " + which
              + "of " + from[c.topic] + ".." + to[c.topic] + ", gaps " + c.gaps);
        }
      }
    }
    return lost;
  }

  /**
   * Waits until every client that dropped after {@code t0} has received a message since it
   * reconnected (what it missed, replayed, or with no history the next live one); returns the
   * nanoseconds from {@code t0} to the last of those first messages, or -1 past 60 s.
   */
  private long awaitFlowing(long t0) throws InterruptedException {
    long end = t0 + SETTLE_NANOS;
    while (System.nanoTime() < end) {
      long last = 0;
      boolean all = true;
      for (Client c : this.all) {
        if (c.droppedAt >= t0) {
          long f = c.flowingAt;
          if (f == 0) {
            all = false;
            break;
          }
          last = Math.max(last, f - t0);
        }
      }
      if (all) {
        return last;
      }
      Thread.sleep(5);
    }
    return -1;
  }

  /**
   * Waits (up to 10 s) until some client has noticed the event: on a loaded machine the drops
   * can come later than {@link #awaitNobodyDown} would look. False when none did.
   */
  private boolean awaitDrop(long t0) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10); // after the event's own time
    do {
      for (Client c : all) {
        if (c.down || c.droppedAt >= t0) {
          return true;
        }
      }
      Thread.sleep(5);
    } while (System.nanoTime() < end);
    return false;
  }

  /** Waits until no client is down; returns the nanoseconds since {@code t0}, or -1 past 60 s. */
  private long awaitNobodyDown(long t0) throws InterruptedException {
    Thread.sleep(300); // the drops of the event are seen first
    long end = t0 + SETTLE_NANOS;
    while (System.nanoTime() < end) {
      boolean any = false;
      for (Client c : all) {
        if (c.down) {
          any = true;
          break;
        }
      }
      if (!any) {
        return System.nanoTime() - t0;
      }
      Thread.sleep(5);
    }
    return -1;
  }

  private void connectAll(WebSocketClient client, URI base) throws Exception {
    Semaphore inFlight = new Semaphore(200);
    AtomicInteger failed = new AtomicInteger();
    for (int i = 0; i < clients; i++) {
      Client c = new Client(i / PER_TOPIC);
      all.add(c);
      inFlight.acquire();
      client.connect(URI.create(base + "?sub=t" + c.topic), c).whenComplete((ws, e) -> {
        inFlight.release();
        if (e != null) {
          failed.incrementAndGet();
        } else {
          ws.attach(c);
        }
      });
    }
    inFlight.acquire(200);
    if (failed.get() > 0) {
      throw new IllegalStateException(failed.get() + " clients could not connect");
    }
    System.err.println("[resilience] " + clients + " clients connected");
  }

  private void awaitEveryoneHeard() throws InterruptedException {
    long end = System.nanoTime() + SETTLE_NANOS;
    while (System.nanoTime() < end) {
      boolean all = true;
      for (Client c : this.all) {
        synchronized (c) {
          if (c.got.isEmpty()) {
            all = false;
            break;
          }
        }
      }
      if (all) {
        return;
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("not every client received a message within 60 s");
  }

  /** Sends {@code rate} messages a second, round robin over the topics, each "t<k> seq nanos". */
  private void publish(WebSocket publisher) {
    long interval = 1_000_000_000L / rate;
    long next = System.nanoTime();
    int t = 0;
    while (!Thread.currentThread().isInterrupted()) {
      long wait = next - System.nanoTime();
      if (wait > 0) {
        java.util.concurrent.locks.LockSupport.parkNanos(wait);
        continue;
      }
      next += interval;
      if (!publishing) {
        continue;
      }
      long seq = nextSeq.getAndIncrement(t);
      try {
        publisher.sendText("t" + t + " " + seq + " " + System.nanoTime())
            .exceptionally(e -> {
              unsent.increment(); // disconnected: not published (no client can have it)
              return null;
            });
      } catch (RuntimeException e) {
        unsent.increment();
      }
      t = (t + 1) % topics;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Processes

  private String engineUri;

  private void startEngine() throws Exception {
    int port = freePort();
    Path log = work.resolve(engine + ".log");
    if (engine.equals("redis")) {
      engineProcess = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind",
          "127.0.0.1", "--save", "", "--appendonly", "no").redirectErrorStream(true)
          .redirectOutput(log.toFile()).start();
      engineUri = "redis://127.0.0.1:" + port;
    } else {
      Path store = Files.createTempDirectory(work, "nats-store");
      engineProcess = new ProcessBuilder(natsServer(), "-a", "127.0.0.1", "-p",
          Integer.toString(port), "-js", "-sd", store.toString()).redirectErrorStream(true)
          .redirectOutput(log.toFile()).start();
      engineUri = "nats://127.0.0.1:" + port;
    }
    awaitPort(port, engineProcess, log);
  }

  private static String natsServer() {
    return Files.isExecutable(Path.of("/usr/sbin/nats-server")) ? "/usr/sbin/nats-server" : "nats-server";
  }

  private void startNode(int i) throws Exception {
    Path log = work.resolve("node" + i + ".log");
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> cmd = new ArrayList<>(List.of(java, "-Xmx768m"));
    // More JVM options for the nodes, e.g. a JFR recording or -XX:+UseTransparentHugePages
    String more = System.getenv("RESILIENCE_NODE_OPTS");
    if (more != null && !more.isBlank()) {
      cmd.addAll(List.of(more.trim().replace("{node}", Integer.toString(i)).split("\\s+")));
    }
    cmd.addAll(List.of("-jar", serveJar, "serve",
        "--port", Integer.toString(nodePorts[i]), "--cluster", engineUri,
        "--history", Integer.toString(history), "--resume-key", "resilience-benchmark-key",
        // every simulated client has the same address, 127.0.0.1: no per-address caps
        "--max-per-address", "0", "--handshake-rate", "0",
        // the balancer sends each node a PROXY protocol v2 header (see Haproxy.config)
        "--proxy-protocol",
        // SIGTERM drains: 1012 to every client, spread over the window, as a rolling deploy does
        "--drain-window", drainWindow.toMillis() + "ms"));
    nodes[i] = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    awaitPort(nodePorts[i], nodes[i], log);
  }

  /** Stops node {@code i}: SIGKILL, or SIGTERM (it closes its connections) and waits. */
  private void kill(int i, boolean hard) throws InterruptedException {
    cpuTicksDone[i] += ticks(nodes[i].pid());
    if (hard) {
      nodes[i].destroyForcibly();
    } else {
      nodes[i].destroy();
    }
    if (!nodes[i].waitFor(30, TimeUnit.SECONDS)) {
      nodes[i].destroyForcibly();
    }
  }

  private static void awaitPort(int port, Process p, Path log) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(180); // a JVM on a busy machine
    while (true) {
      try {
        new Socket(InetAddress.getLoopbackAddress(), port).close();
        return;
      } catch (IOException notYet) {
        if (!p.isAlive() || System.nanoTime() > end) {
          p.destroyForcibly();
          throw new IllegalStateException("a process did not listen on " + port + "; see " + log);
        }
        Thread.sleep(20);
      }
    }
  }

  /** CPU ticks of HAProxy, the clients (this process), each node and the engine. */
  private long[] stormTicks() {
    long[] n = cpuTicks();
    return new long[] {ticks(haproxy.pid()), ticks(ProcessHandle.current().pid()), n[0], n[1], n[2],
        ticks(engineProcess.pid())};
  }

  private static String stormCpu(long[] before, long[] after, double seconds) {
    String[] names = {"HAProxy", "clients", "node0", "node1", "node2", "engine"};
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < names.length; i++) {
      // a restarted HAProxy is a new process: its ticks start from 0
      long d = after[i] >= before[i] ? after[i] - before[i] : after[i];
      b.append(i > 0 ? ", " : "").append(names[i]).append(' ')
          .append(String.format(Locale.ROOT, "%.0f", d / seconds));
    }
    return b.toString();
  }

  private long[] cpuTicks() {
    long[] t = new long[3];
    for (int i = 0; i < 3; i++) {
      t[i] = cpuTicksDone[i] + (nodes[i] != null && nodes[i].isAlive() ? ticks(nodes[i].pid()) : 0);
    }
    return t;
  }

  /**
   * The descriptors a process may open here: this JVM's limit, which it raised to the hard limit
   * at start (as HAProxy raises its own to what its maxconn needs, up to the same hard limit).
   */
  private static long descriptorLimit() {
    return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.UnixOperatingSystemMXBean u
        ? u.getMaxFileDescriptorCount() : 20_000;
  }

  /** The resident memory of a process in MB, -1 when unknown. */
  private static long rssMegabytes(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // unknown
    }
    return -1;
  }

  /** utime + stime of a process, in clock ticks (100 a second on Linux). */
  private static long ticks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  private void stopAll() {
    if (haproxy != null) {
      haproxy.close();
    }
    for (Process p : nodes) {
      if (p != null) {
        p.destroyForcibly();
      }
    }
    if (engineProcess != null) {
      engineProcess.destroyForcibly();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
