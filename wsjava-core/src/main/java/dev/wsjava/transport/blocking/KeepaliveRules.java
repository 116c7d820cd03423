package dev.wsjava.transport.blocking;

import dev.wsjava.transport.ConnectionConfig;
import java.time.Duration;

/**
 * The idle and keepalive rules of a blocking connection, as arithmetic on instants: what is due
 * now, and when to look next. {@link BlockingConnection} passes its state and the time in and acts
 * on the answer on a {@link Keepalive} thread; tests pass a hand-driven clock, so each rule is
 * checked at the instant it should act and the instant before (as the NIO side's
 * {@code ConnectionTimers} are). No clock, no thread, no I/O.
 */
final class KeepaliveRules {
  /** The timers never run sooner than this after the last time. */
  static final long MIN_TIMER_NANOS = 1_000_000;

  /** What the timers do when they run. */
  enum Act {
    /** Nothing yet. */
    NONE,
    /** Nothing arrived for the idle timeout: close with 1001. */
    IDLE_TIMEOUT,
    /** Nothing arrived within the dead-peer timeout after a ping: send 1011 and drop the peer. */
    DEAD_PEER,
    /** The peer has been quiet for the ping interval: ping it. */
    PING
  }

  private KeepaliveRules() {}

  /**
   * Returns what is due at {@code now}, reading not paused.
   *
   * @param config the timeouts
   * @param now the time
   * @param lastReceive when bytes last arrived
   * @param pingOutstanding whether a ping waits for a sign of life
   * @param pingSent when that ping went out
   * @return what to do
   */
  static Act due(
      ConnectionConfig config, long now, long lastReceive, boolean pingOutstanding, long pingSent) {
    long quiet = now - lastReceive;
    Duration idle = config.idleTimeout();
    Duration ping = config.pingInterval();
    if (!idle.isZero() && quiet >= idle.toNanos()) {
      return Act.IDLE_TIMEOUT;
    }
    if (!ping.isZero() && pingOutstanding) {
      return now - pingSent >= config.deadPeerTimeout().toNanos() ? Act.DEAD_PEER : Act.NONE;
    }
    if (!ping.isZero() && quiet >= ping.toNanos()) {
      return Act.PING;
    }
    return Act.NONE;
  }

  /**
   * Returns when the timers next need to run: the idle deadline, the ping deadline, or a pong's
   * deadline, whichever comes first, at least {@link #MIN_TIMER_NANOS} away. While reading is
   * paused the timers wait: they look again one interval on.
   *
   * @param config the timeouts
   * @param now the time
   * @param lastReceive when bytes last arrived
   * @param paused whether reading is paused
   * @param pingOutstanding whether a ping waits for a sign of life
   * @param pingSent when that ping went out
   * @return an instant, or {@link Long#MAX_VALUE} when the config has no idle timeout and no pings
   */
  static long next(
      ConnectionConfig config,
      long now,
      long lastReceive,
      boolean paused,
      boolean pingOutstanding,
      long pingSent) {
    Duration idle = config.idleTimeout();
    Duration ping = config.pingInterval();
    if (idle.isZero() && ping.isZero()) {
      return Long.MAX_VALUE;
    }
    long wait = Long.MAX_VALUE;
    if (paused) {
      wait = Math.min(idle.isZero() ? wait : idle.toNanos(), ping.isZero() ? wait : ping.toNanos());
    } else {
      long quiet = now - lastReceive;
      if (!idle.isZero()) {
        wait = idle.toNanos() - quiet;
      }
      if (!ping.isZero()) {
        wait =
            Math.min(
                wait,
                pingOutstanding
                    ? config.deadPeerTimeout().toNanos() - (now - pingSent)
                    : ping.toNanos() - quiet);
      }
    }
    return now + Math.max(MIN_TIMER_NANOS, wait);
  }
}
