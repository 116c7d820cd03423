package dev.wsjava.transport.blocking;

import java.time.Duration;

/**
 * A one-shot timer on its own virtual thread, for the deadlines a read loop cannot keep itself:
 * the close timeout (the thread that would tick may be blocked in a write) and the TLS handshake
 * (which reads inside the JDK). Cancelling interrupts the sleeping thread, so a cancelled alarm
 * holds nothing.
 */
final class Alarm {
  private final Thread thread;
  private volatile boolean fired;
  private volatile boolean cancelled;

  private Alarm(Duration delay, Runnable action) {
    this.thread =
        Thread.ofVirtual()
            .name("wsjava-alarm")
            .unstarted(
                () -> {
                  try {
                    Thread.sleep(delay);
                  } catch (InterruptedException e) {
                    return;
                  }
                  if (!cancelled) {
                    fired = true;
                    action.run();
                  }
                });
  }

  /** Starts an alarm that runs {@code action} after {@code delay} unless cancelled first. */
  static Alarm after(Duration delay, Runnable action) {
    Alarm alarm = new Alarm(delay, action);
    alarm.thread.start();
    return alarm;
  }

  /** Cancels the alarm if it has not fired; does nothing after. */
  void cancel() {
    cancelled = true;
    if (!fired && Thread.currentThread() != thread) {
      thread.interrupt();
    }
  }

  /** Returns whether the action ran (or is running). */
  boolean fired() {
    return fired;
  }
}
