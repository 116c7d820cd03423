package dev.wsjava;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Test helper: bounded polling for a state that no event announces, such as a server's count of
 * open connections reaching zero or a send queue filling. It waits for something to become true,
 * never for time to pass: a test that must see that something did not happen waits for what
 * would come after it (a witness, the next ping, a close future) instead.
 */
public final class Await {
  private static final long POLL_MILLIS = 5;

  private Await() {}

  /**
   * Returns once {@code condition} holds, checking every few milliseconds.
   *
   * @param what the condition in words, for the failure
   * @param limit how long to wait at most
   * @param condition the state to wait for
   * @throws AssertionError when it does not hold within {@code limit}
   * @throws InterruptedException when interrupted
   */
  public static void until(String what, Duration limit, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not within " + limit.toMillis() + " ms: " + what);
      }
      Thread.sleep(POLL_MILLIS);
    }
  }
}
