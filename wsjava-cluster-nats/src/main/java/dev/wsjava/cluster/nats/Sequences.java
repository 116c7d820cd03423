package dev.wsjava.cluster.nats;

import java.nio.ByteBuffer;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Numbers this node's publications per topic, and finds gaps and repeats in other nodes'
 * numbers: how a node over an at-most-once engine learns, and counts, what it missed.
 *
 * <p>A header is this node's 16-octet id, an 8-octet epoch and an 8-octet sequence number. A
 * topic's counter starts a new epoch (numbering from 1) when it was dropped: when this node's last
 * subscriber to the topic left, or when more than {@link #MAX_IDLE_COUNTERS} counters of topics
 * it only publishes to were kept. A receiver takes a new epoch for a fresh start, not for a gap.
 *
 * <p>Thread-safe.
 */
final class Sequences {
  /** Octets of a header. */
  static final int HEADER = 16 + 8 + 8;

  /** Counters of topics without subscribers here that are kept before they are all dropped. */
  static final int MAX_IDLE_COUNTERS = 4096;

  /** One publisher's numbering of one topic; guarded by itself. */
  private static final class Counter {
    final long epoch;
    long seq;

    Counter(long epoch) {
      this.epoch = epoch;
    }
  }

  /**
   * Publisher-topic pairs remembered; past this many, the half heard from least recently is
   * forgotten. Every node that ever published to a topic this node still subscribes to has a pair,
   * so without a bound a long-lived topic would keep one for every restart of every node. A
   * forgotten publisher's next message counts as its first: a gap just before it goes uncounted.
   */
  static final int MAX_REMEMBERED = 65_536;

  /** A publisher (its id) and a topic. */
  private record From(long high, long low, String topic) {}

  /** The last number seen from one publisher on one topic, and when (in accepted messages). */
  private record Last(long epoch, long seq, long heard) {}

  private final long high;
  private final long low;
  private final AtomicLong epochs = new AtomicLong();
  private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<From, Last> seen = new ConcurrentHashMap<>();
  private final AtomicLong heard = new AtomicLong();
  private final LongAdder missed = new LongAdder();
  private final LongAdder duplicates = new LongAdder();

  Sequences() {
    UUID id = UUID.randomUUID();
    high = id.getMostSignificantBits();
    low = id.getLeastSignificantBits();
  }

  /**
   * Numbers one publication to {@code topic} and hands its header to {@code send}, in one step
   * per topic: the engine gets a topic's publications in number order.
   *
   * @param subscribedHere whether this node has subscribers to a topic (their counters are kept)
   */
  void numbered(String topic, Predicate<String> subscribedHere, Consumer<byte[]> send) {
    Counter c = counters.get(topic);
    if (c == null) {
      if (counters.size() >= MAX_IDLE_COUNTERS) {
        counters.keySet().removeIf(subscribedHere.negate());
      }
      c = counters.computeIfAbsent(topic, k -> new Counter(epochs.incrementAndGet()));
    }
    synchronized (c) {
      c.seq++;
      send.accept(ByteBuffer.allocate(HEADER).putLong(high).putLong(low)
          .putLong(c.epoch).putLong(c.seq).array());
    }
  }

  /**
   * Reads a header from {@code m} (advancing it past the header) and decides whether the
   * message is delivered here: not when this node published it, nor when it was seen before.
   * Counts the messages of its publisher that it shows were missed.
   */
  boolean accept(String topic, ByteBuffer m) {
    From from = new From(m.getLong(), m.getLong(), topic);
    long epoch = m.getLong();
    long seq = m.getLong();
    if (from.high() == high && from.low() == low) {
      return false;
    }
    boolean[] fresh = {true};
    long now = heard.incrementAndGet();
    seen.compute(from, (k, last) -> {
      if (last == null || epoch > last.epoch()) {
        if (last != null) {
          missed.add(seq - 1); // a new epoch numbers from 1
        }
        return new Last(epoch, seq, now);
      }
      if (epoch < last.epoch()) {
        // numbered by a counter dropped as the newer epoch began: late, not twice
        return new Last(last.epoch(), last.seq(), now);
      }
      if (seq <= last.seq()) {
        duplicates.increment();
        fresh[0] = false;
        return new Last(last.epoch(), last.seq(), now);
      }
      missed.add(seq - last.seq() - 1);
      return new Last(epoch, seq, now);
    });
    if (seen.size() > MAX_REMEMBERED) {
      forgetLeastRecent();
    }
    return fresh[0];
  }

  /** Forgets the half of the pairs heard from least recently (one sort per half-bound added). */
  private synchronized void forgetLeastRecent() {
    if (seen.size() <= MAX_REMEMBERED) {
      return; // another thread did it
    }
    long[] times = seen.values().stream().mapToLong(Last::heard).sorted().toArray();
    long cut = times[times.length / 2];
    seen.values().removeIf(l -> l.heard() < cut);
  }

  /** This node's last subscriber to {@code topic} left: what is not received is not missed. */
  void forget(String topic) {
    seen.keySet().removeIf(k -> k.topic().equals(topic));
    counters.remove(topic);
  }

  long missed() {
    return missed.sum();
  }

  long duplicates() {
    return duplicates.sum();
  }

  /** How many publisher-topic pairs are remembered (tests check that they are bounded). */
  int remembered() {
    return seen.size();
  }

  /** How many counters are kept (tests check that they are bounded). */
  int counters() {
    return counters.size();
  }
}
