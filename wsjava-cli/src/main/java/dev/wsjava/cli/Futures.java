package dev.wsjava.cli;

import dev.wsjava.SendQueueFullException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** What the commands ask of send futures. */
final class Futures {
  private Futures() {}

  /** The failure itself, out of the {@link CompletionException} a dependent stage wraps it in. */
  static Throwable cause(Throwable e) {
    Throwable t = e;
    while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  /** Whether {@code send} has already failed because the send queue was full. */
  static boolean refusedFull(CompletableFuture<?> send) {
    return send.isCompletedExceptionally()
        && send.handle((ok, e) -> cause(e) instanceof SendQueueFullException).join();
  }
}
