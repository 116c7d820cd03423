package dev.wsjava;

import java.time.Duration;
import java.util.Objects;

/**
 * When a client reconnects after its connection dropped: exponential backoff with jitter, and a
 * bound on attempts. Attempt {@code n} (from 1) waits {@code min(maxDelay, initialDelay *
 * multiplier^(n-1))}, less a random part of it: with {@code jitter} 0 the wait is exact, with 1 it
 * is anywhere from zero to the full wait ("full jitter"), in between a fraction of it is random.
 * The count starts over after each successful reconnection.
 *
 * <p>See {@link WebSocketClient.Builder#reconnect(ReconnectPolicy)} for which closes are followed
 * by a reconnection. Immutable.
 *
 * @param initialDelay the wait before the first attempt
 * @param maxDelay the longest wait between attempts
 * @param multiplier how much each wait grows over the one before, at least 1
 * @param jitter the random fraction of each wait, 0 to 1
 * @param maxAttempts attempts before giving up after a drop; 0 to try forever
 */
public record ReconnectPolicy(
    Duration initialDelay, Duration maxDelay, double multiplier, double jitter, int maxAttempts) {

  /** 500 ms: a server restart takes about that; sooner would mostly find the port closed. */
  public static final Duration DEFAULT_INITIAL_DELAY = Duration.ofMillis(500);
  /** 30 s: an outage is noticed within half a minute of its end. */
  public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(30);
  /** 2: the usual doubling. */
  public static final double DEFAULT_MULTIPLIER = 2.0;
  /** 0.5: each wait is between half and all of its step, so many clients do not come back at once. */
  public static final double DEFAULT_JITTER = 0.5;

  /**
   * Checks the policy.
   *
   * @param initialDelay positive
   * @param maxDelay at least {@code initialDelay}
   * @param multiplier at least 1
   * @param jitter 0 to 1
   * @param maxAttempts zero (forever) or more
   */
  public ReconnectPolicy {
    Objects.requireNonNull(initialDelay, "initialDelay");
    Objects.requireNonNull(maxDelay, "maxDelay");
    if (initialDelay.isNegative() || initialDelay.isZero()) {
      throw new IllegalArgumentException("initialDelay must be positive: " + initialDelay);
    }
    if (maxDelay.compareTo(initialDelay) < 0) {
      throw new IllegalArgumentException(
          "maxDelay must be at least initialDelay: " + maxDelay + " < " + initialDelay);
    }
    if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
      throw new IllegalArgumentException("multiplier must be at least 1: " + multiplier);
    }
    if (!(jitter >= 0.0 && jitter <= 1.0)) {
      throw new IllegalArgumentException("jitter must be 0 to 1: " + jitter);
    }
    if (maxAttempts < 0) {
      throw new IllegalArgumentException("maxAttempts must not be negative (0 is forever): " + maxAttempts);
    }
  }

  /**
   * Returns the defaults: 500 ms doubling up to 30 s, half of each wait random, forever.
   *
   * @return the default policy
   */
  public static ReconnectPolicy defaults() {
    return new ReconnectPolicy(
        DEFAULT_INITIAL_DELAY, DEFAULT_MAX_DELAY, DEFAULT_MULTIPLIER, DEFAULT_JITTER, 0);
  }

  /**
   * Returns a copy with another first wait.
   *
   * @param value positive, at most {@link #maxDelay()}
   * @return the new policy
   */
  public ReconnectPolicy withInitialDelay(Duration value) {
    return new ReconnectPolicy(value, maxDelay, multiplier, jitter, maxAttempts);
  }

  /**
   * Returns a copy with another longest wait.
   *
   * @param value at least {@link #initialDelay()}
   * @return the new policy
   */
  public ReconnectPolicy withMaxDelay(Duration value) {
    return new ReconnectPolicy(initialDelay, value, multiplier, jitter, maxAttempts);
  }

  /**
   * Returns a copy with another growth factor.
   *
   * @param value at least 1 (1 waits the same each time)
   * @return the new policy
   */
  public ReconnectPolicy withMultiplier(double value) {
    return new ReconnectPolicy(initialDelay, maxDelay, value, jitter, maxAttempts);
  }

  /**
   * Returns a copy with another random fraction.
   *
   * @param value 0 (exact waits) to 1 (full jitter)
   * @return the new policy
   */
  public ReconnectPolicy withJitter(double value) {
    return new ReconnectPolicy(initialDelay, maxDelay, multiplier, value, maxAttempts);
  }

  /**
   * Returns a copy with another bound on attempts.
   *
   * @param value attempts after each drop; 0 to try forever
   * @return the new policy
   */
  public ReconnectPolicy withMaxAttempts(int value) {
    return new ReconnectPolicy(initialDelay, maxDelay, multiplier, jitter, value);
  }

  /**
   * Returns the wait before an attempt.
   *
   * @param attempt the attempt's number, from 1
   * @param random a uniform random number in [0, 1)
   * @return the wait; never more than {@link #maxDelay()}
   */
  public Duration delay(int attempt, double random) {
    if (attempt < 1) {
      throw new IllegalArgumentException("attempts count from 1: " + attempt);
    }
    double step =
        Math.min(
            maxDelay.toNanos(),
            initialDelay.toNanos() * Math.pow(multiplier, Math.min(attempt - 1, 1000)));
    return Duration.ofNanos((long) (step * (1.0 - jitter * random)));
  }
}
