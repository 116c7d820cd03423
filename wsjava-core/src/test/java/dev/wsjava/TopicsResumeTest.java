package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Resuming every subscription across nodes (Topics.resume, the client's resumeTopics): two nodes
 * share an in-memory backplane with a history; a reconnecting client in three topics is cut off
 * from its node while messages flow, comes back through the same address to the other node, and
 * has every message of every topic once and in order.
 */
class TopicsResumeTest {
  private static final byte[] KEY = "a key every node shares, 16+ b".getBytes(StandardCharsets.UTF_8);
  private static final List<String> TOPICS = List.of("a", "b", "c d");

  /** A history in memory shared by the nodes: ids "N", one order over all topics. */
  static final class Hub implements AutoCloseable {
    final Map<String, List<Topics.Backplane.Entry>> history = new ConcurrentHashMap<>();
    final List<Topics> nodes = new CopyOnWriteArrayList<>();
    final ExecutorService carrier = Executors.newSingleThreadExecutor(); // delivery, in order
    final int keep;
    long next; // guarded by this

    Hub(int keep) {
      this.keep = keep;
    }

    Topics.Backplane node() {
      return new Topics.Backplane() {
        @Override
        public void start(Topics topics) {
          nodes.add(topics);
        }

        @Override
        public void subscribe(String topic) {}

        @Override
        public void unsubscribe(String topic) {}

        @Override
        public void publish(String topic, boolean text, ByteBuffer payload) {
          ByteBuffer copy = ByteBuffer.allocate(payload.remaining()).put(payload.duplicate()).flip();
          Topics.Backplane.Entry e;
          synchronized (Hub.this) {
            e = new Topics.Backplane.Entry(Long.toString(++next), text, copy);
            List<Topics.Backplane.Entry> h =
                history.computeIfAbsent(topic, k -> new CopyOnWriteArrayList<>());
            h.add(e);
            if (h.size() > keep) {
              h.remove(0);
            }
          }
          carrier.execute(() -> {
            for (Topics n : nodes) {
              n.publishLocal(topic, e.id(), text, e.payload().duplicate());
            }
          });
        }

        @Override
        public void close() {}

        @Override
        public boolean keepsHistory() {
          return true;
        }

        @Override
        public CompletableFuture<List<Entry>> history(String topic, String lastId) {
          synchronized (Hub.this) {
            List<Entry> h = history.getOrDefault(topic, List.of());
            for (int i = 0; i < h.size(); i++) {
              if (h.get(i).id().equals(lastId)) {
                return CompletableFuture.completedFuture(new ArrayList<>(h.subList(i + 1, h.size())));
              }
            }
            return CompletableFuture.completedFuture(null);
          }
        }

        @Override
        public int compareIds(String a, String b) {
          return Long.compare(Long.parseLong(a), Long.parseLong(b));
        }
      };
    }

    @Override
    public void close() {
      carrier.shutdownNow();
    }
  }

  /** A node: /t resumes what the token names, then subscribes to the topics of ?topics=. */
  static final class Node implements AutoCloseable {
    final Topics topics;
    final WebSocketServer server;
    final LinkedBlockingQueue<Boolean> resumed = new LinkedBlockingQueue<>();

    Node(Transport t, Topics.Backplane backplane, AtomicLong clock) throws IOException {
      topics = Topics.builder().backplane(backplane).resume(KEY, Duration.ofMinutes(1))
          .clock(clock::get).build();
      server = WebSocketServer.builder().bind("127.0.0.1", 0)
          .config(WebSocketConfig.builder().transport(t).deflate(null).build())
          .websocket("/t", new WebSocketListener() {
            @Override
            public void onOpen(WebSocket ws) {
              topics.resume(ws).thenAccept(resumed::add);
              for (String topic : TOPICS) {
                topics.subscribe(ws, topic);
              }
            }
          })
          .start();
    }

    @Override
    public void close() {
      server.close();
      topics.close();
    }
  }

  /** Forwards TCP connections to the node it points at; cuts them all at once, as a crash does. */
  static final class Balancer implements AutoCloseable {
    final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    final List<Socket> open = new CopyOnWriteArrayList<>();
    volatile int target;

    Balancer(int target) throws IOException {
      this.target = target;
      Thread.ofVirtual().start(() -> {
        while (!listener.isClosed()) {
          try {
            Socket in = listener.accept();
            Socket out = new Socket(InetAddress.getLoopbackAddress(), this.target);
            open.add(in);
            open.add(out);
            pipe(in, out);
            pipe(out, in);
          } catch (IOException e) {
            // closed, or the node is gone: the client's attempt fails and it tries again
          }
        }
      });
    }

    private void pipe(Socket from, Socket to) {
      Thread.ofVirtual().start(() -> {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
          in.transferTo(out);
        } catch (IOException e) {
          // cut
        } finally {
          closeQuietly(from);
          closeQuietly(to);
        }
      });
    }

    /** Points at {@code port} and cuts every connection open now. */
    void failOver(int port) {
      target = port;
      for (Socket s : open) {
        closeQuietly(s);
      }
      open.clear();
    }

    URI uri() {
      return URI.create("ws://127.0.0.1:" + listener.getLocalPort() + "/t");
    }

    @Override
    public void close() {
      closeQuietly(listener);
      failOver(target);
    }

    private static void closeQuietly(AutoCloseable c) {
      try {
        c.close();
      } catch (Exception e) {
        // closing
      }
    }
  }

  /** What a client's listener got, per topic: the payloads after the "id topic" line. */
  static final class Received implements WebSocketListener {
    final Map<String, List<String>> byTopic = new ConcurrentHashMap<>();
    final List<String> gaps = new CopyOnWriteArrayList<>();
    final List<String> others = new CopyOnWriteArrayList<>();

    @Override
    public void onText(WebSocket ws, String text) {
      int sp = text.indexOf(' ');
      int nl = text.indexOf('\n');
      if (sp < 0 || nl < sp) {
        others.add(text);
      } else if (text.startsWith("- ")) {
        gaps.add(text.substring(sp + 1, nl));
      } else {
        byTopic.computeIfAbsent(text.substring(sp + 1, nl), k -> new CopyOnWriteArrayList<>())
            .add(text.substring(nl + 1));
      }
    }

    boolean has(String topic, String payload) {
      return byTopic.getOrDefault(topic, List.of()).contains(payload);
    }
  }

  private static void await(String what, java.util.function.BooleanSupplier done)
      throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!done.getAsBoolean()) {
      assertThat(System.nanoTime() < end).as(what).isTrue();
      Thread.sleep(5);
    }
  }

  private static WebSocketClient reconnectingClient(Transport t) {
    return WebSocketClient.builder()
        .config(WebSocketConfig.builder().transport(t).deflate(null).build())
        .reconnect(ReconnectPolicy.builder().initialDelay(Duration.ofMillis(20))
            .maxDelay(Duration.ofMillis(200)).build())
        .resumeTopics()
        .build();
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aClientCutOffFromItsNodeResumesEveryTopicOnAnotherWithEveryMessageOnceInOrder(Transport t) {
    assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
      AtomicLong clock = new AtomicLong(System.currentTimeMillis());
      int perTopic = 1000;
      try (Hub hub = new Hub(10_000);
          Node a = new Node(t, hub.node(), clock);
          Node b = new Node(t, hub.node(), clock);
          Balancer lb = new Balancer(a.server.port());
          WebSocketClient client = reconnectingClient(t)) {
        Received got = new Received();
        client.connect(lb.uri(), got).get(10, TimeUnit.SECONDS);
        await("subscribed on a", () -> TOPICS.stream().allMatch(x -> a.topics.subscribers(x) == 1));
        Thread publisher = Thread.ofVirtual().start(() -> {
          for (int i = 0; i < perTopic; i++) {
            for (String topic : TOPICS) {
              (i % 2 == 0 ? a : b).topics.publishText(topic, Integer.toString(i));
            }
            if (i % 2 == 0) {
              try {
                Thread.sleep(1);
              } catch (InterruptedException e) {
                return;
              }
            }
          }
        });
        await("a message of every topic", () -> TOPICS.stream().allMatch(x -> got.has(x, "5")));
        lb.failOver(b.server.port()); // a dies for this client, while messages flow
        await("resumed on b", () -> TOPICS.stream().allMatch(x -> b.topics.subscribers(x) == 1));
        assertThat(b.resumed.poll(10, TimeUnit.SECONDS)).as("every topic recovered").isTrue();
        assertThat(publisher.isAlive()).as("the failover happened while messages flowed").isTrue();
        publisher.join();
        String last = Integer.toString(perTopic - 1);
        await("the last of every topic", () -> TOPICS.stream().allMatch(x -> got.has(x, last)));
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < perTopic; i++) {
          expected.add(Integer.toString(i));
        }
        for (String topic : TOPICS) {
          assertThat(got.byTopic.get(topic)).as(topic).containsExactlyElementsOf(expected);
        }
        assertThat(got.gaps).isEmpty();
        assertThat(got.others).as("tokens are not shown").isEmpty();
      }
    });
  }

  @Test
  void aTokenPastTheWindowOrAnOffsetTheHistoryNoLongerHoldsFallsBackCleanly() {
    assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
      AtomicLong clock = new AtomicLong(1_000_000);
      try (Hub hub = new Hub(5);
          Node a = new Node(Transport.NIO, hub.node(), clock);
          Node b = new Node(Transport.NIO, hub.node(), clock);
          Balancer lb = new Balancer(a.server.port());
          WebSocketClient client = reconnectingClient(Transport.NIO)) {
        Received got = new Received();
        client.connect(lb.uri(), got).get(10, TimeUnit.SECONDS);
        await("subscribed on a", () -> TOPICS.stream().allMatch(x -> a.topics.subscribers(x) == 1));
        assertThat(a.resumed.poll(10, TimeUnit.SECONDS)).as("nothing to resume at first").isFalse();
        for (String topic : TOPICS) {
          a.topics.publishText(topic, "first");
        }
        await("first", () -> TOPICS.stream().allMatch(x -> got.has(x, "first")));
        // "a" misses more than the history holds; "b" and "c d" miss two each.
        lb.failOver(b.server.port());
        for (int i = 0; i < 8; i++) {
          b.topics.publishText("a", "missed " + i);
        }
        b.topics.publishText("b", "missed");
        b.topics.publishText("c d", "missed");
        await("resumed on b", () -> TOPICS.stream().allMatch(x -> b.topics.subscribers(x) == 1));
        assertThat(b.resumed.poll(10, TimeUnit.SECONDS)).as("a has a gap").isFalse();
        await("b and c d recovered", () -> got.has("b", "missed") && got.has("c d", "missed"));
        assertThat(got.gaps).containsExactly("a");
        assertThat(got.byTopic.get("a")).containsExactly("first");

        // Past the window, the token resumes nothing: the node subscribes it as a new client.
        clock.addAndGet(Duration.ofMinutes(2).toMillis());
        lb.failOver(a.server.port());
        await("back on a", () -> TOPICS.stream().allMatch(x -> a.topics.subscribers(x) == 1));
        assertThat(a.resumed.poll(10, TimeUnit.SECONDS)).isFalse();
        b.topics.publishText("b", "live");
        await("live", () -> got.has("b", "live"));
        assertThat(got.gaps).containsExactly("a");
        assertThat(got.byTopic.get("b")).containsExactly("first", "missed", "live");
      }
    });
  }
}
