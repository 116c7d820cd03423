package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Draining: accepting stops, every WebSocket closes with 1012 at its step of the window (on a
 * clock the test drives), what was queued before the close arrives first, and the server stops.
 */
class DrainTest {
  static final long MS = 1_000_000L;

  /** A clock that never waits: it records when the drain asked to wake, relative to its start. */
  static final class RecordingClock implements Clock {
    final long start = 5_000 * MS;
    final List<Long> wakeUps = new CopyOnWriteArrayList<>();

    @Override
    public long nanos() {
      return start;
    }

    @Override
    public void sleepUntil(long nanos) {
      wakeUps.add((nanos - start) / MS);
    }
  }

  WebSocketServer server;
  WebSocketClient client;

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void theClosesAreSpreadEvenlyOverTheWindow() throws Exception {
    RecordingClock clock = new RecordingClock();
    List<String> closed = new ArrayList<>();
    Drain.spread(List.of("a", "b", "c", "d"), 1000 * MS, clock, closed::add);
    assertThat(clock.wakeUps).containsExactly(0L, 250L, 500L, 750L);
    assertThat(closed).containsExactly("a", "b", "c", "d");
    assertThat(Drain.offset(2, 3, 10)).isEqualTo(6);
    assertThat(Drain.offset(999_999, 1_000_000, Duration.ofHours(10).toNanos()))
        .as("no overflow").isBetween(Duration.ofHours(10).toNanos() - 40_000_000L,
            Duration.ofHours(10).toNanos());
    assertThat(Drain.offset(0, 0, 1000)).isZero();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void everyClientGets1012AfterWhatWasQueuedAndTheServerStops(Transport t) throws Exception {
    WebSocketConfig config = WebSocketConfig.builder().transport(t).eventLoops(1).build();
    List<WebSocket> serverSide = new CopyOnWriteArrayList<>();
    server =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(config)
            .websocket("/echo", new WebSocketListener() {
              @Override
              public void onOpen(WebSocket ws) {
                serverSide.add(ws);
              }
            })
            .start();
    client = WebSocketClient.builder().config(config).build();
    URI uri = URI.create("ws://127.0.0.1:" + server.port() + "/echo");
    BlockingQueue<String> events = new LinkedBlockingQueue<>();
    for (int i = 0; i < 4; i++) {
      int id = i;
      client.connect(uri, new WebSocketListener() {
        @Override
        public void onText(WebSocket ws, String text) {
          events.add(id + " " + text);
        }

        @Override
        public void onClose(WebSocket ws, int code, String reason) {
          events.add(id + " closed " + code);
        }
      }).get(10, TimeUnit.SECONDS);
    }
    Await.until("4 open", Duration.ofSeconds(10), () -> serverSide.size() == 4);
    for (WebSocket ws : serverSide) {
      ws.sendText("last words"); // queued before the drain: arrives before the close
    }
    RecordingClock clock = new RecordingClock();
    boolean clean = server.drain(Duration.ofSeconds(8), clock).get(30, TimeUnit.SECONDS);
    assertThat(clean).isTrue();
    assertThat(clock.wakeUps).containsExactly(0L, 2000L, 4000L, 6000L);
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      seen.add(events.poll(10, TimeUnit.SECONDS));
    }
    for (int i = 0; i < 4; i++) {
      assertThat(seen).containsSubsequence(i + " last words", i + " closed 1012");
    }
    assertThat(server.openTcpConnections()).isZero();
    assertThatThrownBy(() -> client.connect(uri).get(10, TimeUnit.SECONDS))
        .as("no longer accepting");
    assertThat(server.drain(Duration.ZERO)).as("the same drain").isDone();
  }
}
