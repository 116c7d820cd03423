package dev.wsjava.transport.nio;

/**
 * When an event loop may spin before it blocks, and for how long: the spin pays only while it
 * finds work, so both adapt to what the last spins found.
 *
 * <ul>
 *   <li><b>Whether</b>: a spin that finds nothing makes the loop skip the spin on its next turns,
 *       one turn after the first such spin and twice as many after each further one, up to a cap;
 *       a spin that finds work starts over. A loop woken now and then by a quiet peer so soon
 *       blocks at once, while one under steady load spins every turn.
 *   <li><b>How long</b> (the window, between a floor and the configured spin): a spin that finds
 *       nothing halves it; a spin that finds work in the window's upper half doubles it (the work
 *       came late: the window was tight); one that finds work sooner moves it a sixteenth of the
 *       way towards four times that wait. A peer that answers in 5 µs so keeps the loop polling
 *       for about 20 µs, not 50, and a spin that misses costs what the window has become, not the
 *       whole configured spin; a peer that answers in 15 µs keeps the whole 50 µs.
 * </ul>
 *
 * <p>Pure arithmetic, no clock: the loop passes in how long a fruitful spin waited, so these rules
 * are tested turn by turn. Loop thread only.
 */
final class AdaptiveSpin {
  /** The weight (a power of two) of one fruitful spin's wait in the window: a sixteenth. */
  private static final int DECAY_SHIFT = 4;

  /** The window a fruitful spin's wait pulls towards, as a multiple of that wait. */
  private static final int MARGIN = 4;

  private final int maxSkips;
  private final long minNanos;
  private final long maxNanos;
  private long window; // how long the next spin polls at most
  private int skips; // turns left that block without spinning
  private int backoff; // turns to skip after the next fruitless spin, doubled each time

  /**
   * Makes the rules for one loop.
   *
   * @param maxSkips the most turns in a row that skip the spin
   * @param minNanos the shortest window (at most {@code maxNanos}; equal to it for a fixed window)
   * @param maxNanos the longest window, the configured spin; the window starts there
   */
  AdaptiveSpin(int maxSkips, long minNanos, long maxNanos) {
    this.maxSkips = maxSkips;
    this.maxNanos = maxNanos;
    this.minNanos = Math.min(minNanos, maxNanos);
    this.window = maxNanos;
  }

  /**
   * Asks for a turn that could spin: true when it may, false when it uses up one skipped turn.
   *
   * @return whether to spin this turn
   */
  boolean maySpin() {
    return --skips < 0;
  }

  /**
   * Returns how long the next spin polls at most.
   *
   * @return the window in nanoseconds
   */
  long windowNanos() {
    return window;
  }

  /**
   * The spin found work (a ready channel, a task) after {@code waitedNanos}: spin on every turn
   * again, and fit the window to the wait.
   *
   * @param waitedNanos how long the spin had polled when it found the work
   */
  void found(long waitedNanos) {
    backoff = 0;
    skips = 0;
    long waited = Math.max(0, waitedNanos);
    if (2 * waited > window) {
      window = Math.min(maxNanos, 2 * window);
    } else {
      long target = Math.min(MARGIN * waited, maxNanos);
      window = Math.max(minNanos, window - ((window - target) >> DECAY_SHIFT));
    }
  }

  /**
   * The spin found nothing: skip twice as many turns as last time (once at first), up to the cap,
   * and halve the window, down to the floor.
   */
  void foundNothing() {
    backoff = Math.min(Math.max(1, 2 * backoff), maxSkips);
    skips = backoff;
    window = Math.max(minNanos, window >> 1);
  }
}
