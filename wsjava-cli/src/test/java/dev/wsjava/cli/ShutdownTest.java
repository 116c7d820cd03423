package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ShutdownTest {

  @Test
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void aServerThatFailsEndsTheWaitWithItsErrorSoServeExitsNonZero() throws Exception {
    OutOfMemoryError error = new OutOfMemoryError("Java heap space");
    CompletableFuture<Void> failing = new CompletableFuture<>();
    CompletableFuture<Throwable> failed = CompletableFuture.supplyAsync(() -> {
      try {
        return Shutdown.await("wsjava-test-shutdown", () -> {}, failing.copy());
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    failing.completeExceptionally(error);
    assertThat(failed.get(5, TimeUnit.SECONDS)).isSameAs(error);
    assertThat(ServeCommand.FAILED).isNotZero();
  }
}
