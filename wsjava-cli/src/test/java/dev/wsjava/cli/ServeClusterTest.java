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
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
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

  @Test
  void aMemberBackWithTheLastIdItSawGetsWhatItMissedFromAnotherServer() {
    assertTimeoutPreemptively(Duration.ofSeconds(90), () -> {
      try (RedisProcess redis = new RedisProcess();
          ServeCommand.Running one =
              Cli.serve("--port", "0", "--cluster", redis.uri(), "--history", "100");
          ServeCommand.Running two =
              Cli.serve("--port", "0", "--cluster", redis.uri(), "--history", "100");
          WebSocketClient client = WebSocketClient.builder().build()) {
        WebSocket alice = client.open(chat(one, "nick=alice"));
        assertThat(awaitId(alice, "* alice joined (1 online)", Duration.ofSeconds(10))).isNotNull();
        WebSocket bob = client.open(chat(two, "nick=bob"));
        assertThat(awaitId(bob, "* bob joined (1 online)", Duration.ofSeconds(10))).isNotNull();
        String heard = null;
        int i = 0;
        for (; i < 100 && heard == null; i++) {
          alice.sendText("hello " + i).join();
          heard = awaitId(bob, "alice: hello " + i, Duration.ofMillis(300));
        }
        assertThat(heard).as("bob, on the other server, hears alice").isNotNull();
        String last = awaitId(alice, "alice: hello " + (i - 1), Duration.ofSeconds(10));
        assertThat(last).as("the same message has the same id on both servers").isEqualTo(heard);
        alice.close().join();
        assertThat(awaitId(bob, "* alice left (0 online)", Duration.ofSeconds(10))).isNotNull();
        for (int m = 1; m <= 3; m++) {
          bob.sendText("missed " + m).join();
        }
        assertThat(awaitId(bob, "bob: missed 3", Duration.ofSeconds(10))).isNotNull();

        // Back on the other server, with the id of the last message she saw.
        WebSocket back = client.open(chat(two, "nick=alice&last=" + last));
        List<String> bodies = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int m = 0; m < 5; m++) {
          Message.Text t = (Message.Text) back.receive(Duration.ofSeconds(10));
          assertThat(t).as("message " + m).isNotNull();
          int space = t.text().indexOf(' ');
          int newline = t.text().indexOf('\n');
          assertThat(t.text().substring(space + 1, newline)).isEqualTo("chat");
          ids.add(t.text().substring(0, space));
          bodies.add(t.text().substring(newline + 1));
        }
        assertThat(bodies).containsExactly("* alice left (0 online)", "bob: missed 1",
            "bob: missed 2", "bob: missed 3", "* alice joined (2 online)");
        assertThat(ids).doesNotHaveDuplicates().doesNotContain(last);

        // An id the history does not hold: the gap signal, then the live messages.
        WebSocket lost = client.open(chat(one, "nick=carol&last=1-0"));
        Message.Text gap = (Message.Text) lost.receive(Duration.ofSeconds(10));
        assertThat(gap).isNotNull();
        assertThat(gap.text()).isEqualTo("- chat\n");
        assertThat(awaitId(lost, "* carol joined (1 online)", Duration.ofSeconds(10))).isNotNull();
      }
    });
  }

  private static URI chat(ServeCommand.Running server, String query) {
    return URI.create("ws://127.0.0.1:" + server.port() + "/chat?" + query);
  }

  /**
   * Reads until a message {@code "ID chat\n" + body} arrives (a room with a history) and returns
   * its id; null when it did not within {@code max}.
   */
  private static String awaitId(WebSocket ws, String body, Duration max) throws Exception {
    String text = awaitMatching(ws, t -> t.endsWith(" chat\n" + body), max);
    return text == null ? null : text.substring(0, text.indexOf(' '));
  }

  /** Reads until {@code expected} arrives; false when it did not within {@code max}. */
  private static boolean awaitText(WebSocket ws, String expected, Duration max) throws Exception {
    return awaitMatching(ws, expected::equals, max) != null;
  }

  /** Reads until a text message {@code wanted} arrives and returns it; null after {@code max}. */
  private static String awaitMatching(WebSocket ws, Predicate<String> wanted, Duration max)
      throws Exception {
    long deadline = System.nanoTime() + max.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return null;
      }
      Message m = ws.receive(Duration.ofNanos(left));
      if (m instanceof Message.Text t && wanted.test(t.text())) {
        return t.text();
      }
    }
  }
}
