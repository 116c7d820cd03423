package dev.wsjava;

import java.util.concurrent.TimeUnit;

/**
 * Where the API's own waits read the time and sleep (a drain's steps, a reconnection's backoff):
 * the system's, or one a test drives, so that waits of seconds or hours are tested at once and
 * deterministically. Implementations are thread-safe.
 */
interface Clock {
  /** The system clock: {@link System#nanoTime()} and a sleep. */
  Clock SYSTEM =
      new Clock() {
        @Override
        public long nanos() {
          return System.nanoTime();
        }

        @Override
        public void sleepUntil(long nanos) throws InterruptedException {
          long left = nanos - System.nanoTime();
          if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
          }
        }
      };

  /** Now, in nanoseconds of an arbitrary origin. */
  long nanos();

  /** Returns at {@code nanos} or later; throws when interrupted while waiting. */
  void sleepUntil(long nanos) throws InterruptedException;
}
