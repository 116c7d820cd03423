package dev.wsjava.cli.balancer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code wsjava serve} as a child process on a free loopback port, run from the current JVM's
 * class path (so a test of the wsjava-cli module runs the code it tests). Its standard output and
 * error are kept line by line, for tests to look for what it logged. Stopped only by its own
 * process id: {@link #kill()} (SIGKILL, a crash), {@link #terminate()} (SIGTERM, a drain).
 * Thread-safe.
 */
public final class ServeNode implements AutoCloseable {
  private static final Pattern FIRST_URL = Pattern.compile("https?://[^ ]*:(\\d+)/ .*");

  private final Process process;
  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final CompletableFuture<Integer> port = new CompletableFuture<>();
  private final String name;

  private ServeNode(String name, Process process) {
    this.name = name;
    this.process = process;
    pump(process.getInputStream(), true);
    pump(process.getErrorStream(), false);
  }

  /**
   * Starts a node and waits (up to 60 s) until it prints its URLs.
   *
   * @param name a name for its lines, e.g. {@code node1}
   * @param options {@code serve} options besides {@code --port 0}
   * @return the running node
   * @throws Exception when it does not start in time (its output is in the message)
   */
  public static ServeNode start(String name, List<String> options) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"), "dev.wsjava.cli.Main",
        "serve", "--host", "127.0.0.1", "--port", "0"));
    command.addAll(options);
    ServeNode node = new ServeNode(name, new ProcessBuilder(command).start());
    try {
      node.port.get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      node.close();
      throw new IllegalStateException(name + " did not start: " + node.lines, e);
    }
    return node;
  }

  private void pump(InputStream stream, boolean stdout) {
    Thread.ofPlatform().daemon().name(name + (stdout ? "-out" : "-err")).start(() -> {
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          lines.add(line);
          Matcher m = FIRST_URL.matcher(line);
          if (stdout && m.matches()) {
            port.complete(Integer.parseInt(m.group(1)));
          }
        }
      } catch (IOException e) {
        // the process is gone
      } finally {
        port.completeExceptionally(new IllegalStateException(name + " exited"));
      }
    });
  }

  /**
   * Returns the port it listens on, on 127.0.0.1.
   *
   * @return the port
   */
  public int port() {
    return port.join();
  }

  /**
   * Returns its name.
   *
   * @return as given to {@link #start}
   */
  public String name() {
    return name;
  }

  /**
   * Returns what it printed so far, standard output and error interleaved as they were read.
   *
   * @return a snapshot of the lines
   */
  public List<String> lines() {
    return List.copyOf(lines);
  }

  /**
   * Waits until it printed a line {@code wanted} accepts.
   *
   * @param wanted the test
   * @param max the longest wait
   * @return whether such a line came in time
   * @throws InterruptedException when interrupted
   */
  public boolean awaitLine(Predicate<String> wanted, Duration max) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (lines.stream().noneMatch(wanted)) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      Thread.sleep(20);
    }
    return true;
  }

  /** Kills it with SIGKILL, as a crash would, and waits until it is gone. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(20, TimeUnit.SECONDS);
  }

  /**
   * Sends it SIGTERM: {@code wsjava serve} drains and exits. Returns at once. (Through its process
   * handle: {@code Process.destroy()} would also close our ends of its output, losing what the
   * drain prints.)
   */
  public void terminate() {
    process.toHandle().destroy();
  }

  /**
   * Waits for it to exit.
   *
   * @param max the longest wait
   * @return its exit code, or null when it still runs
   * @throws InterruptedException when interrupted
   */
  public Integer awaitExit(Duration max) throws InterruptedException {
    return process.waitFor(max.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : null;
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
