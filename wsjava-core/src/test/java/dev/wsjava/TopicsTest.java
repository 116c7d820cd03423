package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.wsjava.extension.PerMessageDeflate;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Topics on both transports: publication order per topic, no duplicates, frame-once encoding per
 * wire form, the slow-subscriber policies, and leaving every topic on close.
 */
class TopicsTest {
  private static final Duration LIMIT = Duration.ofSeconds(60);

  /** A server whose route subscribes each connection to the topics its query names. */
  private static final class Room implements AutoCloseable {
    final Topics topics;
    final WebSocketServer server;
    final Map<String, WebSocket> byName = new ConcurrentHashMap<>();
    final Map<String, CountDownLatch> joined = new ConcurrentHashMap<>();
    /** A client's "hold" holds its I/O thread (an NIO loop) until this opens. */
    final CountDownLatch release = new CountDownLatch(1);
    final CountDownLatch holding = new CountDownLatch(1);

    Room(Transport t, Topics topics, PerMessageDeflate deflate) throws Exception {
      this(t, 2, topics, deflate);
    }

    Room(Transport t, int loops, Topics topics, PerMessageDeflate deflate) throws Exception {
      this.topics = topics;
      WebSocketConfig config = WebSocketConfig.builder().transport(t).eventLoops(loops)
          .deflate(deflate).socketBuffers(16 * 1024, 16 * 1024).build();
      server = WebSocketServer.builder().bind("127.0.0.1", 0).config(config)
          .websocket("/t", new WebSocketListener() {
            @Override
            public void onOpen(WebSocket ws) {
              // path: /t?name=a&topics=x,y
              String q = ws.path().substring(ws.path().indexOf('?') + 1);
              String name = q.replaceAll(".*name=([^&]*).*", "$1");
              for (String topic : q.replaceAll(".*topics=([^&]*).*", "$1").split(",")) {
                topics.subscribe(ws, topic);
              }
              byName.put(name, ws);
              joined.computeIfAbsent(name, k -> new CountDownLatch(1)).countDown();
            }

            @Override
            public void onText(WebSocket ws, String text) {
              if (text.equals("hold")) {
                holding.countDown();
                try {
                  release.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                return;
              }
              // "topic message": a client publishes
              int sp = text.indexOf(' ');
              topics.publishText(text.substring(0, sp), text.substring(sp + 1));
            }
          })
          .start();
    }

    URI uri(String name, String topicList) {
      return URI.create("ws://127.0.0.1:" + server.port() + "/t?name=" + name + "&topics=" + topicList);
    }

    WebSocket await(String name) throws InterruptedException {
      assertThat(joined.computeIfAbsent(name, k -> new CountDownLatch(1)).await(10, TimeUnit.SECONDS))
          .as(name + " joined").isTrue();
      return byName.get(name);
    }

    @Override
    public void close() {
      release.countDown();
      server.close();
      topics.close();
    }
  }

  /** Collects the texts a client receives. */
  private static final class Inbox implements WebSocketListener {
    final List<String> texts = new CopyOnWriteArrayList<>();
    final CountDownLatch expected;
    final CountDownLatch closed = new CountDownLatch(1);
    final CountDownLatch last = new CountDownLatch(1); // "last" arrived
    volatile int closeCode;
    final CountDownLatch gate; // held shut: the client's reader blocks, a slow subscriber
    final Semaphore read = new Semaphore(0); // a permit per message read: paces a publisher

    Inbox(int expected) {
      this(expected, new CountDownLatch(0));
    }

    Inbox(int expected, CountDownLatch gate) {
      this.expected = new CountDownLatch(expected);
      this.gate = gate;
    }

    @Override
    public void onText(WebSocket ws, String text) {
      try {
        gate.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      texts.add(text);
      read.release();
      expected.countDown();
      if (text.equals("last")) {
        last.countDown();
      }
    }

    @Override
    public void onClose(WebSocket ws, int code, String reason) {
      closeCode = code;
      closed.countDown();
    }

    void await() throws InterruptedException {
      assertThat(expected.await(30, TimeUnit.SECONDS))
          .as("all arrived; missing " + expected.getCount()).isTrue();
    }
  }

  /**
   * Publishes keeping at most {@code PACE} messages in flight to {@code fast}, so that only a
   * subscriber that stops reading falls behind.
   */
  private static void publishPaced(Topics topics, Inbox fast, int from, String text)
      throws InterruptedException {
    if (from >= PACE) {
      assertThat(fast.read.tryAcquire(10, TimeUnit.SECONDS)).as("the fast one keeps up").isTrue();
    }
    topics.publishText("feed", text);
  }

  private static final int PACE = 4;

  /** On "feed": a subscriber that reads, then one that is held behind a gate (a slow one). */
  private static final class FastAndSlow implements AutoCloseable {
    final CountDownLatch gate = new CountDownLatch(1);
    final WebSocketClient fastClient;
    final WebSocketClient slowClient;
    final Inbox fast;
    final Inbox slow;
    final WebSocket fastOnServer;
    final WebSocket slowOnServer;

    FastAndSlow(Room room, Transport t, int fastExpects) throws Exception {
      fastClient = client(t, null);
      slowClient = client(t, null);
      fast = new Inbox(fastExpects);
      fastClient.connect(room.uri("fast", "feed"), fast).get(10, TimeUnit.SECONDS);
      fastOnServer = room.await("fast");
      slow = new Inbox(1, gate);
      slowClient.connect(room.uri("slow", "feed"), slow).get(10, TimeUnit.SECONDS);
      slowOnServer = room.await("slow");
    }

    @Override
    public void close() {
      gate.countDown();
      fastClient.close();
      slowClient.close();
    }
  }

  private static WebSocketClient client(Transport t, PerMessageDeflate deflate) {
    return WebSocketClient.builder()
        .config(WebSocketConfig.builder().transport(t).deflate(deflate).build()).build();
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void publicationsFromManyThreadsArriveOnceInTheSameOrderAtEverySubscriber(Transport t) {
    assertTimeoutPreemptively(LIMIT, () -> {
      int subscribers = 5;
      int threads = 4;
      int perThread = 500;
      try (Room room = new Room(t, Topics.builder().build(), null);
          WebSocketClient client = client(t, null)) {
        List<Inbox> inboxes = new ArrayList<>();
        for (int i = 0; i < subscribers; i++) {
          Inbox in = new Inbox(threads * perThread + 1);
          inboxes.add(in);
          client.connect(room.uri("s" + i, "a,b"), in).get(10, TimeUnit.SECONDS);
          room.await("s" + i);
        }
        assertThat(room.topics.subscribers("a")).isEqualTo(subscribers);
        List<Thread> publishers = new ArrayList<>();
        for (int p = 0; p < threads; p++) {
          int id = p;
          publishers.add(Thread.ofPlatform().start(() -> {
            for (int j = 0; j < perThread; j++) {
              room.topics.publishText("a", id + ":" + j);
            }
          }));
        }
        for (Thread p : publishers) {
          p.join(LIMIT.toMillis());
        }
        room.topics.publishText("b", "end");
        for (Inbox in : inboxes) {
          in.await();
        }
        List<String> first = inboxes.get(0).texts.stream().filter(s -> !s.equals("end")).toList();
        assertThat(first).hasSize(threads * perThread).doesNotHaveDuplicates();
        for (int p = 0; p < threads; p++) {
          String prefix = p + ":";
          List<String> mine = first.stream().filter(s -> s.startsWith(prefix)).toList();
          for (int j = 0; j < perThread; j++) {
            assertThat(mine.get(j)).as("thread %d's messages in its order", p).isEqualTo(prefix + j);
          }
        }
        for (Inbox in : inboxes) {
          assertThat(in.texts.stream().filter(s -> !s.equals("end")).toList())
              .as("every subscriber sees the one publication order").isEqualTo(first);
          assertThat(in.texts).hasSize(threads * perThread + 1);
        }
        assertThat(room.topics.published()).isEqualTo(threads * perThread + 1);
        assertThat(room.topics.delivered()).isEqualTo(subscribers * (threads * perThread + 1L));
        assertThat(room.topics.dropped()).isZero();
      }
    });
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aMessageIsEncodedOncePerWireForm(Transport t) {
    assertTimeoutPreemptively(LIMIT, () -> {
      PerMessageDeflate sharedDeflate =
          PerMessageDeflate.builder().serverNoContextTakeover(true).build();
      try (Room room = new Room(t, Topics.builder().build(), PerMessageDeflate.defaults());
          WebSocketClient plain = client(t, null);
          WebSocketClient shared = client(t, sharedDeflate);
          WebSocketClient takeover = client(t, PerMessageDeflate.defaults())) {
        int messages = 20;
        List<Inbox> inboxes = new ArrayList<>();
        List<WebSocket> sockets = new ArrayList<>();
        int n = 0;
        for (WebSocketClient c : List.of(plain, plain, plain, shared, shared, shared, takeover, takeover)) {
          Inbox in = new Inbox(messages);
          inboxes.add(in);
          sockets.add(c.connect(room.uri("c" + n, "feed"), in).get(10, TimeUnit.SECONDS));
          room.await("c" + n++);
        }
        assertThat(sockets.get(3).extensions()).containsExactly("permessage-deflate");
        String body = "a compressible line of text, repeated; ".repeat(8);
        for (int i = 0; i < messages; i++) {
          room.topics.publishText("feed", i + " " + body);
        }
        for (Inbox in : inboxes) {
          in.await();
          for (int i = 0; i < messages; i++) {
            assertThat(in.texts.get(i)).isEqualTo(i + " " + body);
          }
        }
        // One plain frame and one context-free compressed frame per message; the two
        // context-takeover subscribers compress their own and share nothing.
        assertThat(room.topics.framesEncoded()).isEqualTo(2L * messages);
        assertThat(room.topics.delivered()).isEqualTo(8L * messages);
      }
    });
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aWireFormOutlivesTheSubscriberThatBroughtItAndGoesWithTheLastOneOfIt(Transport t) {
    assertTimeoutPreemptively(LIMIT, () -> {
      PerMessageDeflate sharedDeflate =
          PerMessageDeflate.builder().serverNoContextTakeover(true).build();
      try (Room room = new Room(t, Topics.builder().build(), PerMessageDeflate.defaults());
          WebSocketClient plain = client(t, null);
          WebSocketClient shared = client(t, sharedDeflate)) {
        int messages = 10;
        List<Inbox> inboxes = new ArrayList<>();
        int n = 0;
        for (WebSocketClient c : List.of(plain, shared, plain, shared, plain)) {
          Inbox in = new Inbox(2 * messages);
          inboxes.add(in);
          c.connect(room.uri("c" + n, "feed"), in).get(10, TimeUnit.SECONDS);
          room.await("c" + n++);
        }
        // The first of each form leaves (on two loops, so groups lose members too).
        assertThat(room.topics.unsubscribe(room.byName.get("c0"), "feed")).isTrue();
        assertThat(room.topics.unsubscribe(room.byName.get("c1"), "feed")).isTrue();
        assertThat(room.topics.unsubscribe(room.byName.get("c1"), "feed")).isFalse();
        assertThat(room.topics.subscribers("feed")).isEqualTo(3);
        for (int i = 0; i < messages; i++) {
          room.topics.publishText("feed", "a " + i);
        }
        assertThat(room.topics.framesEncoded()).isEqualTo(2L * messages);
        // Every plain subscriber leaves: only the compressed form is encoded from now on.
        room.topics.unsubscribe(room.byName.get("c2"), "feed");
        room.topics.unsubscribe(room.byName.get("c4"), "feed");
        for (int i = 0; i < messages; i++) {
          room.topics.publishText("feed", "b " + i);
        }
        assertThat(room.topics.framesEncoded()).isEqualTo(3L * messages);
        Inbox last = inboxes.get(3);
        last.await();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < messages; i++) {
          expected.add("a " + i);
        }
        for (int i = 0; i < messages; i++) {
          expected.add("b " + i);
        }
        assertThat(last.texts).containsExactlyElementsOf(expected);
        Inbox left = inboxes.get(2);
        Await.until("c2 has the messages before it left", Duration.ofSeconds(10),
            () -> left.texts.size() >= messages);
        assertThat(left.texts).containsExactlyElementsOf(expected.subList(0, messages));
        assertThat(inboxes.get(0).texts).isEmpty();
        assertThat(room.topics.delivered()).isEqualTo(3L * messages + messages);
      }
    });
  }

  /**
   * A subscriber's messages stay in publication order when the topic's membership changes while
   * its loop is behind and publishers help deliver ({@code TopicGroup.MAX_WAITING} waiting).
   */
  @Test
  void orderHoldsWhenSomeoneJoinsWhileTheLoopIsBehindAndPublishersHelp() {
    assertTimeoutPreemptively(LIMIT, () -> {
      int messages = TopicGroup.MAX_WAITING + 8;
      try (Room room = new Room(Transport.NIO, 1, Topics.builder().build(), null);
          WebSocketClient client = client(Transport.NIO, null)) {
        Inbox a = new Inbox(messages);
        client.connect(room.uri("a", "feed"), a).get(10, TimeUnit.SECONDS);
        room.await("a");
        client.connect(room.uri("b", "elsewhere"), new Inbox(0)).get(10, TimeUnit.SECONDS);
        WebSocket b = room.await("b");
        WebSocket holder = client.connect(room.uri("h", "elsewhere"), new Inbox(0))
            .get(10, TimeUnit.SECONDS);
        room.await("h");
        holder.sendText("hold");
        assertThat(room.holding.await(10, TimeUnit.SECONDS)).isTrue(); // the one loop is held
        room.topics.publishText("feed", "0");
        assertThat(room.topics.subscribe(b, "feed")).isTrue(); // a member joins a's loop
        for (int i = 1; i < messages; i++) {
          room.topics.publishText("feed", Integer.toString(i)); // past MAX_WAITING: help
        }
        room.release.countDown();
        a.await();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < messages; i++) {
          expected.add(Integer.toString(i));
        }
        assertThat(a.texts).containsExactlyElementsOf(expected);
      }
    });
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aSlowSubscriberLosesItsOldestMessagesAndSlowsNobodyElse(Transport t) {
    assertTimeoutPreemptively(LIMIT, () -> {
      Topics topics = Topics.builder().maxQueuedBytes(64 * 1024)
          .overflow(Topics.Overflow.DROP_OLDEST).build();
      int messages = 2_000;
      String body = "x".repeat(8 * 1024);
      try (Room room = new Room(t, topics, null);
          FastAndSlow pair = new FastAndSlow(room, t, messages + 1)) {
        Inbox fast = pair.fast;
        Inbox slow = pair.slow;
        for (int i = 0; i < messages; i++) {
          publishPaced(topics, fast, i, i + " " + body);
        }
        publishPaced(topics, fast, messages, "last");
        fast.await();
        for (int i = 0; i < messages; i++) {
          assertThat(fast.texts.get(i)).startsWith(i + " ");
        }
        assertThat(fast.texts.get(messages)).isEqualTo("last");
        assertThat(topics.dropped()).as("the slow one's oldest were dropped").isPositive();
        assertThat(pair.slowOnServer.isOpen()).isTrue();
        pair.gate.countDown();
        // It now reads what it kept: increasing, no duplicate, ending with the newest.
        assertThat(slow.last.await(30, TimeUnit.SECONDS)).isTrue();
        List<Integer> kept = slow.texts.stream().filter(s -> !s.equals("last"))
            .map(s -> Integer.parseInt(s.substring(0, s.indexOf(' ')))).toList();
        assertThat(kept).isSorted().doesNotHaveDuplicates();
        assertThat(kept.size() + 1 + topics.dropped()).isEqualTo(messages + 1);
      }
    });
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aSlowSubscriberIsClosedWith1013WhenThePolicySaysSo(Transport t) {
    assertTimeoutPreemptively(LIMIT, () -> {
      List<Runnable> resets = new CopyOnWriteArrayList<>();
      Topics topics = Topics.builder().maxQueuedBytes(64 * 1024)
          .overflow(Topics.Overflow.CLOSE_TRY_AGAIN_LATER)
          .timer((delay, task) -> resets.add(task)) // held: the slow one reads again in time
          .build();
      String body = "y".repeat(8 * 1024);
      try (Room room = new Room(t, topics, null);
          FastAndSlow pair = new FastAndSlow(room, t, 1_001)) {
        for (int i = 0; i <= 1_000; i++) {
          publishPaced(topics, pair.fast, i, i + " " + body);
        }
        pair.fast.await();
        pair.gate.countDown();
        assertThat(pair.slow.closed.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(pair.slow.closeCode).isEqualTo(1013);
        pair.slowOnServer.closeFuture().get(30, TimeUnit.SECONDS);
        assertThat(resets).hasSize(1);
        resets.get(0).run(); // too late to matter: its close frame was written
        assertThat(topics.subscribers("feed")).isEqualTo(1);
        assertThat(topics.dropped()).isPositive();
      }
    });
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aClosedConnectionLeavesEveryTopic(Transport t) {
    assertTimeoutPreemptively(LIMIT, () -> {
      try (Room room = new Room(t, Topics.builder().build(), null);
          WebSocketClient client = client(t, null)) {
        Inbox in = new Inbox(1);
        WebSocket ws = client.connect(room.uri("a", "x,y,z"), in).get(10, TimeUnit.SECONDS);
        WebSocket onServer = room.await("a");
        Inbox other = new Inbox(1);
        client.connect(room.uri("b", "x"), other).get(10, TimeUnit.SECONDS);
        room.await("b");
        assertThat(room.topics.subscribers("y")).isEqualTo(1);
        assertThat(room.topics.subscribe(onServer, "x")).as("already subscribed").isFalse();
        ws.close().get(10, TimeUnit.SECONDS);
        onServer.closeFuture().get(10, TimeUnit.SECONDS);
        assertThat(room.topics.subscribers("x")).isEqualTo(1);
        assertThat(room.topics.subscribers("y")).isZero();
        assertThat(room.topics.subscribers("z")).isZero();
        assertThat(room.topics.publishText("y", "nobody")).isZero();
        assertThat(room.topics.subscribe(onServer, "y")).as("closed: not subscribed").isFalse();
        assertThat(room.topics.publishText("x", "to b")).isEqualTo(1);
        other.await();
        assertThat(room.topics.unsubscribe(room.byName.get("b"), "x")).isTrue();
        assertThat(room.topics.subscribers("x")).isZero();
      }
    });
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aSubscriberSendingFragmentsGetsTopicMessagesAfterItsMessageEnds(Transport t) {
    assertTimeoutPreemptively(LIMIT, () -> {
      try (Room room = new Room(t, Topics.builder().build(), null);
          WebSocketClient client = client(t, null)) {
        Inbox in = new Inbox(3);
        client.connect(room.uri("a", "x"), in).get(10, TimeUnit.SECONDS);
        WebSocket onServer = room.await("a");
        onServer.sendText("frag-", false);
        room.topics.publishText("x", "topic");
        onServer.sendText("ment", true).get(10, TimeUnit.SECONDS);
        room.topics.publishText("x", "after");
        in.await();
        assertThat(in.texts).containsExactly("frag-ment", "topic", "after");
      }
    });
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void topicsRefuseAConnectionOfOtherTopics(Transport t) {
    assertTimeoutPreemptively(LIMIT, () -> {
      try (Room room = new Room(t, Topics.builder().build(), null);
          WebSocketClient client = client(t, null)) {
        client.connect(room.uri("a", "x"), new Inbox(0)).get(10, TimeUnit.SECONDS);
        WebSocket onServer = room.await("a");
        Topics other = Topics.builder().build();
        assertThatThrownBy(() -> other.subscribe(onServer, "x"))
            .isInstanceOf(IllegalArgumentException.class);
      }
    });
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aSubscriberBackWithAnIdButNoHistoryGetsTheGapSignalBeforeLiveMessages(Transport t) {
    assertTimeoutPreemptively(LIMIT, () -> {
      try (Room room = new Room(t, Topics.builder().build(), null);
          WebSocketClient client = client(t, null)) {
        Inbox in = new Inbox(2);
        client.connect(room.uri("back", "other"), in).get(10, TimeUnit.SECONDS);
        WebSocket ws = room.await("back");
        assertThat(room.topics.subscribe(ws, "news", "17-0").get(10, TimeUnit.SECONDS))
            .as("nothing to recover from").isFalse();
        room.topics.publishText("news", "live");
        in.await();
        assertThat(in.texts).containsExactly("- news\n", "live");
        assertThat(room.topics.subscribe(ws, "news", "18-0").get(10, TimeUnit.SECONDS))
            .as("already subscribed").isFalse();
      }
    });
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aSlowSubscribersQueueIsNotChargedToTheMemoryBudget(Transport t) {
    assertTimeoutPreemptively(LIMIT, () -> {
      long bound = 256 * 1024;
      Topics topics = Topics.builder().maxQueuedBytes(bound).build();
      String body = "z".repeat(8 * 1024);
      try (Room room = new Room(t, topics, null);
          FastAndSlow pair = new FastAndSlow(room, t, 401)) {
        Inbox fast = pair.fast;
        Inbox slow = pair.slow;
        var slowConnection = ((WebSocketImpl) pair.slowOnServer).connection();
        for (int i = 0; i < 400; i++) {
          publishPaced(topics, fast, i, i + " " + body);
        }
        publishPaced(topics, fast, 400, "last");
        fast.await();
        assertThat(topics.dropped()).as("its queue is full").isPositive();
        // Its topic queue is full (the bound), but the budget holds at most what its socket queue
        // holds past the first 64 KiB: one message. Topic queues never make the budget stall
        // anyone; their own bound is their only limit (docs/MEMORY.md).
        assertThat(slowConnection.memoryCharged()).isLessThanOrEqualTo(2L * body.length());
        pair.gate.countDown();
        assertThat(slow.last.await(30, TimeUnit.SECONDS)).isTrue();
      }
    });
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aSubscriberThatTakesNoCloseFrameIsResetWhenTheOverflowCloseTimeoutEnds(Transport t) {
    assertTimeoutPreemptively(LIMIT, () -> {
      List<Runnable> timers = new CopyOnWriteArrayList<>();
      List<Duration> delays = new CopyOnWriteArrayList<>();
      Topics topics = Topics.builder().maxQueuedBytes(32 * 1024)
          .overflow(Topics.Overflow.CLOSE_POLICY_VIOLATION)
          .timer((delay, task) -> {
            delays.add(delay);
            timers.add(task);
          })
          .build();
      // A close timeout of a minute: only the reset can release the connection within the test.
      WebSocketConfig config = WebSocketConfig.builder().transport(t)
          .socketBuffers(16 * 1024, 16 * 1024).closeTimeout(Duration.ofSeconds(60)).build();
      WebSocketServer server = WebSocketServer.builder().bind("127.0.0.1", 0).config(config)
          .websocket("/t", new WebSocketListener() {
            @Override
            public void onOpen(WebSocket ws) {
              topics.subscribe(ws, "feed");
            }
          })
          .start();
      try (NonReader mute = NonReader.connect(server.port(), "/t")) {
        Await.until("subscribed", Duration.ofSeconds(10), () -> topics.subscribers("feed") == 1);
        String body = "q".repeat(1024);
        for (int i = 0; i < 2_000 && timers.isEmpty(); i++) {
          topics.publishText("feed", body);
        }
        Await.until("its queue overflowed", Duration.ofSeconds(10), () -> !timers.isEmpty());
        assertThat(delays).containsExactly(Topics.DEFAULT_OVERFLOW_CLOSE_TIMEOUT);
        assertThat(server.openTcpConnections()).as("its close frame waits behind its queue").isOne();
        timers.get(0).run(); // the timeout ends: the socket has not taken the close frame
        Await.until("reset", Duration.ofSeconds(10), () -> server.openTcpConnections() == 0);
        assertThat(mute.outcome()).isEqualTo("reset");
        assertThat(topics.subscribers("feed")).isZero();
      } finally {
        server.close();
        topics.close();
      }
    });
  }

  @Test
  void anOverflowCloseTimeoutIsMoreThanZero() {
    assertThatThrownBy(() -> Topics.builder().overflowCloseTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** A backplane with a history the test controls: ids "N-0", replies to history() by hand. */
  private static final class HandHistory implements Topics.Backplane {
    final CompletableFuture<List<Topics.Backplane.Entry>> reply = new CompletableFuture<>();

    @Override
    public void start(Topics topics) {}

    @Override
    public void subscribe(String topic) {}

    @Override
    public void unsubscribe(String topic) {}

    @Override
    public void publish(String topic, boolean text, ByteBuffer payload) {}

    @Override
    public void close() {}

    @Override
    public boolean keepsHistory() {
      return true;
    }

    @Override
    public CompletableFuture<List<Topics.Backplane.Entry>> history(String topic, String lastId) {
      return reply;
    }

    @Override
    public int compareIds(String a, String b) {
      return Long.compare(Long.parseLong(a.split("-")[0]), Long.parseLong(b.split("-")[0]));
    }

    static Topics.Backplane.Entry entry(long n, String text) {
      return new Topics.Backplane.Entry(n + "-0", true, StandardCharsets.UTF_8.encode(text));
    }
  }

  @Test
  void aTopicNameWithANewlineIsRefusedWhileTheLineEnvelopeCarriesIds() {
    try (Topics withIds = Topics.builder().backplane(new HandHistory()).build();
        Topics plain = Topics.builder().build()) {
      assertThatThrownBy(() -> withIds.publishText("a\nb", "x"))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("newline");
      assertThatThrownBy(() -> withIds.publishLocal("a\nb", "1-0", true, ByteBuffer.allocate(0)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Envelope.LINE");
      assertThat(withIds.published()).isZero();
      // Without ids the name is never written into a message: it stays allowed.
      assertThat(plain.publishText("a\nb", "x")).isZero();
    }
    try (Topics ownEnvelope = Topics.builder().backplane(new HandHistory())
        .envelope(new Topics.Envelope() {
          @Override
          public ByteBuffer message(String topic, String id, ByteBuffer payload) {
            return ByteBuffer.allocate(payload.remaining()).put(payload.duplicate()).flip();
          }

          @Override
          public String gap(String topic, String lastId) {
            return "gap";
          }
        }).build()) {
      assertThat(ownEnvelope.publishLocal("a\nb", "1-0", true, ByteBuffer.allocate(0))).isZero();
    }
  }

  /** What a subscriber back from "1-0" must get in both recovery tests: 2 to 5, once each. */
  private static final List<String> TWO_TO_FIVE =
      List.of("2-0 t\ntwo", "3-0 t\nthree", "4-0 t\nfour", "5-0 t\nfive");

  /** A message with id "N-0" on topic t, as a backplane with a history delivers it. */
  private static void live(Room room, long n, String text) {
    room.topics.publishLocal("t", n + "-0", true, StandardCharsets.UTF_8.encode(text));
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aRecoveringSubscriberGetsEachMessageOnceWhetherTheHistoryOrTheLiveStreamBringsItFirst(
      Transport t) {
    assertTimeoutPreemptively(LIMIT, () -> {
      HandHistory history = new HandHistory();
      try (Room room = new Room(t, Topics.builder().backplane(history).build(), null);
          WebSocketClient client = client(t, null)) {
        Inbox in = new Inbox(4);
        client.connect(room.uri("back", "other"), in).get(10, TimeUnit.SECONDS);
        WebSocket ws = room.await("back");
        CompletableFuture<Boolean> recovered = room.topics.subscribe(ws, "t", "1-0");
        // Live while it recovers: held; "2" is also in the history, "3" arrives only live.
        live(room, 2, "two");
        live(room, 3, "three");
        history.reply.complete(List.of(HandHistory.entry(2, "two")));
        assertThat(recovered.get(10, TimeUnit.SECONDS)).isTrue();
        live(room, 4, "four");
        live(room, 5, "five");
        in.await();
        assertThat(in.texts).containsExactlyElementsOf(TWO_TO_FIVE);
      }
    });
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aLiveMessageTheHistoryAlreadyGaveIsNotGivenAgain(Transport t) {
    assertTimeoutPreemptively(LIMIT, () -> {
      HandHistory history = new HandHistory();
      try (Room room = new Room(t, Topics.builder().backplane(history).build(), null);
          WebSocketClient client = client(t, null)) {
        Inbox in = new Inbox(4);
        client.connect(room.uri("back", "other"), in).get(10, TimeUnit.SECONDS);
        WebSocket ws = room.await("back");
        history.reply.complete(List.of(HandHistory.entry(2, "two"), HandHistory.entry(3, "three")));
        assertThat(room.topics.subscribe(ws, "t", "1-0").get(10, TimeUnit.SECONDS)).isTrue();
        // The node's live stream lags the history: 2 and 3 come after the recovery, then 4.
        live(room, 2, "two");
        live(room, 3, "three");
        live(room, 4, "four");
        live(room, 5, "five");
        in.await();
        assertThat(in.texts).containsExactlyElementsOf(TWO_TO_FIVE);
      }
    });
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aHistoryThatDoesNotAnswerInTimeGivesTheGapSignalThenTheHeldLiveMessages(Transport t) {
    assertTimeoutPreemptively(LIMIT, () -> {
      HandHistory history = new HandHistory(); // never answers until the test says so
      List<Duration> delays = new CopyOnWriteArrayList<>();
      List<Runnable> timeouts = new CopyOnWriteArrayList<>();
      Topics topics = Topics.builder().backplane(history).recoveryTimeout(Duration.ofSeconds(3))
          .timer((delay, task) -> {
            delays.add(delay);
            timeouts.add(task);
          })
          .build();
      try (Room room = new Room(t, topics, null);
          WebSocketClient client = client(t, null)) {
        Inbox in = new Inbox(3);
        client.connect(room.uri("back", "other"), in).get(10, TimeUnit.SECONDS);
        WebSocket ws = room.await("back");
        CompletableFuture<Boolean> recovered = room.topics.subscribe(ws, "t", "1-0");
        live(room, 2, "two"); // held while the history is awaited
        assertThat(recovered).as("the history has not answered").isNotDone();
        assertThat(delays).containsExactly(Duration.ofSeconds(3));
        timeouts.get(0).run();
        assertThat(recovered.get(10, TimeUnit.SECONDS)).as("it was sent the gap signal").isFalse();
        // The answer comes late: it is ignored, so "2" is not given a second time.
        history.reply.complete(List.of(HandHistory.entry(2, "two")));
        live(room, 3, "three");
        in.await();
        assertThat(in.texts).containsExactly("- t\n", "2-0 t\ntwo", "3-0 t\nthree");
      }
    });
  }

  @Test
  void aRecoveryTimeoutIsMoreThanZero() {
    assertThatThrownBy(() -> Topics.builder().recoveryTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("recoveryTimeout");
  }
}
