package dev.wsjava.cli;

import java.util.concurrent.CountDownLatch;

/** How the long-running commands ({@code serve}, {@code conformance server}) end: Ctrl-C or SIGTERM. */
final class Shutdown {
  private Shutdown() {}

  /**
   * Blocks until the JVM begins to shut down (Ctrl-C, SIGTERM), runs {@code stop} on the shutdown
   * hook, and returns once it has run.
   *
   * @param name the hook thread's name, for thread dumps
   * @param stop closes what the command started and says so
   */
  static void await(String name, Runnable stop) throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    stop.run();
                  } finally {
                    stopped.countDown();
                  }
                },
                name));
    stopped.await();
  }
}
