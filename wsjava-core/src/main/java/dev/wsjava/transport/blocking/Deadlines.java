package dev.wsjava.transport.blocking;

import dev.wsjava.transport.LastResort;
import dev.wsjava.transport.Tuning;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Cuts off the reads of connections still speaking HTTP when they pass their deadline: one
 * virtual thread per server looks at every watched read once a tick and shuts down the input of
 * those past due, which wakes the blocked read with end of stream. A socket timeout per read
 * would do the same alone, but on a virtual thread each timed read schedules and cancels a timer
 * in the JDK: under wrk on keep-alive connections the server spent 11.2 µs of CPU per request
 * with timed reads and 6.1 with this. A deadline is kept to within one tick.
 */
final class Deadlines {
  private static final Duration MIN_TICK = Tuning.DEADLINE_TICK_MIN;
  private static final Duration MAX_TICK = Tuning.DEADLINE_TICK_MAX;

  private final Set<Watch> watches = ConcurrentHashMap.newKeySet();
  private final Duration tick;
  private final Thread thread;
  private volatile boolean stopped;

  /**
   * Starts the watcher.
   *
   * @param shortestTimeout the shortest deadline a read may get; a tick is an eighth of it (1 to
   *     100 ms)
   */
  Deadlines(Duration shortestTimeout) {
    Duration t = shortestTimeout.dividedBy(8);
    this.tick = t.compareTo(MIN_TICK) < 0 ? MIN_TICK : t.compareTo(MAX_TICK) > 0 ? MAX_TICK : t;
    this.thread = Thread.ofVirtual().name("wsjava-deadlines").start(this::run);
  }

  /** Returns the watcher's period. */
  Duration tick() {
    return tick;
  }

  /**
   * Watches the reads of one connection until {@link Watch#done()}.
   *
   * @param raw the TCP socket (under TLS too: its input is what gets shut down)
   * @return the watch, disarmed
   */
  Watch watch(Socket raw) {
    Watch w = new Watch(raw);
    watches.add(w);
    return w;
  }

  /** Stops the watcher; reads still armed are no longer cut off. */
  void stop() {
    stopped = true;
    thread.interrupt();
  }

  private void run() {
    while (!stopped) {
      try {
        Thread.sleep(tick);
      } catch (InterruptedException e) {
        continue; // stopped, checked above
      }
      expireAll(System.nanoTime());
    }
  }

  /**
   * Cuts off every armed read whose deadline is at or before {@code now}: one tick of the watcher.
   * Package-private so that tests can tick at an instant of their choosing.
   *
   * @param now a {@link System#nanoTime()} instant
   */
  void expireAll(long now) {
    for (Watch w : watches) {
      try {
        w.expire(now);
      } catch (Throwable t) {
        // one socket's failure: this thread serves every connection's deadline and goes on
        LastResort.log(dev.wsjava.events.Loggers.SERVER, System.Logger.Level.WARNING,
            "cannot cut off a connection at its deadline", t);
      }
    }
  }

  /** The deadline of one connection's current read. */
  final class Watch {
    private static final long NONE = Long.MAX_VALUE;
    private static final long EXPIRED = Long.MIN_VALUE;

    private final Socket raw;
    private final AtomicLong deadline = new AtomicLong(NONE);

    private Watch(Socket raw) {
      this.raw = raw;
    }

    /**
     * Sets the deadline of the read about to start; call {@link #disarm()} when it returns, by
     * value or by exception.
     *
     * @param deadlineNanos a {@link System#nanoTime()} instant, or {@code Long.MAX_VALUE} for none
     */
    void arm(long deadlineNanos) {
      deadline.set(deadlineNanos == EXPIRED ? EXPIRED + 1 : deadlineNanos);
    }

    /**
     * Ends the read's deadline.
     *
     * @return true when the watcher cut the read off: its input is shut down, and whatever the read
     *     returned came at the deadline
     */
    boolean disarm() {
      return deadline.getAndSet(NONE) == EXPIRED;
    }

    private void expire(long now) {
      long d = deadline.get();
      if (d != NONE && d != EXPIRED && d - now <= 0 && deadline.compareAndSet(d, EXPIRED)) {
        try {
          raw.shutdownInput();
        } catch (IOException e) {
          // closed meanwhile: the read has ended anyway
        }
      }
    }

    /** Stops watching this connection; again does nothing. */
    void done() {
      watches.remove(this);
    }
  }
}
