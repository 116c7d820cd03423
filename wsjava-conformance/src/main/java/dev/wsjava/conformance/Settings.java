package dev.wsjava.conformance;

import java.time.Duration;
import java.util.Objects;

/**
 * How patient the runners are. Immutable.
 *
 * @param failFastWait how long a fail-fast checkpoint gives the peer to fail before the rest of
 *     the message goes out
 * @param closeTimeout how long the suite waits for the peer's close (or failure) once the script
 *     is done, and then for a server to close TCP
 * @param timeoutScale multiplies every case's script timeout and the close timeout (for slow
 *     machines and peers)
 * @param maxMessage the largest frame or message the suite reads into memory
 */
public record Settings(
    Duration failFastWait, Duration closeTimeout, double timeoutScale, long maxMessage) {

  /** 250 ms to fail fast, 3 s to close, case timeouts as written, 64 MiB messages. */
  public static final Settings DEFAULTS =
      new Settings(Duration.ofMillis(250), Duration.ofSeconds(3), 1.0, 64L << 20);

  /**
   * Checks the values.
   *
   * @param failFastWait not negative
   * @param closeTimeout positive
   * @param timeoutScale positive
   * @param maxMessage positive
   */
  public Settings {
    Objects.requireNonNull(failFastWait, "failFastWait");
    Objects.requireNonNull(closeTimeout, "closeTimeout");
    if (failFastWait.isNegative() || !closeTimeout.isPositive() || timeoutScale <= 0
        || maxMessage <= 0) {
      throw new IllegalArgumentException("settings must be positive: " + failFastWait + ", "
          + closeTimeout + ", " + timeoutScale + ", " + maxMessage);
    }
  }

  /**
   * Returns a copy with another close timeout.
   *
   * @param value the timeout
   * @return the copy
   */
  public Settings withCloseTimeout(Duration value) {
    return new Settings(failFastWait, value, timeoutScale, maxMessage);
  }

  /**
   * Returns a copy with another timeout scale.
   *
   * @param value the factor
   * @return the copy
   */
  public Settings withTimeoutScale(double value) {
    return new Settings(failFastWait, closeTimeout, value, maxMessage);
  }

  Duration scaled(Duration d) {
    return Duration.ofNanos((long) (d.toNanos() * timeoutScale));
  }
}
