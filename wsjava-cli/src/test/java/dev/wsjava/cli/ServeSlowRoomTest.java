package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketListener;
import java.net.Socket;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 35's slow room against {@code wsjava serve}'s {@code /chat} with its defaults: 50 members
 * that never read and one publisher of 300-byte messages, under a memory budget far smaller than
 * their queues together. The publisher keeps being read, the member that reads keeps receiving,
 * and every non-reader gets its 1008 or a reset within a few seconds.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ServeSlowRoomTest {
  private static final int NON_READERS = 50;
  private static final int MESSAGES = 8_000;

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aRoomOfNonReadersNeitherStallsThePublisherNorTheReader(Transport transport)
      throws Exception {
    List<Socket> nonReaders = new ArrayList<>();
    // 8 MiB: the 50 queues of 1 MiB together are six times more. A send buffer of 32 KiB, so
    // that the kernel (which grows one up to 4 MiB) does not absorb the room's traffic.
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--transport", transport.name(),
            "--memory-budget", "8m", "--sndbuf", "32k");
        WebSocketClient client = WebSocketClient.builder().build()) {
      for (int i = 0; i < NON_READERS; i++) {
        nonReaders.add(RawWebSocket.connect(server.port(), "/chat?nick=mute" + i, 4096));
      }
      String base = "ws://127.0.0.1:" + server.port() + "/chat?nick=";
      AtomicInteger received = new AtomicInteger();
      AtomicLong last = new AtomicLong(System.nanoTime());
      AtomicLong longestGap = new AtomicLong();
      CountDownLatch all = new CountDownLatch(1);
      client.connect(URI.create(base + "reader"), new WebSocketListener() {
        @Override
        public void onText(WebSocket ws, String text) {
          if (text.startsWith("pub: ")) {
            long now = System.nanoTime();
            longestGap.accumulateAndGet(now - last.getAndSet(now), Math::max);
            if (received.incrementAndGet() == MESSAGES) {
              all.countDown();
            }
          }
        }
      }).get(10, TimeUnit.SECONDS);
      WebSocket publisher = client.connect(URI.create(base + "pub"), new WebSocketListener() {})
          .get(10, TimeUnit.SECONDS);
      while (server.chat().nicknames().size() < NON_READERS + 2) {
        Thread.sleep(10);
      }
      String body = "m".repeat(300);
      long start = System.nanoTime();
      last.set(start);
      CompletableFuture<Void> sent = null;
      for (int i = 0; i < MESSAGES; i++) {
        sent = publisher.sendText(body);
        if (i % 500 == 499) {
          sent.get(30, TimeUnit.SECONDS); // a publisher the server does not read waits here
        }
      }
      sent.get(30, TimeUnit.SECONDS);
      assertThat(all.await(30, TimeUnit.SECONDS))
          .as("the reader got every message; it has " + received.get()).isTrue();
      long gapMillis = TimeUnit.NANOSECONDS.toMillis(longestGap.get());
      System.out.printf("[serve %s] %d messages through /chat with %d non-readers in %d ms; the"
          + " reader's longest wait %d ms%n", transport, MESSAGES, NON_READERS,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), gapMillis);
      assertThat(gapMillis).as("the reader's longest wait (the stall lasted ~27 s)")
          .isLessThan(5_000);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (server.chat().nicknames().size() > 2 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(server.chat().nicknames()).containsExactlyInAnyOrder("reader", "pub");
      for (Socket s : nonReaders) {
        assertThat(RawWebSocket.closeOutcome(s)).isIn("close 1008", "reset");
      }
    } finally {
      for (Socket s : nonReaders) {
        s.close();
      }
    }
  }
}
