package dev.wsjava;

import java.time.Duration;

/**
 * A rate: at most {@code count} events per {@code window}, in bursts of up to {@code count}, by the
 * generic cell rate algorithm: each event moves a {@link Bucket}'s one timestamp on by {@code
 * window / count}, and an event that would move it more than a window ahead of now must wait.
 * Sans-I/O: the time is passed in.
 *
 * @param count events allowed per window, at least 1
 * @param windowNanos the window, positive
 */
record RateLimit(int count, long windowNanos) {
  RateLimit {
    if (count < 1 || windowNanos < 1) {
      throw new IllegalArgumentException("a rate is at least 1 event per positive window");
    }
  }

  static RateLimit of(int count, Duration window) {
    return new RateLimit(count, window.toNanos());
  }

  /** Nanoseconds of the window one event uses. */
  long interval() {
    return Math.max(1, windowNanos / count);
  }

  /** The state of one limited thing. Not thread-safe: its owner serializes the calls. */
  static final class Bucket {
    private long full; // when the bucket is whole again; meaningful once used
    private boolean used;

    /**
     * Takes one event.
     *
     * @return 0 when allowed, else how many nanoseconds until one would be
     */
    long take(RateLimit rate, long now) {
      long start = !used || full - now < 0 ? now : full;
      long next = start + rate.interval();
      long ahead = next - now;
      if (ahead > rate.windowNanos()) {
        return ahead - rate.windowNanos();
      }
      full = next;
      used = true;
      return 0;
    }

    /** Whether nothing of the bucket is in use at {@code now}: it can be forgotten. */
    boolean idle(long now) {
      return !used || full - now <= 0;
    }
  }
}
