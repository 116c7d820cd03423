package dev.wsjava.bench;

import dev.wsjava.Topics;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import dev.wsjava.cluster.redis.RedisBackplane;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Cross-node latency through Redis: K wsjava nodes (one JVM, one event loop each, a Topics with a
 * RedisBackplane) and one redis-server of its own; one WebSocket subscriber per node. Node 0
 * publishes one 300-byte message at a time; each of the other nodes' subscribers records the time
 * from publish to receive, and the next message goes once all have it.
 *
 * <p>Command line: {@code K MESSAGES}. Prints p50/p99 and this JVM's CPU per message (redis-server
 * not included).
 */
public final class ClusterLatencyBench {
  private ClusterLatencyBench() {}

  /**
   * Runs the command line.
   *
   * @param args K and MESSAGES
   * @throws Exception when Redis or a node fails
   */
  public static void main(String[] args) throws Exception {
    int k = Integer.parseInt(args[0]);
    int messages = Integer.parseInt(args[1]);
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Process redis = new ProcessBuilder("redis-server", "--port", Integer.toString(port),
        "--bind", "127.0.0.1", "--save", "", "--appendonly", "no").redirectErrorStream(true).start();
    List<AutoCloseable> open = new ArrayList<>();
    try (BufferedReader log = new BufferedReader(
        new InputStreamReader(redis.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = log.readLine()) != null && !line.contains("Ready to accept")) {
        // starting
      }
      run(k, messages, "redis://127.0.0.1:" + port, open);
    } finally {
      for (AutoCloseable c : open.reversed()) {
        try {
          c.close();
        } catch (Exception e) {
          System.err.println("closing: " + e);
        }
      }
      redis.destroyForcibly();
    }
    System.out.flush();
    System.exit(0); // the Redis client's threads would keep the JVM up
  }

  private static void run(int k, int messages, String uri, List<AutoCloseable> open)
      throws Exception {
    List<Topics> nodes = new ArrayList<>();
    AtomicReference<CountDownLatch> all = new AtomicReference<>();
    long[] latencies = new long[messages * (k - 1)];
    int[] n = {0};
    WebSocketClient client = WebSocketClient.builder()
        .config(WebSocketConfig.builder().deflate(null).eventLoops(1).build()).build();
    open.add(client);
    for (int i = 0; i < k; i++) {
      Topics topics = Topics.builder().backplane(RedisBackplane.builder().uri(uri).build()).build();
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
      boolean remote = i > 0;
      CountDownLatch joined = new CountDownLatch(1);
      client.connect(URI.create("ws://127.0.0.1:" + server.port() + "/feed"), new WebSocketListener() {
        @Override
        public void onText(WebSocket ws, String text) {
          if (text.equals("joined")) {
            joined.countDown();
            return;
          }
          long now = System.nanoTime();
          if (remote && text.startsWith("t")) {
            synchronized (latencies) {
              if (n[0] < latencies.length) {
                latencies[n[0]++] = now - Long.parseLong(text.substring(1, 20));
              }
            }
          }
          if (remote) {
            all.get().countDown();
          }
        }
      }).get(10, TimeUnit.SECONDS);
      if (!joined.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("node " + i + " did not take its subscriber");
      }
    }
    // Until every node has its Redis subscription: probes.
    for (int tries = 0; ; tries++) {
      all.set(new CountDownLatch(k - 1));
      nodes.get(0).publishText("feed", "probe");
      if (all.get().await(200, TimeUnit.MILLISECONDS)) {
        break;
      }
      if (tries > 100) {
        throw new IllegalStateException("the nodes did not link through Redis");
      }
    }
    String pad = "x".repeat(300 - 20);
    for (int round = 0; round < 2; round++) {
      int count = round == 0 ? messages / 5 : messages;
      n[0] = 0;
      long cpu0 = cpu();
      long t0 = System.nanoTime();
      for (int m = 0; m < count; m++) {
        all.set(new CountDownLatch(k - 1));
        nodes.get(0).publishText("feed",
            "t" + String.format(Locale.ROOT, "%019d", System.nanoTime()) + pad);
        if (!all.get().await(10, TimeUnit.SECONDS)) {
          throw new IllegalStateException("message " + m + " did not reach every node");
        }
      }
      long elapsed = System.nanoTime() - t0;
      long cpuUsed = cpu() - cpu0;
      if (round == 1) {
        long[] l;
        synchronized (latencies) {
          l = Arrays.copyOf(latencies, n[0]);
        }
        Arrays.sort(l);
        System.out.printf(Locale.ROOT,
            "cluster nodes=%d messages=%d size=300: publish on node 0 to a subscriber on another"
                + " node p50 %.0f us p99 %.0f us; %.0f messages/s one at a time; JVM CPU %.0f us"
                + " per message (all nodes and clients, not redis-server)%n",
            k, count, l[l.length / 2] / 1e3, l[(int) (l.length * 0.99)] / 1e3,
            count / (elapsed / 1e9), cpuUsed / 1e3 / count);
      }
    }
  }

  private static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean)
        ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }
}
