package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.wsjava.extension.PerMessageDeflate;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A room of subscribers that never read does not stall the topic (issue 35): with a memory budget
 * far smaller than their queues together, the publisher keeps being read, the subscriber that
 * reads keeps receiving, and every non-reader is closed by its overflow policy (1008) or reset
 * within a short bound.
 */
class SlowSubscribersTest {
  private static final int NON_READERS = 50;
  private static final int MESSAGES = 8_000;
  private static final Duration OVERFLOW_CLOSE = Duration.ofSeconds(1);
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(3);

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void nonReadersAreClosedOrResetAndNeitherThePublisherNorTheReaderWaits(Transport t) {
    assertTimeoutPreemptively(Duration.ofSeconds(90), () -> {
      Topics topics = Topics.builder().maxQueuedBytes(1 << 20)
          .overflow(Topics.Overflow.CLOSE_POLICY_VIOLATION)
          .overflowCloseTimeout(OVERFLOW_CLOSE).build();
      WebSocketConfig config = WebSocketConfig.builder().transport(t)
          // The publisher's messages come compressed: inflating them takes memory from the budget.
          .deflate(PerMessageDeflate.defaults())
          .socketBuffers(16 * 1024, 16 * 1024)
          // 512 KiB: the 50 queues of 1 MiB together are 100 times more. Before issue 35 they
          // were charged to it, at each message's full size.
          .memoryBudget(512 * 1024)
          .closeTimeout(CLOSE_TIMEOUT)
          .build();
      WebSocketServer server = WebSocketServer.builder().bind("127.0.0.1", 0).config(config)
          .websocket("/room", new WebSocketListener() {
            @Override
            public void onOpen(WebSocket ws) {
              if (!ws.path().endsWith("publisher")) {
                topics.subscribe(ws, "room");
              }
            }

            @Override
            public void onText(WebSocket ws, String text) {
              topics.publishText("room", text);
            }
          })
          .start();
      List<NonReader> nonReaders = new ArrayList<>();
      WebSocketClient clients = WebSocketClient.builder()
          .config(WebSocketConfig.builder().transport(t).deflate(PerMessageDeflate.defaults())
              .build()).build();
      try {
        for (int i = 0; i < NON_READERS; i++) {
          nonReaders.add(NonReader.connect(server.port(), "/room"));
        }
        AtomicInteger received = new AtomicInteger();
        AtomicLong lastNanos = new AtomicLong(System.nanoTime());
        AtomicLong longestGap = new AtomicLong();
        CountDownLatch all = new CountDownLatch(1);
        clients.connect(URI.create("ws://127.0.0.1:" + server.port() + "/room"),
            new WebSocketListener() {
              @Override
              public void onText(WebSocket ws, String text) {
                long now = System.nanoTime();
                longestGap.accumulateAndGet(now - lastNanos.getAndSet(now), Math::max);
                if (received.incrementAndGet() == MESSAGES) {
                  all.countDown();
                }
              }
            }).get(10, TimeUnit.SECONDS);
        Await.until("every subscriber joined", Duration.ofSeconds(10),
            () -> topics.subscribers("room") == NON_READERS + 1);
        WebSocket publisher = clients.connect(
            URI.create("ws://127.0.0.1:" + server.port() + "/room?publisher"),
            new WebSocketListener() {}).get(10, TimeUnit.SECONDS);
        String body = "p".repeat(300);
        long start = System.nanoTime();
        lastNanos.set(start);
        CompletableFuture<Void> sent = null;
        for (int i = 0; i < MESSAGES; i++) {
          sent = publisher.sendText(body);
          if (i % 1000 == 999) {
            sent.get(20, TimeUnit.SECONDS); // a publisher the server stops reading stops here
          }
        }
        sent.get(20, TimeUnit.SECONDS);
        assertThat(all.await(30, TimeUnit.SECONDS))
            .as("the reader got every message; it has " + received.get()).isTrue();
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        long gapMillis = TimeUnit.NANOSECONDS.toMillis(longestGap.get());
        System.out.printf("[%s] %d messages of 300 B through a room of %d non-readers in %d ms;"
            + " the reader's longest wait %d ms%n", t, MESSAGES, NON_READERS, millis, gapMillis);
        // Generous for a loaded machine; the stall this guards against lasted ~27 s.
        assertThat(gapMillis).as("the reader's longest wait between messages").isLessThan(5_000);

        // Every non-reader passed its bound: closed (its close frame written, then the close
        // timeout) or reset (its socket would not take the close frame) within the bound.
        Duration bound = OVERFLOW_CLOSE.plus(CLOSE_TIMEOUT).plusSeconds(10);
        Await.until("the non-readers' connections released", bound,
            () -> server.openTcpConnections() == 2);
        for (NonReader r : nonReaders) {
          assertThat(r.outcome()).isIn("close 1008", "reset");
        }
        assertThat(topics.subscribers("room")).isEqualTo(1);
        assertThat(publisher.isOpen()).isTrue();
      } finally {
        for (NonReader r : nonReaders) {
          r.close();
        }
        clients.close();
        server.close();
        topics.close();
      }
    });
  }
}
