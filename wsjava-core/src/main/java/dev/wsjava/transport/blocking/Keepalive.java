package dev.wsjava.transport.blocking;

import dev.wsjava.transport.LastResort;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The idle and keepalive timers of blocking connections, kept off their reads. A timed read on a
 * virtual thread schedules and cancels a timer in the JDK on every read: with a 30 s ping interval
 * a blocking echo server answered 300,000 messages of 300 bytes per second instead of 519,000
 * without (100 connections, 4 in flight each, the server on one core). Here one virtual thread
 * per JVM waits for the earliest due connection instead, and each connection is due once per
 * interval, not once per read: 535,000-542,000 with the ping interval, in the same sitting.
 *
 * <p>A due connection's timers run on a virtual thread of their own, since they may write (a
 * ping, a close) and a write may block on a peer that stopped reading; the next due time is set
 * from there. A closed connection cancels its entry, which then holds nothing until it comes up.
 */
final class Keepalive {
  private static final DelayQueue<Due> QUEUE = new DelayQueue<>();
  private static final AtomicBoolean STARTED = new AtomicBoolean();
  private static final System.Logger LOG = dev.wsjava.events.Loggers.SERVER;
  private static final long RETRY_NANOS = 100_000_000;

  private Keepalive() {}

  /**
   * Schedules {@code connection}'s timers.
   *
   * @param connection the connection
   * @param dueNanos when its timers next run, a {@link System#nanoTime()} instant
   * @return the entry, to cancel when the connection closes
   */
  static Due schedule(BlockingConnection connection, long dueNanos) {
    Due due = new Due(connection, dueNanos);
    QUEUE.add(due);
    if (!STARTED.get() && STARTED.compareAndSet(false, true)) {
      Thread.ofVirtual().name("wsjava-keepalive").start(Keepalive::run);
    }
    return due;
  }

  private static void run() {
    while (true) {
      Due due;
      try {
        due = QUEUE.take();
      } catch (InterruptedException e) {
        continue; // nobody interrupts this thread on purpose: keep serving the queue
      }
      BlockingConnection c = due.connection;
      if (c != null) {
        try {
          Thread.ofVirtual().name("wsjava-timers").start(c::timersDue);
        } catch (Throwable t) {
          // No thread for this connection's timers now (no memory, say): this shared thread must
          // not die of it; the connection is tried again shortly.
          LastResort.log(LOG, System.Logger.Level.WARNING, "cannot run a connection's timers", t);
          QUEUE.add(new Due(c, System.nanoTime() + RETRY_NANOS));
        }
      }
    }
  }

  /** One connection's place in the queue. */
  static final class Due implements Delayed {
    private final long dueNanos;
    private volatile BlockingConnection connection;

    private Due(BlockingConnection connection, long dueNanos) {
      this.connection = connection;
      this.dueNanos = dueNanos;
    }

    /** Drops the connection: when the entry comes up, nothing runs. */
    void cancel() {
      connection = null;
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
      long d = dueNanos - ((Due) other).dueNanos; // nanoTime instants compare by difference
      return d < 0 ? -1 : d > 0 ? 1 : 0;
    }
  }
}
