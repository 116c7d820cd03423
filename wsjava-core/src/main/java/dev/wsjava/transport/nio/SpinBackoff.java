package dev.wsjava.transport.nio;

/**
 * When an event loop may spin before it blocks. A spin that finds nothing makes the loop skip the
 * spin on its next turns, one turn after the first such spin and twice as many after each further
 * one, up to a cap; a spin that finds work starts over. A loop woken now and then by a quiet peer
 * so soon blocks at once, while one under steady load spins every turn.
 *
 * <p>Pure arithmetic, no clock: what "finds nothing" means (the spin time passing) is the loop's
 * business, so these rules are tested turn by turn. Loop thread only.
 */
final class SpinBackoff {
  private final int maxSkips;
  private int skips; // turns left that block without spinning
  private int backoff; // turns to skip after the next fruitless spin, doubled each time

  /**
   * Makes the rules for one loop.
   *
   * @param maxSkips the most turns in a row that skip the spin
   */
  SpinBackoff(int maxSkips) {
    this.maxSkips = maxSkips;
  }

  /**
   * Asks for a turn that could spin: true when it may, false when it uses up one skipped turn.
   *
   * @return whether to spin this turn
   */
  boolean maySpin() {
    return --skips < 0;
  }

  /** The spin found work (a ready channel, a task): spin on every turn again. */
  void found() {
    backoff = 0;
    skips = 0;
  }

  /** The spin found nothing: skip twice as many turns as last time (once at first), up to the cap. */
  void foundNothing() {
    backoff = Math.min(Math.max(1, 2 * backoff), maxSkips);
    skips = backoff;
  }
}
