package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The reconnection's backoff waits on the client's clock, not on real time: with a first delay of
 * an hour and a clock that returns at once, a dropped connection (1006) and a drained one (1012)
 * are back at once, and each wait the clock was asked for is the one the policy gave for that
 * close.
 */
class ReconnectClockTest {
  static final Duration HOUR = Duration.ofHours(1);

  /** A clock that never waits: it records each wait asked of it. */
  static final class RecordingClock implements Clock {
    final List<Duration> waits = new CopyOnWriteArrayList<>();

    @Override
    public long nanos() {
      return 7_000_000_000L;
    }

    @Override
    public void sleepUntil(long nanos) {
      waits.add(Duration.ofNanos(nanos - nanos()));
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

  enum Drop {
    /** The server's end vanishes without a close frame, as when a node is killed: 1006. */
    RESET(1006),
    /** A draining server's close: 1012 (Service Restart). */
    RESTART(1012);

    final int code;

    Drop(int code) {
      this.code = code;
    }
  }

  @ParameterizedTest
  @EnumSource(Drop.class)
  void theBackoffWaitsOnTheClientsClockWithThePolicysDelayForTheClose(Drop drop) throws Exception {
    AtomicInteger opened = new AtomicInteger();
    server = WebSocketServer.builder()
        .bind("127.0.0.1", 0)
        .websocket("/once", new WebSocketListener() {
          @Override
          public void onOpen(WebSocket ws) {
            if (opened.incrementAndGet() == 1) { // the first connection drops; the next stays
              if (drop == Drop.RESET) {
                ws.abort();
              } else {
                ws.close(CloseCode.SERVICE_RESTART, "draining");
              }
            }
          }
        })
        .start();
    RecordingClock clock = new RecordingClock();
    BlockingQueue<String> events = new LinkedBlockingQueue<>();
    List<Duration> delays = new CopyOnWriteArrayList<>();
    client = WebSocketClient.builder()
        .clock(clock)
        .reconnect(ReconnectPolicy.builder().initialDelay(HOUR).maxDelay(HOUR.multipliedBy(2))
            .jitter(0.5).build(), new ReconnectListener() {
              @Override
              public void onReconnecting(WebSocket ws, int attempt, Duration delay, Throwable cause) {
                delays.add(delay);
                events.add("reconnecting " + attempt + " "
                    + (cause instanceof WebSocketClosedException c ? c.code() : "failed"));
              }

              @Override
              public void onReconnected(WebSocket ws, int attempts) {
                events.add("reconnected " + attempts);
              }
            })
        .build();
    client.connect(URI.create("ws://127.0.0.1:" + server.port() + "/once"),
        new WebSocketListener() {}).get(10, TimeUnit.SECONDS);

    assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("reconnecting 1 " + drop.code);
    assertThat(events.poll(10, TimeUnit.SECONDS))
        .as("back at once: an hour's wait went to the clock").isEqualTo("reconnected 1");
    assertThat(clock.waits).as("the wait asked of the clock is the one reported")
        .containsExactlyElementsOf(delays);
    Duration wait = clock.waits.get(0);
    if (drop == Drop.RESTART) {
      assertThat(wait).as("after 1012: a random part of the first delay")
          .isGreaterThanOrEqualTo(Duration.ZERO).isLessThan(HOUR);
    } else {
      assertThat(wait).as("after 1006: the first delay, less up to half of it (jitter 0.5)")
          .isBetween(HOUR.dividedBy(2), HOUR);
    }
    assertThat(opened.get()).isEqualTo(2);
  }
}
