package dev.wsjava;

import java.util.List;
import java.util.function.Consumer;

/**
 * The schedule of a drain: the open connections are closed one by one, evenly over a window, so
 * that their clients do not all reconnect (to the other nodes) in the same millisecond. The
 * {@code i}-th of {@code n} is closed at {@code window * i / n} after the start: the first at once,
 * the last one step before the window ends. Time comes from a {@link Clock}; tests drive one by
 * hand. Stateless.
 */
final class Drain {
  private Drain() {}

  /**
   * When the {@code i}-th of {@code n} closes, after the start.
   *
   * @return nanoseconds, {@code 0 <= offset < window} (0 with an empty window)
   */
  static long offset(int i, int n, long windowNanos) {
    if (n <= 0) {
      return 0;
    }
    try {
      return Math.multiplyExact(windowNanos, (long) i) / n;
    } catch (ArithmeticException tooLong) { // windows of hours over millions of connections
      return (long) ((double) windowNanos * i / n);
    }
  }

  /**
   * Runs {@code close} on each item at its time in the window; returns after the last.
   *
   * @param items the connections, in the order they are to close
   * @param windowNanos the window
   * @param clock the time
   * @param close closes one; must not block for long (it starts a closing handshake)
   * @throws InterruptedException when interrupted: the items not reached yet are left open
   */
  static <T> void spread(List<T> items, long windowNanos, Clock clock, Consumer<T> close)
      throws InterruptedException {
    long start = clock.nanos();
    int n = items.size();
    for (int i = 0; i < n; i++) {
      clock.sleepUntil(start + offset(i, n, windowNanos));
      close.accept(items.get(i));
    }
  }
}
