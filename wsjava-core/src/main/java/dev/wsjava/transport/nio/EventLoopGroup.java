package dev.wsjava.transport.nio;

import dev.wsjava.transport.Tuning;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fixed set of {@link EventLoop event loops}: each connection is given to the next loop in turn
 * and stays on it for life. One group may serve any number of servers and clients.
 *
 * <p>Thread-safe. {@link #close()} stops every loop (their connections are aborted) and waits a
 * bounded time for the threads to end.
 */
public final class EventLoopGroup implements AutoCloseable {
  /** How long {@link #close()} waits for the loop threads to end. */
  public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);

  /**
   * How long a loop that has just handled I/O polls before it blocks, by default: {@link Tuning#SPIN}, where the reason and the measurements are.
   */
  public static final Duration DEFAULT_SPIN = Tuning.SPIN;

  private static final AtomicInteger GROUPS = new AtomicInteger();

  private final EventLoop[] loops;
  private final AtomicInteger next = new AtomicInteger();

  /**
   * Starts {@code threads} loops that poll for {@link #DEFAULT_SPIN} before blocking.
   *
   * @param threads how many loops, at least 1
   * @throws IllegalArgumentException when {@code threads} is less than 1
   */
  public EventLoopGroup(int threads) {
    this(threads, DEFAULT_SPIN);
  }

  /**
   * Starts {@code threads} loops.
   *
   * @param threads how many loops, at least 1
   * @param spin how long a loop that has just handled I/O polls before it blocks; zero to block at once (the least CPU time, the slowest wake-ups)
   * @throws IllegalArgumentException when {@code threads} is less than 1 or {@code spin} is negative
   *     or longer than a second
   */
  public EventLoopGroup(int threads, Duration spin) {
    if (threads < 1) {
      throw new IllegalArgumentException("an event loop group needs at least 1 thread: " + threads);
    }
    checkSpin(spin);
    int group = GROUPS.incrementAndGet();
    loops = new EventLoop[threads];
    for (int i = 0; i < threads; i++) {
      loops[i] = new EventLoop("wsjava-nio-" + group + "-" + i, spin);
    }
  }

  /**
   * Checks a spin time: zero to one second.
   *
   * @param spin the time
   * @return {@code spin}
   * @throws IllegalArgumentException when it is out of range
   */
  public static Duration checkSpin(Duration spin) {
    if (Objects.requireNonNull(spin, "eventLoopSpin").isNegative() || spin.compareTo(Duration.ofSeconds(1)) > 0) {
      throw new IllegalArgumentException("eventLoopSpin must be 0 to 1 s: " + spin);
    }
    return spin;
  }

  /** Starts one loop per available processor. */
  public EventLoopGroup() {
    this(Runtime.getRuntime().availableProcessors());
  }

  /** A server's or client's own group: {@code threads} loops, or one per processor for 0. */
  static EventLoopGroup own(int threads, Duration spin) {
    return new EventLoopGroup(threads > 0 ? threads : Runtime.getRuntime().availableProcessors(), spin);
  }

  /**
   * Returns the number of loops.
   *
   * @return the thread count
   */
  public int size() {
    return loops.length;
  }

  /** Returns the next loop, round-robin. */
  EventLoop next() {
    return loops[Math.floorMod(next.getAndIncrement(), loops.length)];
  }

  /** Returns loop {@code i}, for tests. */
  EventLoop loop(int i) {
    return loops[i];
  }

  /**
   * Returns whether {@link #close} was called.
   *
   * @return true once closing
   */
  public boolean isClosed() {
    return loops[0].isStopping();
  }

  /**
   * Stops every loop and waits for the threads to end, at most {@code timeout} in all. Connections
   * still open are aborted (no closing handshake); close them first for a graceful end.
   *
   * @param timeout the longest wait
   * @return whether every thread ended in time
   * @throws IllegalStateException when called from one of this group's loop threads
   */
  public boolean shutdown(Duration timeout) {
    for (EventLoop l : loops) {
      if (l.inEventLoop()) {
        throw new IllegalStateException(
            "an event loop group cannot be shut down from its own loop");
      }
    }
    for (EventLoop l : loops) {
      l.close();
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean all = true;
    for (EventLoop l : loops) {
      long left = Math.max(0, deadline - System.nanoTime());
      try {
        all &= l.awaitTermination(Duration.ofNanos(left));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return all;
  }

  /** Stops every loop, waiting at most {@link #DEFAULT_SHUTDOWN_TIMEOUT}. */
  @Override
  public void close() {
    shutdown(DEFAULT_SHUTDOWN_TIMEOUT);
  }
}
