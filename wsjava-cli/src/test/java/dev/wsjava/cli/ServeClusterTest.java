package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.wsjava.Message;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.cluster.nats.NatsProcess;
import dev.wsjava.cluster.redis.RedisProcess;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code wsjava serve --cluster}: two servers and one Redis, or one NATS, make one chat room. */
class ServeClusterTest {

  @Test
  void twoServersSharingARedisAreOneChatRoom() {
    assertTimeoutPreemptively(Duration.ofSeconds(90), () -> {
      try (RedisProcess redis = new RedisProcess()) {
        assertOneRoom(redis.uri());
      }
    });
  }

  @Test
  void twoServersSharingANatsAreOneChatRoom() {
    assertTimeoutPreemptively(Duration.ofSeconds(90), () -> {
      try (NatsProcess nats = new NatsProcess()) {
        assertOneRoom(nats.url());
      }
    });
  }

  /** Two servers with {@code --cluster engine}: members of each hear the other's. */
  private static void assertOneRoom(String engine) throws Exception {
    try (ServeCommand.Running one = Cli.serve("--port", "0", "--cluster", engine);
        ServeCommand.Running two = Cli.serve("--port", "0", "--cluster", engine);
        WebSocketClient client = WebSocketClient.builder().build()) {
      WebSocket alice = client.open(URI.create("ws://127.0.0.1:" + one.port() + "/chat?nick=alice"));
      awaitText(alice, "* alice joined (1 online)", Duration.ofSeconds(10));
      WebSocket bob = client.open(URI.create("ws://127.0.0.1:" + two.port() + "/chat?nick=bob"));
      awaitText(bob, "* bob joined (1 online)", Duration.ofSeconds(10));
      // The servers subscribe to the engine as their first member joins: say hello until
      // it is heard.
      boolean heard = false;
      for (int i = 0; i < 100 && !heard; i++) {
        alice.sendText("hello " + i).join();
        heard = awaitText(bob, "alice: hello " + i, Duration.ofMillis(300));
      }
      assertThat(heard).as("bob, on the other server, hears alice").isTrue();
      bob.sendText("hi alice").join();
      assertThat(awaitText(alice, "bob: hi alice", Duration.ofSeconds(10))).isTrue();
      bob.close().join();
      assertThat(awaitText(alice, "* bob left (0 online)", Duration.ofSeconds(10))).isTrue();
    }
  }

  /** Reads until {@code expected} arrives; false when it did not within {@code max}. */
  private static boolean awaitText(WebSocket ws, String expected, Duration max) throws Exception {
    long deadline = System.nanoTime() + max.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      Message m = ws.receive(Duration.ofNanos(left));
      if (m instanceof Message.Text t && t.text().equals(expected)) {
        return true;
      }
    }
  }
}
