package dev.wsjava.transport;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * How an acceptor waits after a failed accept: it pauses accepting for a delay that starts at
 * {@link #FIRST} and doubles up to {@link #MAX} while accepts keep failing, and starts over after a
 * success. A failed accept leaves the connection in the listen backlog, so retrying at once would
 * spin the thread at 100% (a selector reports the listener ready again and again) and log once per
 * try; Netty's {@code ServerBootstrapAcceptor} likewise stops reading for a second, and Tomcat's
 * {@code Acceptor} backs off up to 1.6 s. Established connections are served meanwhile: only new
 * ones wait, in the kernel's backlog.
 *
 * <p>The failures from the first to the next success are one <em>episode</em>: the {@link
 * Listener} hears of its start (once, however many accepts fail in it) and of its end. What the
 * listener does must not need a file descriptor of its own: the process has none while descriptors
 * are exhausted (see {@link LastResort}).
 *
 * <p>Not thread-safe: one acceptor thread uses it. Time comes from the clock given, in nanoseconds,
 * so tests drive it by hand.
 */
public final class AcceptBackoff {
  /** The first pause: short, so a burst of resets in the backlog costs little. */
  public static final Duration FIRST = Duration.ofMillis(10);

  /** The longest pause, reached after seven failures in a row; Netty pauses a second too. */
  public static final Duration MAX = Duration.ofSeconds(1);

  /** What an acceptor reports of an episode; called on the acceptor's thread. */
  public interface Listener {
    /**
     * Accepting failed after succeeding (or for the first time).
     *
     * @param exhausted whether the process or the system has no file descriptor left
     * @param error the accept's error
     */
    void started(boolean exhausted, IOException error);

    /**
     * Accepting works again.
     *
     * @param nanos how long the episode lasted, first failure to this success
     * @param failures how many accepts failed in it
     * @param exhausted whether it started for want of descriptors
     */
    void ended(long nanos, long failures, boolean exhausted);
  }

  private final LongSupplier clock;
  private final Listener listener;
  private long delayNanos;
  private long failures;
  private long startedAt;
  private boolean exhausted;

  /**
   * Makes a back-off.
   *
   * @param clock the time in nanoseconds ({@link System#nanoTime} in production)
   * @param listener hears of each episode's start and end
   */
  public AcceptBackoff(LongSupplier clock, Listener listener) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.listener = Objects.requireNonNull(listener, "listener");
    Descriptors.exhausted(null); // loaded now: no class can be read once descriptors run out
  }

  /**
   * An accept failed: returns how long to stop accepting. Reports the episode's start on its first
   * failure.
   *
   * @param error the accept's error
   * @return the pause, in nanoseconds, {@link #FIRST} to {@link #MAX}
   */
  public long failed(IOException error) {
    if (failures++ == 0) {
      startedAt = clock.getAsLong();
      exhausted = Descriptors.exhausted(error);
      delayNanos = FIRST.toNanos();
      listener.started(exhausted, error);
    } else {
      delayNanos = Math.min(MAX.toNanos(), delayNanos * 2);
    }
    return delayNanos;
  }

  /** An accept succeeded: ends an episode under way (reporting it) and resets the pause. */
  public void accepted() {
    if (failures > 0) {
      end();
    }
  }

  /** Ends an episode under way, as the acceptor stops; the listener hears of it. */
  public void stopped() {
    if (failures > 0) {
      end();
    }
  }

  private void end() {
    long n = failures;
    failures = 0;
    delayNanos = 0;
    listener.ended(clock.getAsLong() - startedAt, n, exhausted);
  }

  /**
   * Returns whether an episode is under way.
   *
   * @return true between a failure and the next success
   */
  public boolean failing() {
    return failures > 0;
  }
}
