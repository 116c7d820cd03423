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
  void aReadThatEndsInTimeIsLeftAlone() throws Exception {
    Deadlines deadlines = new Deadlines(Duration.ofMillis(8));
    try (Pair pair = Pair.open()) {
      Socket client = pair.client();
      Socket server = pair.server();
      Deadlines.Watch watch = deadlines.watch(server);
      InputStream in = server.getInputStream();
      for (int i = 0; i < 3; i++) {
        watch.arm(System.nanoTime() + Duration.ofMillis(200).toNanos());
        client.getOutputStream().write(i);
        assertThat(in.read()).isEqualTo(i);
        assertThat(watch.disarm()).isFalse();
        Thread.sleep(250); // past that deadline, but no read is armed: nothing happens
      }
      // No deadline at all: the read waits for as long as it takes.
      watch.arm(Long.MAX_VALUE);
      Thread.ofVirtual().start(() -> {
        try {
          Thread.sleep(100);
          client.getOutputStream().write(7);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      assertThat(in.read()).isEqualTo(7);
      assertThat(watch.disarm()).isFalse();
      watch.done();
    } finally {
      deadlines.stop();
    }
  }

  /** Both ends of one loopback TCP connection. */
  private record Pair(ServerSocket listener, Socket client, Socket server) implements AutoCloseable {
    static Pair open() throws IOException {
      ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
      Socket client = new Socket(listener.getInetAddress(), listener.getLocalPort());
      return new Pair(listener, client, listener.accept());
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
