package dev.wsjava.cluster.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A real redis-server of a test's own on a free loopback port, without persistence. */
public final class RedisProcess implements AutoCloseable {
  private final int port;
  private Process process;

  /**
   * Starts one.
   *
   * @throws Exception when it does not start within 20 s
   */
  public RedisProcess() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    start();
  }

  /**
   * Returns where it listens.
   *
   * @return {@code redis://127.0.0.1:PORT}
   */
  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  /** Starts it (again) on its port and waits until it accepts connections. */
  public void start() throws Exception {
    process = new ProcessBuilder("redis-server", "--port", Integer.toString(port),
        "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
        .redirectErrorStream(true).start();
    CompletableFuture<Void> ready = new CompletableFuture<>();
    Process p = process;
    Thread.ofVirtual().start(() -> {
      try (BufferedReader r = new BufferedReader(
          new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          if (line.contains("Ready to accept connections")) {
            ready.complete(null);
          }
        }
        ready.completeExceptionally(new IllegalStateException("redis-server exited"));
      } catch (IOException e) {
        ready.completeExceptionally(new UncheckedIOException(e));
      }
    });
    ready.get(20, TimeUnit.SECONDS);
  }

  /** Kills it, as a crash would, and waits until it is gone. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(20, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
