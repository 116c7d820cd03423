package dev.wsjava.cli.balancer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A load balancer process the harness started ({@link Haproxy}, {@link Nginx}): where clients
 * connect, its log, and its end by its own process id. Thread-safe.
 */
public abstract class Balancer implements AutoCloseable {
  private final Process process;
  private final String host;
  private final int port;
  private final Path log;

  Balancer(Process process, String host, int port, Path log) {
    this.process = process;
    this.host = host;
    this.port = port;
    this.log = log;
  }

  /**
   * Starts {@code command} (its output to {@code log}) and waits up to 20 s for it to listen.
   *
   * @return the process, listening
   */
  static Process launch(List<String> command, Path log, String host, int port) throws Exception {
    Process p = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    try {
      Loopback.awaitListening(host, port, Duration.ofSeconds(20), p, command.get(0));
    } catch (RuntimeException | InterruptedException e) {
      stop(p);
      throw new IllegalStateException(e.getMessage() + ": " + read(log), e);
    }
    return p;
  }

  /**
   * Returns the address clients connect to.
   *
   * @return the loopback address it listens on
   */
  public String host() {
    return host;
  }

  /**
   * Returns the port clients connect to.
   *
   * @return the port
   */
  public int port() {
    return port;
  }

  /**
   * Returns its process id, for a benchmark that reads its CPU time.
   *
   * @return the process id
   */
  public long pid() {
    return process.pid();
  }

  /**
   * Returns its log so far (alerts, warnings, errors).
   *
   * @return the log text
   * @throws IOException when it cannot be read
   */
  public String log() throws IOException {
    return read(log);
  }

  private static String read(Path log) throws IOException {
    return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
  }

  /** Kills it (SIGKILL) and waits until it is gone. */
  @Override
  public void close() {
    stop(process);
  }

  private static void stop(Process p) {
    p.destroyForcibly();
    try {
      p.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
