package dev.wsjava.transport.blocking;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class DeadlinesTest {
  @Test
  void tickIsAnEighthOfTheShortestTimeoutWithinBounds() {
    assertThat(ticked(Duration.ofMillis(400))).isEqualTo(Duration.ofMillis(50));
    assertThat(ticked(Duration.ofSeconds(60))).isEqualTo(Duration.ofMillis(100));
    assertThat(ticked(Duration.ofMillis(2))).isEqualTo(Duration.ofMillis(1));
  }

  @Test
  void aBlockedReadPastItsDeadlineEndsAndSaysSo() throws Exception {
    Deadlines deadlines = new Deadlines(Duration.ofMillis(80));
    try (Pair pair = Pair.open()) {
      Socket client = pair.client();
      Socket server = pair.server();
      Deadlines.Watch watch = deadlines.watch(server);
      long start = System.nanoTime();
      watch.arm(start + Duration.ofMillis(80).toNanos());
      int n = server.getInputStream().read(new byte[16]); // the client sends nothing
      long waited = System.nanoTime() - start;
      assertThat(n).isEqualTo(-1);
      assertThat(watch.disarm()).isTrue();
      assertThat(Duration.ofNanos(waited)).isBetween(Duration.ofMillis(80), Duration.ofSeconds(5));
      // Only the input was cut: an answer (a 408, say) still goes out.
      server.getOutputStream().write('!');
      assertThat(client.getInputStream().read()).isEqualTo('!');
      watch.done();
    } finally {
      deadlines.stop();
    }
  }

  @Test
  void aTickAtTheDeadlineCutsTheArmedReadOffAndOneBeforeItDoesNot() throws Exception {
    Deadlines deadlines = stopped(); // the test ticks, at instants of its choosing
    try (Pair pair = Pair.open()) {
      Deadlines.Watch watch = deadlines.watch(pair.server());
      InputStream in = pair.server().getInputStream();
      long deadline = 1_000_000_000L;
      watch.arm(deadline);
      deadlines.expireAll(deadline - 1);
      pair.client().getOutputStream().write(1);
      assertThat(in.read()).isEqualTo(1); // still open before it
      deadlines.expireAll(deadline);
      assertThat(in.read()).isEqualTo(-1); // cut off at it
      assertThat(watch.disarm()).isTrue();
      watch.done();
    }
  }

  @Test
  void aReadThatEndsInTimeIsLeftAlone() throws Exception {
    Deadlines deadlines = stopped();
    try (Pair pair = Pair.open()) {
      Socket client = pair.client();
      Deadlines.Watch watch = deadlines.watch(pair.server());
      InputStream in = pair.server().getInputStream();
      long now = 0;
      for (int i = 0; i < 3; i++) {
        watch.arm(now + Duration.ofMillis(200).toNanos());
        client.getOutputStream().write(i);
        assertThat(in.read()).isEqualTo(i);
        assertThat(watch.disarm()).isFalse();
        now += Duration.ofMillis(250).toNanos();
        deadlines.expireAll(now); // past that deadline, but no read is armed: nothing happens
      }
      // No deadline at all: however late the tick, the read waits for its byte.
      watch.arm(Long.MAX_VALUE);
      deadlines.expireAll(now + Duration.ofDays(365).toNanos());
      client.getOutputStream().write(7);
      assertThat(in.read()).isEqualTo(7);
      assertThat(watch.disarm()).isFalse();
      watch.done();
      // Done: no longer watched, even when armed again by mistake.
      watch.arm(now);
      deadlines.expireAll(now);
      client.getOutputStream().write(8);
      assertThat(in.read()).isEqualTo(8);
    }
  }

  /** A watcher whose own thread is stopped: only the test's {@code expireAll} calls tick it. */
  private static Deadlines stopped() {
    Deadlines d = new Deadlines(Duration.ofSeconds(60)); // a 100 ms tick, interrupted at once
    d.stop();
    return d;
  }

  /** Both ends of one loopback TCP connection. */
  private record Pair(ServerSocket listener, Socket client, Socket server) implements AutoCloseable {
    static Pair open() throws IOException {
      ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
      Socket client = new Socket(listener.getInetAddress(), listener.getLocalPort());
      Socket server = listener.accept();
      server.setSoTimeout(10_000); // a read nothing cuts off fails the test instead of hanging it
      return new Pair(listener, client, server);
    }

    @Override
    public void close() throws IOException {
      try (listener; client; server) {
        // closes all three
      }
    }
  }

  private static Duration ticked(Duration shortest) {
    Deadlines d = new Deadlines(shortest);
    d.stop();
    return d.tick();
  }
}
