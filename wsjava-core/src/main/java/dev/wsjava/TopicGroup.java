package dev.wsjava;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The subscribers of one topic that one event loop writes to, and the publications waiting for
 * that loop: a publisher only encodes a message and hands it to each group, and each loop writes
 * to its own subscribers, so that one publisher on a large topic uses every loop. A loop that is
 * behind takes every message waiting at once and then flushes each subscriber once: several
 * messages go out in one system call.
 *
 * <p>Subscribers without a loop (the blocking transport) form a group that the publisher's thread
 * writes to, as do the publishers of a group that has {@link #MAX_WAITING} messages waiting (the
 * loop is overrun: the publisher then helps, which also bounds what waits here).
 *
 * <p>A topic keeps one group per loop for as long as the topic lives; a join or a leave changes
 * its {@link #members}, and each message handed over keeps the members it was published to. So
 * every message, whoever delivers it (the loop or a helping publisher), goes out under the one
 * {@link #draining} lock in the order it was handed over, and no member sees a later message
 * before an earlier one. (A topic whose last subscriber leaves is dropped with its groups; a
 * subscriber that rejoins it at once, while its loop is overrun, may get the new topic's first
 * messages before the old one's last: the only reordering left.)
 *
 * <p>Thread-safe; {@link #members} is set and {@link #hand} is called under the topic's lock.
 */
final class TopicGroup implements Runnable {
  /** Messages a group may have waiting before its publishers deliver them themselves. */
  static final int MAX_WAITING = 64;

  final Executor loop;
  /** The subscribers, in the order they joined; replaced (never changed) under the topic's lock. */
  TopicSubscriber[] members;
  private final ConcurrentLinkedQueue<Handed> waiting = new ConcurrentLinkedQueue<>();
  private final AtomicInteger waitingCount = new AtomicInteger();
  private final AtomicBoolean scheduled = new AtomicBoolean();
  private final ReentrantLock draining = new ReentrantLock();

  /** A message and the members it was published to. */
  private record Handed(Topics.Prepared message, TopicSubscriber[] members) {}

  /**
   * Makes a group.
   *
   * @param loop the loop that writes to the members, or null: their publishers do
   * @param members the subscribers, in the order they joined
   */
  TopicGroup(Executor loop, TopicSubscriber[] members) {
    this.loop = loop;
    this.members = members;
  }

  /**
   * Hands a message to this group's subscribers: on their loop, or at once on this thread for a
   * group without one or with {@link #MAX_WAITING} messages waiting.
   */
  void hand(Topics.Prepared message) {
    if (members.length == 0) {
      return;
    }
    if (loop == null) {
      message.deliver(members, true);
      return;
    }
    waiting.add(new Handed(message, members));
    if (waitingCount.incrementAndGet() > MAX_WAITING) {
      drain(); // the loop is overrun: help it, in order
      return;
    }
    if (scheduled.compareAndSet(false, true)) {
      try {
        loop.execute(this);
      } catch (RejectedExecutionException stopped) {
        waiting.clear(); // the server is stopping: its connections close with their loops
      }
    }
  }

  /** The loop's turn: every message waiting, then one flush per subscriber. */
  @Override
  public void run() {
    scheduled.set(false);
    drain();
    if (!waiting.isEmpty() && scheduled.compareAndSet(false, true)) {
      loop.execute(this); // handed over after this run took what was there
    }
  }

  /**
   * Queues every waiting message on its members, in order, then starts their writes. The writes
   * start after the lock is released: a write that fails closes its connection, which leaves the
   * topic under the topic's lock, and a publisher may hold that lock while it waits for this one.
   */
  private void drain() {
    TopicSubscriber[] flush = null; // the members to flush: usually every message had the same
    java.util.List<TopicSubscriber[]> before = null; // those before a join or a leave, if any
    draining.lock();
    try {
      Handed h;
      while ((h = waiting.poll()) != null) {
        waitingCount.decrementAndGet();
        h.message.deliver(h.members, false);
        if (flush != h.members) {
          if (flush != null) {
            (before == null ? before = new java.util.ArrayList<>(2) : before).add(flush);
          }
          flush = h.members;
        }
      }
    } finally {
      draining.unlock();
    }
    if (before != null) {
      for (TopicSubscriber[] members : before) {
        flushAll(members);
      }
    }
    if (flush != null) {
      flushAll(flush);
    }
  }

  private static void flushAll(TopicSubscriber[] members) {
    for (TopicSubscriber s : members) {
      s.connection.flushQueued();
    }
  }
}
