package dev.wsjava.bench;

import dev.wsjava.Topics;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import dev.wsjava.cluster.nats.NatsBackplane;
import dev.wsjava.cluster.redis.RedisBackplane;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Cluster throughput: K wsjava nodes (one JVM, one event loop each, a {@link Topics} with a Redis
 * or NATS backplane) and one broker process of their own, S WebSocket subscribers per node on one
 * topic. Every node publishes M 300-byte messages from its own thread at once, with at most
 * {@link #WINDOW} messages per node not yet delivered to every subscriber in the cluster; each
 * message reaches all K x S subscribers (its own node's directly, the others' through the broker).
 *
 * <p>Prints the deliveries per second across the cluster, the messages per second published, this
 * JVM's CPU per delivery (nodes and clients) and the broker's CPU per message (from /proc). All of
 * it shares the machine's cores: on a 2-core machine the figure says what a node, a broker hop and
 * its subscribers cost, not how a cluster of machines scales.
 *
 * <p>Command line: {@code redis|nats K S M}.
 */
public final class ClusterThroughputBench {
  private static final int SIZE = 300;
  private static final int WINDOW = 32;

  private ClusterThroughputBench() {}

  /**
   * Runs the command line.
   *
   * @param args the engine, K, S and M
   * @throws Exception when the broker or a node fails
   */
  public static void main(String[] args) throws Exception {
    String engine = args[0];
    int k = Integer.parseInt(args[1]);
    int s = Integer.parseInt(args[2]);
    int m = Integer.parseInt(args[3]);
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    boolean nats = engine.equals("nats");
    Process broker = (nats
        ? new ProcessBuilder(natsServer(), "-a", "127.0.0.1", "-p", Integer.toString(port))
        : new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind",
            "127.0.0.1", "--save", "", "--appendonly", "no"))
        .redirectErrorStream(true).start();
    List<AutoCloseable> open = new ArrayList<>();
    try (BufferedReader log = new BufferedReader(
        new InputStreamReader(broker.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      String ready = nats ? "Server is ready" : "Ready to accept";
      while ((line = log.readLine()) != null && !line.contains(ready)) {
        // starting
      }
      Thread.ofPlatform().daemon().start(() -> {
        try {
          while (log.readLine() != null) {
            // drained, so the broker never blocks on its log
          }
        } catch (IOException ignored) {
          // it stopped
        }
      });
      String url = (nats ? "nats://" : "redis://") + "127.0.0.1:" + port;
      run(engine, k, s, m, url, broker.pid(), open);
    } finally {
      for (AutoCloseable c : open.reversed()) {
        try {
          c.close();
        } catch (Exception e) {
          System.err.println("closing: " + e);
        }
      }
      broker.destroyForcibly();
    }
    System.out.flush();
    System.exit(0); // the broker clients' threads would keep the JVM up
  }

  private static String natsServer() {
    for (String p : List.of("/usr/bin/nats-server", "/usr/sbin/nats-server")) {
      if (Files.isExecutable(Path.of(p))) {
        return p;
      }
    }
    return "nats-server";
  }

  private static void run(String engine, int k, int s, int m, String url, long brokerPid,
      List<AutoCloseable> open) throws Exception {
    AtomicLong received = new AtomicLong();
    List<Topics> nodes = new ArrayList<>();
    WebSocketClient client = WebSocketClient.builder()
        .config(WebSocketConfig.builder().deflate(null).eventLoops(1).build()).build();
    open.add(client);
    for (int i = 0; i < k; i++) {
      Topics topics = Topics.builder().backplane(url.startsWith("nats")
          ? NatsBackplane.builder().url(url).build()
          : RedisBackplane.builder().uri(url).build()).build();
      open.add(topics);
      nodes.add(topics);
      WebSocketServer server = WebSocketServer.builder().bind("127.0.0.1", 0)
          .config(WebSocketConfig.builder().deflate(null).eventLoops(1).build())
          .websocket("/feed", new WebSocketListener() {
            @Override
            public void onOpen(WebSocket ws) {
              topics.subscribe(ws, "feed");
              ws.sendText("joined");
            }
          })
          .start();
      open.add(server);
      CountDownLatch joined = new CountDownLatch(s);
      for (int j = 0; j < s; j++) {
        client.connect(URI.create("ws://127.0.0.1:" + server.port() + "/feed"),
            new WebSocketListener() {
              @Override
              public void onText(WebSocket ws, String text) {
                if (text.equals("joined")) {
                  joined.countDown();
                } else {
                  received.incrementAndGet();
                }
              }
            }).get(10, TimeUnit.SECONDS);
      }
      if (!joined.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("node " + i + " did not take its subscribers");
      }
    }
    long perMessage = (long) k * s;
    // Until every node has its broker subscription: a probe from each node reaches everyone.
    for (int tries = 0; ; tries++) {
      long before = received.get();
      for (Topics node : nodes) {
        node.publishText("feed", "probe");
      }
      long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
      while (received.get() - before < k * perMessage && System.nanoTime() < until) {
        LockSupport.parkNanos(100_000);
      }
      if (received.get() - before == k * perMessage) {
        break;
      }
      if (tries > 40) {
        throw new IllegalStateException("the nodes did not link through " + engine);
      }
    }
    String body = "x".repeat(SIZE);
    for (int round = 0; round < 2; round++) {
      int count = round == 0 ? Math.max(1, m / 5) : m; // warm-up, then the measured round
      long start = received.get();
      long expected = (long) count * k * perMessage;
      AtomicLong published = new AtomicLong();
      long cpu0 = cpu();
      long broker0 = brokerCpu(brokerPid);
      long t0 = System.nanoTime();
      List<Thread> publishers = new ArrayList<>();
      for (Topics node : nodes) {
        publishers.add(Thread.ofPlatform().start(() -> {
          for (int i = 0; i < count; i++) {
            // at most WINDOW messages per node in flight, counted cluster-wide
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while ((published.get() - k * (long) WINDOW) * perMessage
                > received.get() - start) {
              if (System.nanoTime() > deadline) {
                throw new IllegalStateException("deliveries stopped");
              }
              LockSupport.parkNanos(50_000); // not a spin: the CPU figures are the nodes'
            }
            published.incrementAndGet();
            node.publishText("feed", body);
          }
        }));
      }
      for (Thread t : publishers) {
        t.join();
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (received.get() - start < expected && System.nanoTime() < deadline) {
        LockSupport.parkNanos(100_000);
      }
      long elapsed = System.nanoTime() - t0;
      long got = received.get() - start;
      long cpuUsed = cpu() - cpu0;
      long brokerUsed = brokerCpu(brokerPid) - broker0;
      if (round == 1) {
        System.out.printf(Locale.ROOT,
            "cluster %s nodes=%d subscribers/node=%d messages/node=%d size=%d: %,.0f deliveries/s,"
                + " %,.0f messages/s published; JVM CPU %.0f ns/delivery (%.2f cores), %s CPU"
                + " %.1f us/message; delivered %d of %d%n",
            engine, k, s, count, SIZE, got / (elapsed / 1e9), count * k / (elapsed / 1e9),
            (double) cpuUsed / got, cpuUsed / (double) elapsed, engine,
            brokerUsed / 1e3 / (count * (double) k), got, expected);
      }
    }
  }

  private static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean)
        ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** The broker's user+system CPU in nanoseconds, from /proc (clock ticks of 10 ms). */
  private static long brokerCpu(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
  }
}
