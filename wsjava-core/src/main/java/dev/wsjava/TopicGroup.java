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
 * <p>Thread-safe. Messages are delivered in the order they were handed over, under {@link
 * #draining}; a group is replaced, not changed, when the topic's subscribers change (the old one
 * still delivers what it was handed).
 */
final class TopicGroup implements Runnable {
  /** Messages a group may have waiting before its publishers deliver them themselves. */
  static final int MAX_WAITING = 64;

  final Executor loop;
  final TopicSubscriber[] members;
  private final ConcurrentLinkedQueue<Topics.Prepared> waiting = new ConcurrentLinkedQueue<>();
  private final AtomicInteger waitingCount = new AtomicInteger();
  private final AtomicBoolean scheduled = new AtomicBoolean();
  private final ReentrantLock draining = new ReentrantLock();

  private TopicGroup(Executor loop, TopicSubscriber[] members) {
    this.loop = loop;
    this.members = members;
  }

  /**
   * Makes a group.
   *
   * @param loop the loop that writes to the members, or null: their publishers do
   * @param members the subscribers, in the order they joined
   * @return a new group with nothing waiting
   */
  static TopicGroup of(Executor loop, TopicSubscriber[] members) {
    return new TopicGroup(loop, members);
  }

  /** A group of the same loop with other members; this one still delivers what it was handed. */
  TopicGroup with(TopicSubscriber[] members) {
    return new TopicGroup(loop, members);
  }

  /**
   * Hands a message to this group's subscribers: on their loop, or at once on this thread for a
   * group without one or with {@link #MAX_WAITING} messages waiting.
   */
  void hand(Topics.Prepared message) {
    if (loop == null) {
      message.deliver(members, true);
      return;
    }
    waiting.add(message);
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
   * Queues every waiting message on every member, in order, then starts their writes. The writes
   * start after the lock is released: a write that fails closes its connection, which leaves the
   * topic under the topic's lock, and a publisher may hold that lock while it waits for this one.
   */
  private void drain() {
    boolean any = false;
    draining.lock();
    try {
      Topics.Prepared m;
      while ((m = waiting.poll()) != null) {
        waitingCount.decrementAndGet();
        m.deliver(members, false);
        any = true;
      }
    } finally {
      draining.unlock();
    }
    if (any) {
      for (TopicSubscriber s : members) {
        s.connection.flushQueued();
      }
    }
  }
}
