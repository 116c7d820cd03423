package dev.wsjava.cli;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

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
    await(name, stop, new CompletableFuture<Void>());
  }

  /**
   * Like {@link #await(String, Runnable)}, but returns early when {@code failed} completes
   * exceptionally: a server that failed beyond recovery must not leave a process that waits for a
   * signal while serving nothing.
   *
   * @param name the shutdown hook thread's name
   * @param stop what Ctrl-C or SIGTERM runs
   * @param failed a server's close future
   * @return null after a signal, else the error {@code failed} completed with
   * @throws InterruptedException when interrupted while waiting
   */
  static Throwable await(String name, Runnable stop, CompletableFuture<?> failed)
      throws InterruptedException {
    CompletableFuture<Throwable> outcome = new CompletableFuture<>();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    stop.run();
                  } finally {
                    outcome.complete(null);
                  }
                },
                name));
    failed.whenComplete((v, e) -> {
      if (e != null) {
        outcome.complete(e instanceof CompletionException && e.getCause() != null ? e.getCause() : e);
      }
    });
    try {
      return outcome.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e); // never completed exceptionally
    }
  }

}
