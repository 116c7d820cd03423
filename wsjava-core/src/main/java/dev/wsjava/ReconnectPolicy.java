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
 * <p>Made with {@link #builder()} (every setting starts at its default) or {@link #defaults()}.
 */
public final class ReconnectPolicy {

  /** 500 ms: a server restart takes about that; sooner would mostly find the port closed. */
  public static final Duration DEFAULT_INITIAL_DELAY = Duration.ofMillis(500);
  /** 30 s: an outage is noticed within half a minute of its end. */
  public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(30);
  /** 2: the usual doubling. */
  public static final double DEFAULT_MULTIPLIER = 2.0;
  /** 0.5: each wait is between half and all of its step, so many clients do not come back at once. */
  public static final double DEFAULT_JITTER = 0.5;

  private final Duration initialDelay;
  private final Duration maxDelay;
  private final double multiplier;
  private final double jitter;
  private final int maxAttempts;

  private ReconnectPolicy(Builder b) {
    Duration initialDelay = Objects.requireNonNull(b.initialDelay, "initialDelay");
    Duration maxDelay = Objects.requireNonNull(b.maxDelay, "maxDelay");
    if (initialDelay.isNegative() || initialDelay.isZero()) {
      throw new IllegalArgumentException("initialDelay must be positive: " + initialDelay);
    }
    if (maxDelay.compareTo(initialDelay) < 0) {
      throw new IllegalArgumentException(
          "maxDelay must be at least initialDelay: " + maxDelay + " < " + initialDelay);
    }
    if (!(b.multiplier >= 1.0) || Double.isInfinite(b.multiplier)) {
      throw new IllegalArgumentException("multiplier must be at least 1: " + b.multiplier);
    }
    if (!(b.jitter >= 0.0 && b.jitter <= 1.0)) {
      throw new IllegalArgumentException("jitter must be 0 to 1: " + b.jitter);
    }
    if (b.maxAttempts < 0) {
      throw new IllegalArgumentException(
          "maxAttempts must not be negative (0 is forever): " + b.maxAttempts);
    }
    this.initialDelay = initialDelay;
    this.maxDelay = maxDelay;
    this.multiplier = b.multiplier;
    this.jitter = b.jitter;
    this.maxAttempts = b.maxAttempts;
  }

  /**
   * Starts a policy from the defaults.
   *
   * @return a builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns a builder with this policy's settings.
   *
   * @return a builder
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.initialDelay = initialDelay;
    b.maxDelay = maxDelay;
    b.multiplier = multiplier;
    b.jitter = jitter;
    b.maxAttempts = maxAttempts;
    return b;
  }

  /**
   * Returns the defaults: 500 ms doubling up to 30 s, half of each wait random, forever.
   *
   * @return the default policy
   */
  public static ReconnectPolicy defaults() {
    return DEFAULTS;
  }

  private static final ReconnectPolicy DEFAULTS = new Builder().build();

  /**
   * Returns the wait before the first attempt.
   *
   * @return the wait before the first attempt
   */
  public Duration initialDelay() {
    return initialDelay;
  }

  /**
   * Returns the longest wait between attempts.
   *
   * @return the longest wait between attempts
   */
  public Duration maxDelay() {
    return maxDelay;
  }

  /**
   * Returns how much each wait grows over the one before.
   *
   * @return how much each wait grows over the one before
   */
  public double multiplier() {
    return multiplier;
  }

  /**
   * Returns the random fraction of each wait.
   *
   * @return the random fraction of each wait
   */
  public double jitter() {
    return jitter;
  }

  /**
   * Returns attempts before giving up after a drop; 0 tries forever.
   *
   * @return attempts before giving up after a drop; 0 tries forever
   */
  public int maxAttempts() {
    return maxAttempts;
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

  /**
   * Returns how long to wait before an attempt, after a close with 1012 (Service Restart: the
   * server is draining, the service is up elsewhere) when {@code restart} is true: the first wait
   * is then a random part of {@link #initialDelay()} ({@code initialDelay * random}), whatever
   * the jitter, so the clients a node drains come back soon and spread over that time rather
   * than in one instant; later attempts wait as {@link #delay(int, double)} says.
   *
   * @param attempt the attempt, counting from 1
   * @param random a number from 0 (inclusive) to 1 (exclusive)
   * @param restart whether the connection was closed with 1012
   * @return the wait
   */
  Duration delay(int attempt, double random, boolean restart) {
    if (restart && attempt == 1) {
      return Duration.ofNanos((long) (initialDelay.toNanos() * random));
    }
    return delay(attempt, random);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ReconnectPolicy p && initialDelay.equals(p.initialDelay)
        && maxDelay.equals(p.maxDelay) && Double.compare(multiplier, p.multiplier) == 0
        && Double.compare(jitter, p.jitter) == 0 && maxAttempts == p.maxAttempts;
  }

  @Override
  public int hashCode() {
    return Objects.hash(initialDelay, maxDelay, multiplier, jitter, maxAttempts);
  }

  @Override
  public String toString() {
    return "ReconnectPolicy[initialDelay=" + initialDelay + ", maxDelay=" + maxDelay
        + ", multiplier=" + multiplier + ", jitter=" + jitter + ", maxAttempts=" + maxAttempts
        + "]";
  }

  /** Settings of a {@link ReconnectPolicy}; each starts at its default. Not thread-safe. */
  public static final class Builder {
    private Duration initialDelay = DEFAULT_INITIAL_DELAY;
    private Duration maxDelay = DEFAULT_MAX_DELAY;
    private double multiplier = DEFAULT_MULTIPLIER;
    private double jitter = DEFAULT_JITTER;
    private int maxAttempts;

    private Builder() {}

    /**
     * Sets the wait before the first attempt.
     *
     * @param value positive; {@link #DEFAULT_INITIAL_DELAY} by default
     * @return this builder
     */
    public Builder initialDelay(Duration value) {
      initialDelay = value;
      return this;
    }

    /**
     * Sets the longest wait between attempts.
     *
     * @param value at least the initial delay; {@link #DEFAULT_MAX_DELAY} by default
     * @return this builder
     */
    public Builder maxDelay(Duration value) {
      maxDelay = value;
      return this;
    }

    /**
     * Sets how much each wait grows over the one before.
     *
     * @param value at least 1; {@link #DEFAULT_MULTIPLIER} by default
     * @return this builder
     */
    public Builder multiplier(double value) {
      multiplier = value;
      return this;
    }

    /**
     * Sets the random fraction of each wait.
     *
     * @param value 0 (exact waits) to 1 (full jitter); {@link #DEFAULT_JITTER} by default
     * @return this builder
     */
    public Builder jitter(double value) {
      jitter = value;
      return this;
    }

    /**
     * Sets how many attempts follow a drop before giving up.
     *
     * @param value 0 (the default) to try forever, or more
     * @return this builder
     */
    public Builder maxAttempts(int value) {
      maxAttempts = value;
      return this;
    }

    /**
     * Checks the settings and makes the policy.
     *
     * @return the policy
     * @throws IllegalArgumentException when a setting is out of its range
     * @throws NullPointerException when a delay is null
     */
    public ReconnectPolicy build() {
      return new ReconnectPolicy(this);
    }
  }
}
