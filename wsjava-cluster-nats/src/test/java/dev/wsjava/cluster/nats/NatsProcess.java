package dev.wsjava.cluster.nats;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A real nats-server of a test's own on a free loopback port: core NATS, or with JetStream ({@code
 * -js}) storing under {@code target/} in a directory of its own.
 */
public final class NatsProcess implements AutoCloseable {
  /** Where Debian's nats-server package puts the program, then PATH. */
  private static final List<String> PLACES = List.of("/usr/bin/nats-server", "/usr/sbin/nats-server");

  private final String program;
  private final int port;
  private final Path store; // null: no JetStream
  private Process process;

  /**
   * Starts one.
   *
   * @throws IllegalStateException when nats-server is not installed (the message says how)
   * @throws Exception when it does not start within 20 s
   */
  public NatsProcess() throws Exception {
    this(false);
  }

  /**
   * Starts one, with JetStream when asked.
   *
   * @param jetStream whether to run with {@code -js}, storing in a new directory under target/
   * @throws Exception when it does not start within 20 s
   */
  public NatsProcess(boolean jetStream) throws Exception {
    program = find();
    store = jetStream
        ? Files.createTempDirectory(Files.createDirectories(Path.of("target", "nats-js")), "store")
        : null;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    start();
  }

  private static String find() {
    for (String p : PLACES) {
      if (Files.isExecutable(Path.of(p))) {
        return p;
      }
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "nats-server"))) {
        return Path.of(dir, "nats-server").toString();
      }
    }
    throw new IllegalStateException("nats-server is not installed (looked in " + PLACES
        + " and PATH): install the Debian package nats-server (./test does) to run the NATS"
        + " cluster tests");
  }

  /**
   * Returns where it listens.
   *
   * @return {@code nats://127.0.0.1:PORT}
   */
  public String url() {
    return "nats://127.0.0.1:" + port;
  }

  /** Starts it (again) on its port and waits until it accepts connections. */
  public void start() throws Exception {
    List<String> command = new java.util.ArrayList<>(
        List.of(program, "-a", "127.0.0.1", "-p", Integer.toString(port)));
    if (store != null) {
      command.addAll(List.of("-js", "-sd", store.toAbsolutePath().toString()));
    }
    process = new ProcessBuilder(command).redirectErrorStream(true).start();
    CompletableFuture<Void> ready = new CompletableFuture<>();
    Process p = process;
    Thread.ofVirtual().start(() -> {
      try (BufferedReader r = new BufferedReader(
          new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        StringBuilder said = new StringBuilder();
        while ((line = r.readLine()) != null) {
          said.append(line).append('\n');
          if (line.contains("Server is ready")) {
            ready.complete(null);
          }
        }
        ready.completeExceptionally(new IllegalStateException("nats-server exited:\n" + said));
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
