package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A listener may send to other connections from its callbacks: two connections on two I/O threads
 * each broadcasting to the other must not deadlock (no connection's lock is held around a
 * callback).
 */
class BroadcastTest {

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void connectionsOnTwoThreadsBroadcastingToEachOtherDoNotDeadlock(Transport t) {
    // Preemptive: a deadlock fails the test instead of hanging the build.
    assertTimeoutPreemptively(Duration.ofSeconds(90), () -> broadcast(t));
  }

  private static void broadcast(Transport t) throws Exception {
    int clients = 4;
    int perClient = 2_000;
    Set<WebSocket> members = ConcurrentHashMap.newKeySet();
    CountDownLatch joined = new CountDownLatch(clients);
    WebSocketConfig config = WebSocketConfig.builder().transport(t).eventLoops(2)
        .maxQueuedBytes(64L << 20).build();
    try (WebSocketServer server = WebSocketServer.builder().bind("127.0.0.1", 0).config(config)
            .websocket("/room", new WebSocketListener() {
              @Override
              public void onOpen(WebSocket ws) {
                members.add(ws);
                joined.countDown();
              }

              @Override
              public void onText(WebSocket ws, String text) {
                for (WebSocket m : members) {
                  m.sendText(text);
                }
              }
            })
            .start();
        WebSocketClient client = WebSocketClient.builder().config(config).build()) {
      URI uri = URI.create("ws://127.0.0.1:" + server.port() + "/room");
      CountDownLatch received = new CountDownLatch(clients * clients * perClient);
      List<WebSocket> sockets = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        sockets.add(client.connect(uri, new WebSocketListener() {
          @Override
          public void onText(WebSocket ws, String text) {
            received.countDown();
          }
        }).get(10, TimeUnit.SECONDS));
      }
      assertThat(joined.await(10, TimeUnit.SECONDS)).isTrue();
      List<Thread> senders = new ArrayList<>();
      for (WebSocket ws : sockets) {
        senders.add(Thread.ofPlatform().daemon().start(() -> {
          for (int j = 0; j < perClient; j++) {
            ws.sendText("message " + j).join();
          }
        }));
      }
      for (Thread s : senders) {
        s.join(Duration.ofSeconds(30));
      }
      assertThat(received.await(30, TimeUnit.SECONDS))
          .as("every broadcast arrived; missing " + received.getCount()).isTrue();
    }
  }
}
