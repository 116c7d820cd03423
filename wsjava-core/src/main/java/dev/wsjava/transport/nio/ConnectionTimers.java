package dev.wsjava.transport.nio;

import dev.wsjava.transport.Tuning;

import dev.wsjava.transport.ConnectionConfig;
import java.time.Duration;

/**
 * The timers of one {@link NioConnection}, kept off its byte pump as the blocking side keeps its
 * own in {@code Keepalive}: the idle timeout, the keepalive ping and the dead-peer deadline after
 * it, the close timeout, the memory stall check and the slow-trickle (progress) check.
 *
 * <p>They read the time from, and schedule on, a {@link Scheduler}: the connection's loop in
 * production, a hand-driven clock in tests, so each rule is tested instant by instant. What they
 * act on (close for a timeout, send a ping, drop a dead peer) is the {@link Host}'s business.
 *
 * <p>Made at the first timer a connection arms: with the default config (no idle timeout, no
 * pings) that is when a close waits for its answer, so an idle connection holds none. Loop thread
 * only.
 */
final class ConnectionTimers {
  /** The clock and timer queue the timers run on: the event loop, or a test's manual clock. */
  interface Scheduler {
    /**
     * Returns the time.
     *
     * @return a {@link System#nanoTime()} value, on this scheduler's clock
     */
    long nanoTime();

    /**
     * Runs {@code task} at {@code deadline}; loop thread only.
     *
     * @param deadline a time on this scheduler's clock
     * @param task the task
     * @return the timer, to cancel it
     */
    Timer scheduleAt(long deadline, Runnable task);
  }

  /** The connection the timers watch and act on. */
  interface Host {
    /** Returns the connection's timeouts; see {@link ConnectionConfig}. */
    ConnectionConfig timerConfig();

    /** Returns when bytes were last received, on the scheduler's clock. */
    long lastReceivedNanos();

    /** Returns whether reading is paused for any reason: quiet is then not the peer's fault. */
    boolean readingPaused();

    /** Returns whether reading is paused because the memory budget is tight. */
    boolean waitingForMemory();

    /** Returns whether the WebSocket is open (no close sent or received yet). */
    boolean isOpen();

    /** Returns whether the socket is closed: no timer acts any more. */
    boolean socketGone();

    /**
     * Nothing arrived for the idle timeout: close with 1001 and report it.
     *
     * @param reason the close reason, which says how long
     */
    void idleTimedOut(String reason);

    /**
     * Sends an empty ping to a quiet peer.
     *
     * @return false when the connection is closing and sends nothing more
     */
    boolean pingQuietPeer();

    /** Nothing arrived within the dead-peer timeout after a ping: fail the connection. */
    void peerDead();

    /** The close timeout passed: close the socket. */
    void closeTimedOut();

    /** Reading waited a stall timeout for memory: ask the budget to evict a stuck holder. */
    void memoryStalled();

    /**
     * Reading is paused: checks that the peer is still there (an empty ping whose write fails on
     * a reset socket, which fails the connection).
     *
     * @return whether to check again later: false once reading resumed or the connection closes
     */
    boolean probePausedPeer();

    /**
     * Checks the peer's progress (slow-trickle defence).
     *
     * @return the next time to check, or 0 for none
     */
    long progressCheck();
  }

  private final Host host;
  /**
   * When bytes last came, kept here for a host with nowhere else to keep it (a {@link
   * NioConnection}: only these timers read it, and a connection without any has none); written by
   * the host on the loop thread.
   */
  long lastReceivedNanos = System.nanoTime();
  private final Scheduler scheduler;
  private Timer close;
  private Timer idle;
  private Timer ping;
  private Timer progress;
  private Timer stall;
  private Timer probe;
  private boolean pingOutstanding;
  private long pingSentAt;
  private boolean stallArmed;
  private boolean progressArmed;
  private boolean probeArmed;

  ConnectionTimers(Host host, Scheduler scheduler) {
    this.host = host;
    this.scheduler = scheduler;
  }

  /** Arms the idle and keepalive timers the config asks for, from the last receive. */
  void armKeepalive() {
    ConnectionConfig config = host.timerConfig();
    long idleNanos = config.idleTimeout().toNanos();
    long pingNanos = config.pingInterval().toNanos();
    if (idleNanos > 0) {
      idle = scheduler.scheduleAt(host.lastReceivedNanos() + idleNanos, this::checkIdle);
    }
    if (pingNanos > 0) {
      ping = scheduler.scheduleAt(host.lastReceivedNanos() + pingNanos, this::checkPing);
    }
  }

  /**
   * Arms the close timer, unless one is armed already: the first deadline holds.
   *
   * @param timeout how long from now
   */
  void armClose(Duration timeout) {
    if (close == null && !host.socketGone()) {
      close = scheduler.scheduleAt(scheduler.nanoTime() + timeout.toNanos(), host::closeTimedOut);
    }
  }

  /**
   * Arms the progress check for {@code deadline}, unless one is armed.
   *
   * @param deadline a time on the scheduler's clock
   */
  void armProgress(long deadline) {
    if (progressArmed || host.socketGone()) {
      return;
    }
    progressArmed = true;
    progress = scheduler.scheduleAt(deadline, () -> {
      progressArmed = false;
      if (!host.socketGone()) {
        long next = host.progressCheck();
        if (next != 0) {
          armProgress(next);
        }
      }
    });
  }

  /**
   * While reading waits for memory, asks the budget once a stall timeout whether a stalled holder
   * must go (the largest; perhaps this one).
   */
  void armStall() {
    if (stallArmed || host.socketGone()) {
      return;
    }
    stallArmed = true;
    Duration timeout = host.timerConfig().memory().stallTimeout();
    stall = scheduler.scheduleAt(scheduler.nanoTime() + timeout.toNanos(), () -> {
      stallArmed = false;
      if (!host.socketGone() && host.waitingForMemory()) {
        host.memoryStalled();
        armStall();
      }
    });
  }

  /**
   * While reading is paused, probes the peer every {@link Tuning#PAUSED_PROBE}: a paused socket
   * is not read, so only a write tells that the peer reset or closed it.
   */
  void armPausedProbe() {
    if (probeArmed || host.socketGone()) {
      return;
    }
    probeArmed = true;
    probe = scheduler.scheduleAt(scheduler.nanoTime() + Tuning.PAUSED_PROBE.toNanos(), () -> {
      probeArmed = false;
      if (!host.socketGone() && host.probePausedPeer()) {
        armPausedProbe();
      }
    });
  }

  /**
   * Cancels every timer; the socket is closed. A cancelled timer lets go of its task, so the
   * loop's timer queue no longer reaches the connection (nor the buffers it held).
   */
  void cancel() {
    for (Timer t : new Timer[] {close, idle, ping, progress, stall, probe}) {
      if (t != null) {
        t.cancel();
      }
    }
  }

  /** Closes with 1001 when nothing arrived for the idle timeout; else checks again later. */
  private void checkIdle() {
    if (host.socketGone()) {
      return;
    }
    Duration timeout = host.timerConfig().idleTimeout();
    long now = scheduler.nanoTime();
    long last = host.readingPaused() ? now : host.lastReceivedNanos(); // paused: not the peer's fault
    if (now - last >= timeout.toNanos()) {
      if (host.isOpen()) {
        host.idleTimedOut("idle timeout: nothing received for " + timeout.toMillis() + " ms");
      }
      return;
    }
    idle = scheduler.scheduleAt(last + timeout.toNanos(), this::checkIdle);
  }

  /**
   * Pings a quiet peer; when nothing at all arrives within the dead-peer timeout after the ping,
   * the peer is taken as dead.
   */
  private void checkPing() {
    if (host.socketGone() || !host.isOpen()) {
      return; // closing: no more pings, the close timeout bounds the rest
    }
    ConnectionConfig config = host.timerConfig();
    long interval = config.pingInterval().toNanos();
    long deadline = config.deadPeerTimeout().toNanos();
    long now = scheduler.nanoTime();
    if (host.readingPaused()) {
      pingOutstanding = false; // a pong could not be read: judge again once reading resumes
      ping = scheduler.scheduleAt(now + interval, this::checkPing);
      return;
    }
    long last = host.lastReceivedNanos();
    if (pingOutstanding) {
      if (last - pingSentAt > 0) {
        pingOutstanding = false; // something arrived since the ping: alive
      } else if (now - pingSentAt >= deadline) {
        host.peerDead();
        return;
      } else {
        ping = scheduler.scheduleAt(pingSentAt + deadline, this::checkPing);
        return;
      }
    }
    if (now - last >= interval) {
      if (!host.pingQuietPeer()) {
        return; // closing: the close timeout takes over
      }
      pingOutstanding = true;
      pingSentAt = now;
      ping = scheduler.scheduleAt(now + deadline, this::checkPing);
    } else {
      ping = scheduler.scheduleAt(last + interval, this::checkPing);
    }
  }
}
