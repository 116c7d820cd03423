package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.wsjava.ReconnectListener;
import dev.wsjava.cli.balancer.Haproxy;
import dev.wsjava.ReconnectPolicy;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketListener;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Three {@code wsjava serve --cluster --history} processes (Redis, then NATS JetStream) behind a
 * real HAProxy; six reconnecting clients in three topics each, spread over the nodes. One node is
 * killed (SIGKILL) while messages flow: its clients reconnect through HAProxy to the others,
 * resume every topic, and every client has every message of every topic once and in order.
 */
class ServeResumeTest {
  private static final List<String> TOPICS = List.of("t0", "t1", "t2");
  private static final int CLIENTS = 6;
  private static final int PER_TOPIC = 300;

  /** A {@code wsjava serve} child process on a port of its own. */
  static final class Node implements AutoCloseable {
    final int port;
    final Process process;

    Node(String cluster) throws Exception {
      try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1,
          java.net.InetAddress.getLoopbackAddress())) {
        port = free.getLocalPort();
      }
      Process started = null;
      // On a loaded machine the node's first connection to the engine can time out (jnats waits
      // 2 s): that start is retried, at most three times in all.
      for (int attempt = 1; started == null; attempt++) {
        try {
          started = start(cluster);
        } catch (java.util.concurrent.ExecutionException e) {
          if (attempt == 3 || !String.valueOf(e.getCause().getMessage()).contains("cannot connect")) {
            throw e;
          }
        }
      }
      process = started;
    }

    private Process start(String cluster) throws Exception {
      Process process = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(),
          "-Xmx256m", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
          "serve", "--port", Integer.toString(port), "--cluster", cluster, "--history", "10000",
          "--resume-key", "a key the three nodes share")
          .redirectErrorStream(true).start();
      CompletableFuture<Void> ready = new CompletableFuture<>();
      StringBuilder said = new StringBuilder();
      Thread.ofVirtual().start(() -> {
        try (BufferedReader r = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
          String line;
          while ((line = r.readLine()) != null) {
            said.append(line).append('\n');
            if (line.contains("/topics")) {
              ready.complete(null);
            }
          }
          ready.completeExceptionally(new IllegalStateException("serve exited:\n" + said));
        } catch (Exception e) {
          ready.completeExceptionally(e);
        }
      });
      try {
        ready.get(60, TimeUnit.SECONDS);
      } catch (Exception e) {
        process.destroyForcibly();
        throw e;
      }
      return process;
    }

    void kill() throws InterruptedException {
      process.destroyForcibly();
      process.waitFor(20, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
  }

  /** One client's messages per topic (the payloads after the "ID topic" line), and its gaps. */
  static final class Subscriber implements WebSocketListener {
    final Map<String, List<String>> byTopic = new ConcurrentHashMap<>();
    final List<String> gaps = new CopyOnWriteArrayList<>();

    @Override
    public void onText(WebSocket ws, String text) {
      int sp = text.indexOf(' ');
      int nl = text.indexOf('\n');
      if (sp < 0 || nl < sp) {
        return;
      }
      String topic = text.substring(sp + 1, nl);
      if (text.startsWith("- ")) {
        gaps.add(topic);
      } else {
        byTopic.computeIfAbsent(topic, k -> new CopyOnWriteArrayList<>()).add(text.substring(nl + 1));
      }
    }

    boolean has(String topic, String payload) {
      return byTopic.getOrDefault(topic, List.of()).contains(payload);
    }

    /** The numbered messages of a topic, probes left out. */
    List<String> numbered(String topic) {
      return byTopic.getOrDefault(topic, List.of()).stream()
          .filter(p -> !p.startsWith("probe")).toList();
    }
  }

  private static void await(String what, BooleanSupplier done) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!done.getAsBoolean()) {
      assertThat(System.nanoTime() < end).as(what).isTrue();
      Thread.sleep(10);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"redis", "nats"})
  void clientsOfAKilledNodeResumeEveryTopicElsewhereWithEveryMessageOnceInOrder(String kind) {
    assertTimeoutPreemptively(Duration.ofSeconds(150), () -> {
      java.util.concurrent.atomic.AtomicInteger reconnected = new java.util.concurrent.atomic.AtomicInteger();
      ReconnectListener counting = new ReconnectListener() {
        @Override
        public void onReconnected(WebSocket ws, int attempts) {
          reconnected.incrementAndGet();
        }
      };
      try (ClusterHistoryTest.Engine engine = new ClusterHistoryTest.Engine(kind);
          Node a = new Node(engine.uri);
          Node b = new Node(engine.uri);
          Node c = new Node(engine.uri);
          Haproxy lb = Haproxy.start(
              java.nio.file.Files.createDirectories(java.nio.file.Path.of("target", "haproxy-" + kind)),
              "127.0.0.1", List.of(a.port, b.port, c.port), 1000, false); // publisher: to C direct
          WebSocketClient client = WebSocketClient.builder()
              .reconnect(ReconnectPolicy.builder().initialDelay(Duration.ofMillis(50))
                  .maxDelay(Duration.ofMillis(500)).build(), counting)
              .resumeTopics()
              .build()) {
        URI through = URI.create("ws://127.0.0.1:" + lb.port() + "/topics?sub=" + String.join(",", TOPICS));
        List<Subscriber> subscribers = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
          Subscriber s = new Subscriber();
          client.connect(through, s).get(20, TimeUnit.SECONDS);
          subscribers.add(s);
        }
        // The publisher talks to C, which stays up; probes until every subscriber hears each topic.
        WebSocket publisher = WebSocketClient.builder().build()
            .open(URI.create("ws://127.0.0.1:" + c.port + "/topics"));
        for (int p = 0; !allHeard(subscribers, p - 1); p++) {
          assertThat(p).as("the nodes link through " + kind).isLessThan(300);
          for (String t : TOPICS) {
            publisher.sendText(t + " probe" + p).join();
          }
          Thread.sleep(50);
        }
        Thread flow = Thread.ofVirtual().start(() -> {
          for (int i = 0; i < PER_TOPIC; i++) {
            for (String t : TOPICS) {
              publisher.sendText(t + " " + i).join();
            }
            try {
              Thread.sleep(3);
            } catch (InterruptedException e) {
              return;
            }
          }
        });
        await("messages flow", () -> subscribers.stream().allMatch(s -> s.has("t2", "20")));
        a.kill();
        assertThat(flow.isAlive()).as("killed while messages flowed").isTrue();
        flow.join();
        String last = Integer.toString(PER_TOPIC - 1);
        await("every subscriber has the last of every topic", () -> subscribers.stream()
            .allMatch(s -> TOPICS.stream().allMatch(t -> s.has(t, last))));
        assertThat(reconnected.get()).as("the clients of the killed node came back elsewhere")
            .isPositive();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < PER_TOPIC; i++) {
          expected.add(Integer.toString(i));
        }
        for (int i = 0; i < CLIENTS; i++) {
          for (String t : TOPICS) {
            assertThat(subscribers.get(i).numbered(t)).as("client " + i + ", " + t)
                .containsExactlyElementsOf(expected);
          }
          assertThat(subscribers.get(i).gaps).as("client " + i).isEmpty();
        }
        publisher.abort();
      }
    });
  }

  private static boolean allHeard(List<Subscriber> subscribers, int probe) {
    return probe >= 0 && subscribers.stream()
        .allMatch(s -> TOPICS.stream().allMatch(t -> s.has(t, "probe" + probe)));
  }
}
