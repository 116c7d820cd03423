package dev.wsjava.cluster.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.wsjava.Topics;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A node's per-topic sequence counters stay bounded: dropped when its last subscriber leaves, and
 * past {@link RedisBackplane#MAX_IDLE_COUNTERS} for topics it only publishes to; a receiver takes
 * the new epoch that follows for what it is, not for missed messages.
 */
class RedisCountersTest {

  @Test
  void countersOfTopicsWithoutSubscribersArePrunedAndANewEpochIsNotAGap() {
    assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
      RedisBackplane publishing;
      RedisBackplane receiving;
      try (RedisProcess redis = new RedisProcess();
          Topics a = Topics.builder().backplane(publishing = RedisBackplane.builder()
              .uri(redis.uri()).build()).build();
          Topics b = Topics.builder().backplane(receiving = RedisBackplane.builder()
              .uri(redis.uri()).build()).build();
          WebSocketClient client = WebSocketClient.builder().build()) {
        CompletableFuture<WebSocket> onA = new CompletableFuture<>();
        LinkedBlockingQueue<String> got = new LinkedBlockingQueue<>();
        try (WebSocketServer serverA = room(a, onA); WebSocketServer serverB = room(b, null)) {
          // A subscriber on A: A keeps a counter for "room" while it is there, and drops it after.
          WebSocket member = client.connect(uri(serverA), new WebSocketListener() {}).get(10,
              TimeUnit.SECONDS);
          WebSocket memberOnA = onA.get(10, TimeUnit.SECONDS);
          a.publishText("room", "while subscribed");
          assertThat(publishing.counters()).isEqualTo(1);
          member.close().get(10, TimeUnit.SECONDS);
          memberOnA.closeFuture().get(10, TimeUnit.SECONDS);
          assertThat(a.subscribers("room")).isZero();
          assertThat(publishing.counters()).as("dropped with its last subscriber").isZero();

          // A subscriber on B hears A publish to "room", across A's counter being dropped.
          client.connect(uri(serverB), new WebSocketListener() {
            @Override
            public void onText(WebSocket ws, String text) {
              got.add(text);
            }
          }).get(10, TimeUnit.SECONDS);
          for (int attempt = 0; got.poll(200, TimeUnit.MILLISECONDS) == null; attempt++) {
            assertThat(attempt).as("B subscribed through Redis").isLessThan(100);
            a.publishText("room", "probe");
          }
          for (int i = 0; i < 5; i++) {
            a.publishText("room", "before " + i);
          }
          for (int i = 0; i < RedisBackplane.MAX_IDLE_COUNTERS + 10; i++) {
            a.publishText("elsewhere:" + i, "nobody listens");
          }
          assertThat(publishing.counters()).isLessThanOrEqualTo(RedisBackplane.MAX_IDLE_COUNTERS);
          a.publishText("room", "after");
          String last;
          do {
            last = got.poll(10, TimeUnit.SECONDS);
            assertThat(last).isNotNull();
          } while (!last.equals("after"));
          assertThat(receiving.missed()).as("a new epoch is not a gap").isZero();
          assertThat(receiving.duplicates()).isZero();
        }
      }
    });
  }

  private static WebSocketServer room(Topics topics, CompletableFuture<WebSocket> opened)
      throws Exception {
    return WebSocketServer.builder().bind("127.0.0.1", 0)
        .websocket("/room", new WebSocketListener() {
          @Override
          public void onOpen(WebSocket ws) {
            topics.subscribe(ws, "room");
            if (opened != null) {
              opened.complete(ws);
            }
          }
        })
        .start();
  }

  private static URI uri(WebSocketServer server) {
    return URI.create("ws://127.0.0.1:" + server.port() + "/room");
  }

  /** A message of node {@code (high, low)} as the channel carries it without a history. */
  private static byte[] message(long high, long low, long seq) {
    return java.nio.ByteBuffer.allocate(1 + 16 + 8 + 8 + 1).put((byte) 1).putLong(high)
        .putLong(low).putLong(1).putLong(seq).put((byte) 'x').array();
  }

  @Test
  void publishersHeardFromLongAgoAreForgottenPastTheBound() {
    // No Redis: the receiving side alone, handed what a channel would carry. Every node that ever
    // published to a topic still subscribed here leaves a pair: as many nodes as the bound and one
    // more (a restart is a new node id), then the newest one again.
    RedisBackplane node = RedisBackplane.builder().build();
    byte[] channel = "wsjava:topic:t".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    int nodes = RedisBackplane.MAX_REMEMBERED + 1;
    for (int i = 1; i <= nodes; i++) {
      node.receive(channel, message(i, i, 1));
    }
    assertThat(node.remembered())
        .isBetween(RedisBackplane.MAX_REMEMBERED / 2, RedisBackplane.MAX_REMEMBERED);
    assertThat(node.received()).isEqualTo(nodes);
    // The one heard from last is remembered: its repeat is still caught, its next is no gap.
    node.receive(channel, message(nodes, nodes, 1));
    assertThat(node.duplicates()).isEqualTo(1);
    node.receive(channel, message(nodes, nodes, 2));
    assertThat(node.missed()).isZero();
    assertThat(node.received()).isEqualTo(nodes + 1);
  }
}
