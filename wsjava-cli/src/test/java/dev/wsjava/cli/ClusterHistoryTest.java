package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.wsjava.Topics;
import dev.wsjava.cluster.nats.NatsBackplane;
import dev.wsjava.cluster.nats.NatsProcess;
import dev.wsjava.cluster.redis.RedisBackplane;
import dev.wsjava.cluster.redis.RedisProcess;
import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Recovery through a backplane's history, Redis streams and a NATS JetStream stream in turn:
 * three nodes with a history and one real redis-server or nats-server -js; a client that comes
 * back to another node with the last id it saw gets exactly what it missed, in order, and one
 * whose id is older than the history holds gets the gap signal.
 */
class ClusterHistoryTest {
  private static final int HISTORY = 20;

  /** A node whose /room subscribes to "room", from the id in {@code ?since=} when given. */
  private static final class Node implements AutoCloseable {
    final Topics.Backplane backplane;
    final Topics topics;
    final WebSocketServer server;
    final LinkedBlockingQueue<CompletableFuture<Boolean>> recoveries = new LinkedBlockingQueue<>();

    Node(String engine, Transport t) throws Exception {
      backplane = engine.startsWith("redis")
          ? RedisBackplane.builder().uri(engine).history(HISTORY).build()
          : NatsBackplane.builder().url(engine).reconnectDelay(Duration.ofMillis(100))
              .history(HISTORY).build();
      topics = Topics.builder().backplane(backplane).build();
      server = WebSocketServer.builder().bind("127.0.0.1", 0)
          .config(WebSocketConfig.builder().transport(t).deflate(null).build())
          .websocket("/room", new WebSocketListener() {
            @Override
            public void onOpen(WebSocket ws) {
              String since = ws.request().queryParam("since");
              if (since == null) {
                topics.subscribe(ws, "room");
              } else {
                recoveries.add(topics.subscribe(ws, "room", since));
              }
            }
          })
          .start();
    }

    URI uri(String since) {
      return URI.create("ws://127.0.0.1:" + server.port() + "/room"
          + (since == null ? "" : "?since=" + since));
    }

    @Override
    public void close() {
      server.close();
      topics.close();
    }
  }

  /** What a client received: the default envelope's "id topic\n" line, split off. */
  private record Got(String id, String topic, String text) {}

  private static final class Member implements WebSocketListener {
    final LinkedBlockingQueue<Got> inbox = new LinkedBlockingQueue<>();

    @Override
    public void onText(WebSocket ws, String text) {
      int nl = text.indexOf('\n');
      int sp = text.indexOf(' ');
      inbox.add(new Got(text.substring(0, sp), text.substring(sp + 1, nl), text.substring(nl + 1)));
    }

    /** Takes messages up to and including the one whose text is {@code last}, skipping probes. */
    List<Got> until(String last) throws InterruptedException {
      List<Got> got = new ArrayList<>();
      long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (true) {
        Got g = inbox.poll(end - System.nanoTime(), TimeUnit.NANOSECONDS);
        assertThat(g).as("waiting for " + last + " after " + got).isNotNull();
        if (!g.text().startsWith("probe")) {
          got.add(g);
        }
        if (g.text().equals(last)) {
          return got;
        }
      }
    }
  }

  /** A real redis-server or nats-server -js, and where to reach it. */
  static final class Engine implements AutoCloseable {
    final AutoCloseable process;
    final String uri;

    Engine(String kind) throws Exception {
      if (kind.equals("redis")) {
        RedisProcess redis = new RedisProcess();
        process = redis;
        uri = redis.uri();
      } else {
        NatsProcess nats = new NatsProcess(true);
        process = nats;
        uri = nats.url();
      }
    }

    @Override
    public void close() {
      try {
        process.close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"redis", "nats"})
  void aClientBackOnAnotherNodeGetsExactlyWhatItMissedAndAnOldIdGetsTheGapSignal(String kind) {
    assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
      try (Engine engine = new Engine(kind);
          Node a = new Node(engine.uri, Transport.NIO);
          Node b = new Node(engine.uri, Transport.BLOCKING);
          Node c = new Node(engine.uri, Transport.NIO);
          WebSocketClient client = WebSocketClient.builder().build()) {
        // A watcher on B tells when a publication has gone through Redis.
        Member watcher = new Member();
        client.connect(b.uri(null), watcher).get(10, TimeUnit.SECONDS);
        Member first = new Member();
        WebSocket firstWs = client.connect(a.uri(null), first).get(10, TimeUnit.SECONDS);
        awaitLinked(b, List.of(watcher, first));

        for (int i = 0; i < 10; i++) {
          b.topics.publishText("room", "m" + i);
        }
        List<Got> read = first.until("m9");
        assertThat(read).extracting(Got::text).containsExactly(
            "m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9");
        assertThat(read).extracting(Got::topic).containsOnly("room");
        String lastId = read.get(9).id();
        firstWs.close().get(10, TimeUnit.SECONDS);

        // Published while it is away (on B), and stored: the watcher saw the last of them.
        for (int i = 10; i < 20; i++) {
          b.topics.publishText("room", "m" + i);
        }
        watcher.until("m19");

        // Back, on C, with the last id it saw: what it missed, then the live ones, once each.
        Member back = new Member();
        client.connect(c.uri(lastId), back).get(10, TimeUnit.SECONDS);
        assertThat(c.recoveries.poll(10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS))
            .as("recovered without a gap").isTrue();
        a.topics.publishText("room", "live");
        List<Got> after = back.until("live");
        List<String> expected = new ArrayList<>();
        for (int i = 10; i < 20; i++) {
          expected.add("m" + i);
        }
        expected.add("live");
        assertThat(after).extracting(Got::text).containsExactlyElementsOf(expected);
        for (int i = 1; i < after.size(); i++) {
          assertThat(c.backplane.compareIds(after.get(i - 1).id(), after.get(i).id()))
              .as("ids grow").isNegative();
        }
        assertThat(c.backplane.compareIds(lastId, after.get(0).id())).isNegative();

        // Far more than the history holds since then (Redis's MAXLEN ~ trims whole stream nodes
        // of 100; JetStream keeps exactly HISTORY per topic).
        for (int i = 0; i < 300; i++) {
          b.topics.publishText("room", "n" + i);
        }
        watcher.until("n299");
        for (String since : List.of(lastId, "not-an-id")) {
          Member late = new Member();
          client.connect(a.uri(since), late).get(10, TimeUnit.SECONDS);
          assertThat(a.recoveries.poll(10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS))
              .as("too old: a gap").isFalse();
          b.topics.publishText("room", "after " + since);
          List<Got> lateGot = late.until("after " + since);
          assertThat(lateGot).containsExactly(
              new Got("-", "room", ""), new Got(lateGot.get(1).id(), "room", "after " + since));
        }
      }
    });
  }

  /** Publishes probes on {@code from} until every member has received one (bounded). */
  private static void awaitLinked(Node from, List<Member> members) throws Exception {
    for (int attempt = 0; attempt < 150; attempt++) {
      from.topics.publishText("room", "probe" + attempt);
      boolean all = true;
      for (Member m : members) {
        Got g = m.inbox.poll(200, TimeUnit.MILLISECONDS);
        all &= g != null;
      }
      if (all) {
        return;
      }
    }
    throw new AssertionError("the nodes did not link through the backplane");
  }
}
