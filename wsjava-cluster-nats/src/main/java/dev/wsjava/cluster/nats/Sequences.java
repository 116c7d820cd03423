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

  /** A publisher (its id) and a topic. */
  private record From(long high, long low, String topic) {}

  /** The last number seen from one publisher on one topic. */
  private record Last(long epoch, long seq) {}

  private final long high;
  private final long low;
  private final AtomicLong epochs = new AtomicLong();
  private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<From, Last> seen = new ConcurrentHashMap<>();
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
    seen.compute(from, (k, last) -> {
      if (last == null || epoch > last.epoch()) {
        if (last != null) {
          missed.add(seq - 1); // a new epoch numbers from 1
        }
        return new Last(epoch, seq);
      }
      if (epoch < last.epoch()) {
        return last; // numbered by a counter dropped as the newer epoch began: late, not twice
      }
      if (seq <= last.seq()) {
        duplicates.increment();
        fresh[0] = false;
        return last;
      }
      missed.add(seq - last.seq() - 1);
      return new Last(epoch, seq);
    });
    return fresh[0];
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

  /** How many counters are kept (tests check that they are bounded). */
  int counters() {
    return counters.size();
  }
}
