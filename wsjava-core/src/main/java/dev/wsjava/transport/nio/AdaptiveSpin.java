package dev.wsjava.transport.nio;

/**
 * When an event loop may spin before it blocks, and for how long: the spin pays only while it
 * finds work, so both follow what the last spins found.
 *
 * <ul>
 *   <li><b>Whether</b>: a spin that finds nothing makes the loop skip the spin on its next turns,
 *       one turn after the first such spin and twice as many after each further one, up to a cap;
 *       a spin that finds work starts over. A loop woken now and then by a quiet peer so soon
 *       blocks at once, while one under steady load spins every turn.
 *   <li><b>How long</b> (the window, between a floor and the configured spin): a spin that finds
 *       nothing halves it, down to the floor; a spin that finds work restores the whole configured
 *       spin. A loop whose polls keep missing (a peer that sends every few hundred microseconds)
 *       so pays a few microseconds per miss instead of the whole spin, while a loop whose polls
 *       find work (one message in flight, pipelined load) polls exactly as with a fixed spin.
 * </ul>
 *
 * <p>(A window fitted to how soon polls found work, shrinking on hits too, was tried first: on a
 * loaded machine the client's turnaround scattered past it, and p50 and CPU per echo rose against
 * the fixed window: docs/benchmarks/TUNING.md.)
 *
 * <p>Pure arithmetic, no clock: what "finds nothing" means (the window passing) is the loop's
 * business, so these rules are tested turn by turn. Loop thread only.
 */
final class AdaptiveSpin {
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

  /** The spin found work (a ready channel, a task): spin on every turn, for the whole spin. */
  void found() {
    backoff = 0;
    skips = 0;
    window = maxNanos;
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
