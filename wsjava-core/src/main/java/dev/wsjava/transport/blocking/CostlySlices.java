package dev.wsjava.transport.blocking;

import dev.wsjava.transport.Tuning;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Fair turns for costly work on virtual threads: a connection whose session gave way after a
 * slice of inflation (512 KiB, {@code Inbound.DECODE_SLICE}) takes its next slice only with one of
 * {@link Tuning#COSTLY_SLICES} permits, handed out first come, first served. So at most that many
 * carriers (half of them, at least one) inflate bombs at any instant, and the others are left to
 * the connections whose messages cost little; a connection's first slice never waits.
 *
 * <p>Why a semaphore: a virtual thread that gives way with {@code parkNanos(1)} (what the read
 * loop did alone) or {@link Thread#yield()} is back on a carrier at once, and 16 peers sending
 * bombs kept both carriers of a two-core machine. {@code BombFairnessTest} on the blocking
 * transport, at a load average of 11-28: honest echo p99 0.5-1.6 s with the park alone, 0.7-3.0 s
 * with a yield, 5-24 ms with these turns (and 5 to 101 echoes in 3 s became 638 to 4,137).
 *
 * <p>A permit is awaited at most {@link #WAIT_MILLIS}: a listener that blocks inside its event
 * while holding one (waiting for another connection's message, say) then delays the other costly
 * connections by that much, never deadlocks them. Process-wide, like the carriers. Thread-safe.
 */
final class CostlySlices {
  /** The longest a slice waits for a permit before it goes ahead without one. */
  static final long WAIT_MILLIS = 1_000;

  private static final Semaphore PERMITS = new Semaphore(Tuning.COSTLY_SLICES, true);

  private CostlySlices() {}

  /**
   * Runs one more slice of a costly connection's work in its turn: gives way to the threads
   * waiting to run (a park wakes through the scheduler's shared queue, behind them; see
   * BlockingServer.giveWay), then waits for a permit, bounded.
   *
   * @param slice the work; returns what it returns
   * @return what {@code slice} returned
   */
  static boolean run(Slice slice) throws java.io.IOException {
    LockSupport.parkNanos(1);
    boolean permit = false;
    try {
      permit = PERMITS.tryAcquire(WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // closing: take the slice, the loop then ends
    }
    try {
      return slice.run();
    } finally {
      if (permit) {
        PERMITS.release();
      }
    }
  }

  /** One slice of work. */
  interface Slice {
    boolean run() throws java.io.IOException;
  }
}
