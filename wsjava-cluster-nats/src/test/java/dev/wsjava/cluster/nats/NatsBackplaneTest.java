package dev.wsjava.cluster.nats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.wsjava.Topics;
import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

/**
 * Three wsjava nodes and one real nats-server: what any node publishes reaches every node's
 * subscribers once and in order; the nodes come back by themselves after NATS is killed and
 * started again, and what was lost meanwhile is counted.
 */
class NatsBackplaneTest {

  /** A node: its /room route subscribes each connection to "room". */
  private record Node(NatsBackplane backplane, Topics topics, WebSocketServer server)
      implements AutoCloseable {
    static Node start(String nats, Transport transport) throws Exception {
      NatsBackplane backplane =
          NatsBackplane.builder().url(nats).reconnectDelay(Duration.ofMillis(100)).build();
      Topics topics = Topics.builder().backplane(backplane).build();
      WebSocketServer server = WebSocketServer.builder().bind("127.0.0.1", 0)
          .config(WebSocketConfig.builder().transport(transport).deflate(null).build())
          .websocket("/room", new WebSocketListener() {
            @Override
            public void onOpen(WebSocket ws) {
              topics.subscribe(ws, "room");
              ws.sendText("in");
            }
          })
          .start();
      return new Node(backplane, topics, server);
    }

    @Override
    public void close() {
      server.close();
      topics.close();
    }
  }

  /** A subscriber's received texts, and a wait for one of them. */
  private static final class Inbox implements WebSocketListener {
    final List<String> texts = new CopyOnWriteArrayList<>();
    final ReentrantLock lock = new ReentrantLock();
    final Condition arrived = lock.newCondition();

    @Override
    public void onText(WebSocket ws, String text) {
      texts.add(text);
      lock.lock();
      try {
        arrived.signalAll();
      } finally {
        lock.unlock();
      }
    }

    boolean await(String text, Duration max) throws InterruptedException {
      long left = max.toNanos();
      lock.lock();
      try {
        while (!texts.contains(text)) {
          if (left <= 0) {
            return false;
          }
          left = arrived.awaitNanos(left);
        }
        return true;
      } finally {
        lock.unlock();
      }
    }

    /** The texts of node {@code k}'s round, in arrival order. */
    List<String> from(String round, int k) {
      String p = round + ":" + k + ":";
      return texts.stream().filter(t -> t.startsWith(p)).toList();
    }
  }

  @Test
  void threeNodesShareATopicAndComeBackAfterNatsRestarts() {
    assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
      try (NatsProcess nats = new NatsProcess();
          Node a = Node.start(nats.url(), Transport.NIO);
          Node b = Node.start(nats.url(), Transport.BLOCKING);
          Node c = Node.start(nats.url(), Transport.NIO);
          WebSocketClient client = WebSocketClient.builder().build()) {
        List<Node> nodes = List.of(a, b, c);
        List<Inbox> inboxes = new CopyOnWriteArrayList<>();
        for (Node n : nodes) {
          Inbox in = new Inbox();
          client.connect(URI.create("ws://127.0.0.1:" + n.server().port() + "/room"), in)
              .get(10, TimeUnit.SECONDS);
          assertThat(in.await("in", Duration.ofSeconds(10))).isTrue();
          inboxes.add(in);
        }
        linked(nodes, inboxes, "before");

        int per = 100;
        round(nodes, inboxes, "r1", per);

        // NATS dies: a publication meanwhile reaches its own node only, and is counted.
        nats.kill();
        a.backplane().disconnected.get(20, TimeUnit.SECONDS);
        a.topics().publishText("room", "lost");
        assertThat(inboxes.get(0).await("lost", Duration.ofSeconds(10))).isTrue();
        assertThat(a.backplane().publishFailures()).isPositive();

        nats.start();
        long up = System.nanoTime();
        int probes = linked(nodes, inboxes, "after");
        System.out.printf("NATS restart: the three nodes linked again %d ms after it was up"
            + " (%d probe rounds)%n", (System.nanoTime() - up) / 1_000_000, probes);
        round(nodes, inboxes, "r2", per);

        assertThat(inboxes.get(1).texts).doesNotContain("lost");
        assertThat(inboxes.get(2).texts).doesNotContain("lost");
        for (Node n : nodes) {
          assertThat(n.backplane().disconnects()).as("saw the outage").isPositive();
          assertThat(n.backplane().duplicates()).isZero();
          long othersFailed = nodes.stream().filter(o -> o != n)
              .mapToLong(o -> o.backplane().publishFailures()).sum();
          // The lost publication, and probes sent before a node had subscribed again: each is a
          // gap in its publisher's numbers that the node sees with that publisher's next message.
          assertThat(n.backplane().missed()).isGreaterThanOrEqualTo(othersFailed);
        }
        System.out.printf("NATS restart: publications that failed per node %d/%d/%d,"
            + " counted as missed %d/%d/%d, writers restarted %d/%d/%d%n",
            a.backplane().publishFailures(), b.backplane().publishFailures(),
            c.backplane().publishFailures(), a.backplane().missed(), b.backplane().missed(),
            c.backplane().missed(), a.backplane().writerRestarts(), b.backplane().writerRestarts(),
            c.backplane().writerRestarts());
      }
    });
  }

  /**
   * Every node publishes {@code per} texts "ROUND:K:I"; every subscriber gets each once, and each
   * node's in the order it published them.
   */
  private static void round(List<Node> nodes, List<Inbox> inboxes, String round, int per)
      throws InterruptedException {
    for (int i = 0; i < per; i++) {
      for (int k = 0; k < nodes.size(); k++) {
        nodes.get(k).topics().publishText("room", round + ":" + k + ":" + i);
      }
    }
    for (Inbox in : inboxes) {
      for (int k = 0; k < nodes.size(); k++) {
        assertThat(in.await(round + ":" + k + ":" + (per - 1), Duration.ofSeconds(20)))
            .as("subscriber %d has node %d's last of %s; it has %s", inboxes.indexOf(in), k, round,
                in.from(round, k).size())
            .isTrue();
        List<String> got = in.from(round, k);
        assertThat(got).hasSize(per);
        for (int i = 0; i < per; i++) {
          assertThat(got.get(i)).isEqualTo(round + ":" + k + ":" + i);
        }
      }
    }
  }

  /**
   * Publishes a probe from each node in turn until every subscriber has the probes of one
   * attempt: every node's NATS subscription is in place. Bounded; returns the attempts made.
   */
  private static int linked(List<Node> nodes, List<Inbox> inboxes, String phase)
      throws InterruptedException {
    for (int attempt = 1; attempt <= 100; attempt++) {
      boolean all = true;
      for (int k = 0; k < nodes.size() && all; k++) {
        String probe = "probe:" + phase + ":" + attempt + ":" + k;
        nodes.get(k).topics().publishText("room", probe);
        for (Inbox in : inboxes) {
          all &= in.await(probe, Duration.ofMillis(200));
        }
      }
      if (all) {
        return attempt;
      }
    }
    throw new AssertionError("the nodes did not link through NATS (" + phase + ")");
  }
}
