package dev.wsjava.cluster.nats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Topics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Subscribers of a node that stopped come back, all at once, to a node that was just started
 * (it keeps nothing of their topics yet) with the ids the old node gave them: over a real
 * {@code nats-server -js}, each gets every message it missed, in order, once, and the stream is
 * read once per topic, not once per subscriber. Before, each subscriber read the stream on its
 * own (two lookups and an ephemeral consumer each), and at a few thousand subscribers the reads
 * passed the recovery timeout and the subscribers got the gap signal: 20,000 messages lost in
 * the resilience benchmark's rolling restart. When the stream really no longer holds what one
 * missed, it still gets null (the gap signal).
 */
class RestartedNodeResumeTest {
  private static final int TOPICS = 4;
  private static final int SUBSCRIBERS = 150; // per topic
  private static final Duration WAIT = Duration.ofSeconds(20);

  private static NatsProcess nats;
  private static int prefixes;

  @BeforeAll
  static void startNats() throws Exception {
    nats = new NatsProcess(true);
  }

  @AfterAll
  static void stopNats() {
    if (nats != null) {
      nats.close();
    }
  }

  /** A node: a backplane with a history and the topics that start it. */
  private record Node(NatsBackplane backplane, Topics topics) implements AutoCloseable {
    static Node start(String prefix, int history) {
      NatsBackplane backplane = NatsBackplane.builder().url(nats.url()).subjectPrefix(prefix)
          .history(history).reconnectDelay(Duration.ofMillis(100)).build();
      return new Node(backplane, Topics.builder().backplane(backplane).build());
    }

    @Override
    public void close() {
      topics.close();
    }
  }

  private static synchronized String prefix() {
    return "restarted" + (++prefixes) + ".";
  }

  private static ByteBuffer text(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String text(Topics.Backplane.Entry e) {
    return StandardCharsets.UTF_8.decode(e.payload().duplicate()).toString();
  }

  /**
   * Publishes {@code count} messages to {@code topic} from {@code node}, numbered from {@code
   * first}, and returns every id the stream gave the topic so far, in order, once all are stored
   * (read from the stream with a consumer of the test's own).
   */
  private static List<String> publish(Node node, String topic, int first, int count)
      throws Exception {
    for (int i = first; i < first + count; i++) {
      node.backplane().publish(topic, true, text(topic + " " + i));
    }
    return stored(node, topic, 0, first + count);
  }

  /**
   * Waits (bounded) until the stream holds message {@code oldest + count - 1} of {@code topic},
   * then returns the ids of the {@code count} it holds, checking they are messages {@code oldest}
   * on.
   */
  private static List<String> stored(Node node, String topic, int oldest, int count)
      throws Exception {
    String subject = node.backplane().subject(topic);
    String stream = subject.substring(0, subject.lastIndexOf('.') + 1)
        .replaceAll("[^A-Za-z0-9_-]", "_") + "history";
    String newest = topic + " " + (oldest + count - 1);
    io.nats.client.Connection c = io.nats.client.Nats.connect(nats.url());
    try {
      long end = System.nanoTime() + WAIT.toNanos();
      while (true) {
        try {
          byte[] last = c.jetStreamManagement().getLastMessage(stream, subject).getData();
          if (new String(last, 1, last.length - 1, StandardCharsets.UTF_8).equals(newest)) {
            break;
          }
        } catch (io.nats.client.JetStreamApiException none) {
          // nothing stored yet
        }
        assertThat(System.nanoTime()).as("%s stored in time", newest).isLessThan(end);
        Thread.sleep(20);
      }
      io.nats.client.JetStreamSubscription sub = c.jetStream().subscribe(subject,
          io.nats.client.PushSubscribeOptions.builder().ordered(true).build());
      List<String> ids = new ArrayList<>();
      while (ids.size() < count) {
        io.nats.client.Message m = sub.nextMessage(Duration.ofMillis(200));
        if (m != null) {
          assertThat(new String(m.getData(), 1, m.getData().length - 1, StandardCharsets.UTF_8))
              .isEqualTo(topic + " " + (oldest + ids.size()));
          ids.add(Long.toString(m.metaData().streamSequence()));
        }
        assertThat(System.nanoTime()).as("all %d of %s read in time", count, topic)
            .isLessThan(end);
      }
      return ids;
    } finally {
      c.close();
    }
  }

  /**
   * Checks that an answer to a subscriber that saw {@code ids[seen]} holds every message after
   * it that was stored before it asked ({@code storedBefore} of them in all), in order, once,
   * and then only later ones, in order.
   */
  private static void assertEverythingAfter(String topic, List<String> ids, int seen,
      int storedBefore, List<Topics.Backplane.Entry> answer) {
    assertThat(answer).as("%s after message %d: not a gap", topic, seen).isNotNull();
    assertThat(answer.size()).as("%s after message %d: everything stored before", topic, seen)
        .isGreaterThanOrEqualTo(storedBefore - seen - 1);
    for (int i = 0; i < answer.size(); i++) {
      assertThat(answer.get(i).id()).isEqualTo(ids.get(seen + 1 + i));
      assertThat(text(answer.get(i))).isEqualTo(topic + " " + (seen + 1 + i));
    }
  }

  @Test
  void subscribersBackOnAFreshNodeGetAllTheyMissedWithOneReadOfTheStreamPerTopic()
      throws Exception {
    String prefix = prefix();
    try (Node old = Node.start(prefix, 10_000)) {
      List<String> topics = new ArrayList<>();
      for (int t = 0; t < TOPICS; t++) {
        topics.add("room" + t);
        old.backplane().subscribe("room" + t);
      }
      // What the old node's subscribers saw before it stopped: 30 messages of each topic.
      for (String topic : topics) {
        publish(old, topic, 0, 30);
      }
      // Published while they were away: 20 more.
      List<List<String>> ids = new ArrayList<>();
      for (String topic : topics) {
        ids.add(publish(old, topic, 30, 20));
      }
      try (Node fresh = Node.start(prefix, 10_000)) {
        // They all come back to the fresh node at once, with the old node's last id (29).
        List<CompletableFuture<List<Topics.Backplane.Entry>>> answers = new ArrayList<>();
        for (int t = 0; t < TOPICS; t++) {
          fresh.backplane().subscribe(topics.get(t)); // as Topics does for the first subscriber
        }
        for (int s = 0; s < SUBSCRIBERS; s++) {
          if (s == SUBSCRIBERS / 2) {
            // Half are back when 10 more are published (stored asynchronously): they arrive
            // during the reads, and every answer must still be in order, without a hole.
            for (int i = 50; i < 60; i++) {
              for (String topic : topics) {
                old.backplane().publish(topic, true, text(topic + " " + i));
              }
            }
          }
          for (int t = 0; t < TOPICS; t++) {
            answers.add(fresh.backplane().history(topics.get(t), ids.get(t).get(29)));
          }
        }
        for (int t = 0; t < TOPICS; t++) {
          ids.set(t, stored(old, topics.get(t), 0, 60));
        }
        for (int s = 0; s < SUBSCRIBERS; s++) {
          for (int t = 0; t < TOPICS; t++) {
            assertEverythingAfter(topics.get(t), ids.get(t), 29, 50,
                answers.get(s * TOPICS + t).get(WAIT.toSeconds(), TimeUnit.SECONDS));
          }
        }
        assertThat(fresh.backplane().streamReads.sum())
            .as("one read of the stream per topic, for all %d subscribers of each", SUBSCRIBERS)
            .isEqualTo(TOPICS);

        // Live messages reach the fresh node's consumer; subscribers coming back later, with
        // the same id or one between, are answered from what the node keeps: no further read.
        List<String> now = publish(old, topics.get(0), 60, 10);
        for (int seen = 29; seen < 70; seen += 3) {
          awaitAnswered(fresh, topics.get(0), now, seen, 70);
        }
        assertThat(fresh.backplane().streamReads.sum()).isEqualTo(TOPICS);

        // One that fell further behind (it saw only message 5): one more read, from its id.
        assertEverythingAfter(topics.get(1), ids.get(1), 5, 60, fresh.backplane()
            .history(topics.get(1), ids.get(1).get(5)).get(WAIT.toSeconds(), TimeUnit.SECONDS));
        assertThat(fresh.backplane().streamReads.sum()).isEqualTo(TOPICS + 1);
      }
    }
  }

  /** Waits (bounded) until the fresh node has delivered message {@code total - 1} live. */
  private static void awaitAnswered(Node node, String topic, List<String> ids, int seen, int total)
      throws Exception {
    long end = System.nanoTime() + WAIT.toNanos();
    while (true) {
      List<Topics.Backplane.Entry> answer =
          node.backplane().history(topic, ids.get(seen)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertEverythingAfter(topic, ids, seen, seen + 1, answer);
      if (answer.size() == total - seen - 1) {
        return;
      }
      assertThat(System.nanoTime()).as("%s: message %d delivered live in time", topic, total - 1)
          .isLessThan(end);
      Thread.sleep(20);
    }
  }

  @Test
  void whatTheStreamNoLongerHoldsIsAGapOnAFreshNodeToo() throws Exception {
    String prefix = prefix();
    try (Node old = Node.start(prefix, 5)) {
      old.backplane().subscribe("room");
      for (int i = 0; i < 20; i++) {
        old.backplane().publish("room", true, text("room " + i));
      }
      // The stream keeps the last 5 (15 to 19); wait until it stored them all.
      List<String> held = stored(old, "room", 15, 5);
      assertThat(held).hasSize(5);
      long fifteen = Long.parseLong(held.get(0));
      try (Node fresh = Node.start(prefix, 5)) {
        fresh.backplane().subscribe("room");
        // One that saw message 17 asks first; at the same time one that saw 15 (the oldest
        // held) and one that saw 12 (13 and 14 are gone: what it missed is not all there).
        CompletableFuture<List<Topics.Backplane.Entry>> recent =
            fresh.backplane().history("room", Long.toString(fifteen + 2));
        CompletableFuture<List<Topics.Backplane.Entry>> oldest =
            fresh.backplane().history("room", Long.toString(fifteen));
        CompletableFuture<List<Topics.Backplane.Entry>> gone =
            fresh.backplane().history("room", Long.toString(fifteen - 3));
        assertThat(recent.get(WAIT.toSeconds(), TimeUnit.SECONDS))
            .extracting(RestartedNodeResumeTest::text).containsExactly("room 18", "room 19");
        assertThat(oldest.get(WAIT.toSeconds(), TimeUnit.SECONDS))
            .extracting(RestartedNodeResumeTest::text)
            .containsExactly("room 16", "room 17", "room 18", "room 19");
        assertThat(gone.get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the gap signal").isNull();
      }
    }
  }
  /**
   * The client library remakes an ordered consumer that stops answering (here: deleted on the
   * server) from its first configuration when it has delivered nothing yet. A consumer that
   * started at "new" then skipped what was stored between its loss and its remaking: a live
   * message this node's subscribers never got, with no gap signal.
   */
  @Test
  void aConsumerRemadeBeforeItDeliveredAnythingStillDeliversWhatWasStoredMeanwhile()
      throws Exception {
    String prefix = prefix();
    NatsBackplane backplane = NatsBackplane.builder().url(nats.url()).subjectPrefix(prefix)
        .history(100).reconnectDelay(Duration.ofMillis(100))
        .consumerHeartbeat(Duration.ofMillis(300)).build();
    try (Node node = new Node(backplane, Topics.builder().backplane(backplane).build());
        Node other = Node.start(prefix, 100)) {
      node.backplane().subscribe("quiet");
      node.backplane().history("quiet", "0").get(WAIT.toSeconds(), TimeUnit.SECONDS); // made
      String subject = node.backplane().subject("quiet");
      String stream = prefix.replaceAll("[^A-Za-z0-9_-]", "_") + "history";
      io.nats.client.Connection c = io.nats.client.Nats.connect(nats.url());
      try {
        io.nats.client.JetStreamManagement jsm = c.jetStreamManagement();
        List<String> consumers = jsm.getConsumerNames(stream);
        assertThat(consumers).as("the node's consumer of the topic").hasSize(1);
        jsm.deleteConsumer(stream, consumers.get(0));
      } finally {
        c.close();
      }
      long before = node.backplane().received();
      other.backplane().publish("quiet", true, text("quiet 0"));
      stored(other, "quiet", 0, 1);
      long end = System.nanoTime() + WAIT.toNanos();
      while (node.backplane().received() == before) {
        assertThat(System.nanoTime())
            .as("the message stored while %s's consumer was gone reaches it", subject)
            .isLessThan(end);
        Thread.sleep(20);
      }
      assertThat(node.backplane().received()).isEqualTo(before + 1);
    }
  }
}
