package dev.wsjava.transport;

/**
 * The slow-trickle rule: while a frame or a message is incomplete, the peer must send at least
 * {@code minBytes} in every {@code window}; a peer that opens a 16 MiB frame and then sends a
 * byte every few seconds is closed after one window instead of holding the connection forever.
 * Between messages nothing is required (quiet connections are normal; the idle timeout is for
 * them), and time while this end does not read is not held against the peer.
 *
 * <p>Without I/O or a clock of its own: the transport passes the time in. Not thread-safe: the
 * connection's reading thread only.
 */
final class ProgressWatch {
  private final long windowNanos;
  private final long minBytes;
  private boolean watching;
  private long windowStart;
  private long windowBytes;

  /**
   * Creates the watch.
   *
   * @param windowNanos the window; at most one check per window decides
   * @param minBytes bytes the peer must send per window while a message is incomplete; 0 for no
   *     rule
   */
  ProgressWatch(long windowNanos, long minBytes) {
    this.windowNanos = windowNanos;
    this.minBytes = minBytes;
  }

  /** Whether the rule applies at all. */
  boolean enabled() {
    return minBytes > 0;
  }

  /** Whether a message is incomplete and watched: the transport keeps a timer while it is. */
  boolean watching() {
    return watching;
  }

  /**
   * Counts bytes received.
   *
   * @param now the time
   * @param bytes how many arrived
   * @param midMessage whether a frame or message is incomplete after them
   * @return why the connection must close, or null
   */
  String received(long now, long bytes, boolean midMessage) {
    if (!midMessage || minBytes == 0) {
      watching = false;
      return null;
    }
    if (!watching) {
      watching = true;
      windowStart = now;
      windowBytes = 0;
      return null;
    }
    windowBytes += bytes;
    return judge(now);
  }

  /**
   * Checks the rule when nothing arrived (a timer).
   *
   * @param now the time
   * @return why the connection must close, or null
   */
  String check(long now) {
    return watching ? judge(now) : null;
  }

  /**
   * Starts the window anew: this end did not read for a while (a pause is not the peer's fault).
   *
   * @param now the time
   */
  void restart(long now) {
    windowStart = now;
    windowBytes = 0;
  }

  /**
   * Returns when the current window ends.
   *
   * @return a time on the caller's clock
   */
  long windowEnd() {
    return windowStart + windowNanos;
  }

  private String judge(long now) {
    if (now - windowStart < windowNanos) {
      return null;
    }
    if (windowBytes < minBytes) {
      return "too slow: " + windowBytes + " bytes in " + (now - windowStart) / 1_000_000
          + " ms while a message was incomplete (at least " + minBytes + " per "
          + windowNanos / 1_000_000 + " ms)";
    }
    restart(now);
    return null;
  }
}
