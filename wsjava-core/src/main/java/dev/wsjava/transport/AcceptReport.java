package dev.wsjava.transport;

import dev.wsjava.events.WsEvents;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a server's acceptor reports of its {@link AcceptBackoff} episodes: one log line when an
 * episode starts and one when it ends (never one per failed accept), a {@code
 * dev.wsjava.AcceptPaused} Flight Recorder event spanning it, and the count of episodes caused by
 * exhausted file descriptors. Everything it needs is loaded when it is made, and its log lines go
 * through {@link LastResort}, so reporting needs no file descriptor.
 *
 * <p>{@link #started} and {@link #ended} run on the acceptor's thread; {@link #exhaustions} may be
 * read from any.
 */
public final class AcceptReport implements AcceptBackoff.Listener {
  private final System.Logger log;
  private final String where;
  private final AtomicLong exhaustions = new AtomicLong();
  private WsEvents.AcceptPaused event;

  /**
   * Makes a report and loads what it needs.
   *
   * @param log the transport's logger
   * @param where the listener's address, for the log lines
   */
  public AcceptReport(System.Logger log, String where) {
    this.log = log;
    this.where = where;
    LastResort.prepare(log);
    new WsEvents.AcceptPaused(); // the class is loaded now, not when no file can be opened
  }

  @Override
  public void started(boolean exhausted, IOException error) {
    if (exhausted) {
      exhaustions.incrementAndGet();
    }
    try {
      event = new WsEvents.AcceptPaused();
      event.begin();
      event.exhausted = exhausted;
      event.error = String.valueOf(error.getMessage());
    } catch (Throwable e) {
      event = null;
    }
    LastResort.log(
        log,
        System.Logger.Level.WARNING,
        "accepting on " + where + " paused: " + error.getMessage()
            + (exhausted ? " (no file descriptor left)" : "")
            + "; retrying with a back-off of up to " + AcceptBackoff.MAX.toMillis()
            + " ms, open connections are still served",
        null);
  }

  @Override
  public void ended(long nanos, long failures, boolean exhausted) {
    WsEvents.AcceptPaused e = event;
    event = null;
    if (e != null) {
      try {
        e.end();
        e.failures = failures;
        e.commit();
      } catch (Throwable ignored) {
        // the event is lost, the log line below is not
      }
    }
    LastResort.log(
        log,
        System.Logger.Level.INFO,
        "accepting on " + where + " resumed after " + TimeUnit.NANOSECONDS.toMillis(nanos)
            + " ms (" + failures + " failed accept(s))",
        null);
  }

  /**
   * Returns how many times accepting paused because file descriptors ran out: one per episode.
   *
   * @return the count
   */
  public long exhaustions() {
    return exhaustions.get();
  }
}
