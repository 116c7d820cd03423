package dev.wsjava.bench.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A process the suite started (a server or a client): its standard output read line by line on a
 * thread of its own and copied to a log file with its standard error, lines waited for with a
 * time limit, and the memory figures of scenario 5 read from outside. Stopped by its own id.
 */
final class ServerProcess implements AutoCloseable {
  private static final String EOF = "\u0000EOF";
  private static final Pattern HEAP_USED = Pattern.compile("(?m)^\\s*\\S.*?\\s+total \\d+K, used (\\d+)K");

  private final Process process;
  private final Path log;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

  private ServerProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
    Thread.ofPlatform().daemon().name("out-" + process.pid()).start(this::pump);
  }

  /**
   * Starts a process.
   *
   * @param command the command
   * @param log where its output goes (appended)
   * @return the running process
   * @throws IOException when it cannot start
   */
  static ServerProcess start(List<String> command, Path log) throws IOException {
    Files.createDirectories(log.getParent());
    Files.writeString(log, "$ " + String.join(" ", command) + "\n", StandardCharsets.UTF_8,
        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    Process p = new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
    return new ServerProcess(p, log);
  }

  private void pump() {
    try (BufferedReader r = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter w = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8,
            StandardOpenOption.APPEND), true)) {
      String line;
      while ((line = r.readLine()) != null) {
        w.println(line);
        lines.add(line);
      }
    } catch (IOException e) {
      lines.add("ERROR reading the process's output: " + e);
    } finally {
      lines.add(EOF);
    }
  }

  /**
   * Waits for a line starting with a prefix; other lines are skipped.
   *
   * @param prefixes the prefixes looked for
   * @param timeout how long to wait
   * @return the line
   * @throws IOException when the process ends or the time runs out first (with the log's tail)
   */
  String await(Duration timeout, String... prefixes) throws IOException {
    long end = System.nanoTime() + timeout.toNanos();
    while (true) {
      String line = next(end);
      if (line == null) {
        throw new IOException("no " + String.join("/", prefixes) + " line within "
            + timeout.toSeconds() + " s" + tail());
      }
      if (line.equals(EOF)) {
        throw new IOException("the process ended" + exitText() + tail());
      }
      if (matches(line, prefixes)) {
        return line;
      }
    }
  }

  /**
   * Collects the lines starting with any of the prefixes until the process ends.
   *
   * @param timeout how long the process may run
   * @param prefixes the prefixes kept
   * @return the lines kept
   * @throws IOException when the time runs out (the process is then stopped)
   */
  List<String> linesUntilExit(Duration timeout, String... prefixes) throws IOException {
    List<String> kept = new java.util.ArrayList<>();
    long end = System.nanoTime() + timeout.toNanos();
    while (true) {
      String line = next(end);
      if (line == null) {
        close();
        throw new IOException("still running after " + timeout.toSeconds() + " s, stopped" + tail());
      }
      if (line.equals(EOF)) {
        return kept;
      }
      if (matches(line, prefixes)) {
        kept.add(line);
      }
    }
  }

  /** The next output line, {@link #EOF} (kept for later calls) once it ended, null at the deadline. */
  private String next(long deadline) throws IOException {
    try {
      long left = deadline - System.nanoTime();
      String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
      if (EOF.equals(line)) {
        lines.add(EOF);
      }
      return line;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private static boolean matches(String line, String... prefixes) {
    for (String p : prefixes) {
      if (line.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Returns the process id.
   *
   * @return the pid
   */
  long pid() {
    return process.pid();
  }

  /**
   * Whether the process still runs.
   *
   * @return true until it ended
   */
  boolean isAlive() {
    return process.isAlive();
  }

  /** Closes the process's standard input (the idle client's signal to close). */
  void closeStdin() {
    try {
      process.getOutputStream().close();
    } catch (IOException ignored) {
      // already gone
    }
  }

  /**
   * Waits for the process to end by itself.
   *
   * @param timeout how long
   * @return whether it ended
   * @throws InterruptedException when interrupted
   */
  boolean waitFor(Duration timeout) throws InterruptedException {
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Reads the resident set size.
   *
   * @return VmRSS from /proc/PID/status, in KiB
   * @throws IOException when the process is gone
   */
  long rssKib() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new IOException("no VmRSS for " + pid());
  }

  /**
   * Runs a full GC in the process and reads the heap in use afterwards.
   *
   * @param jcmd the jcmd of the JDK the process runs on
   * @return the heap used after the GC, in KiB
   * @throws IOException when jcmd fails
   */
  long heapAfterFullGcKib(String jcmd) throws IOException {
    run(List.of(jcmd, Long.toString(pid()), "GC.run"));
    return heapUsedKib(run(List.of(jcmd, Long.toString(pid()), "GC.heap_info")));
  }

  /**
   * Adds up the heap in use from {@code jcmd GC.heap_info} (every generation's or region set's
   * {@code total NK, used MK} line; metaspace lines have no total and do not count).
   *
   * @param heapInfo jcmd's output
   * @return KiB used
   * @throws IOException when no such line is found
   */
  static long heapUsedKib(String heapInfo) throws IOException {
    Matcher m = HEAP_USED.matcher(heapInfo);
    long used = 0;
    boolean found = false;
    while (m.find()) {
      used += Long.parseLong(m.group(1));
      found = true;
    }
    if (!found) {
      throw new IOException("no heap figures in: " + heapInfo.strip());
    }
    return used;
  }

  /**
   * Runs a short command to its end.
   *
   * @param command the command
   * @return its output (standard output and error)
   * @throws IOException when it fails, or takes more than a minute
   */
  static String run(List<String> command) throws IOException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IOException(String.join(" ", command) + " failed: " + out.strip());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private String exitText() {
    try {
      return process.waitFor(2, TimeUnit.SECONDS) ? " with " + process.exitValue() : "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  private String tail() {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return " (log " + log + ": " + String.join(" / ", all.subList(Math.max(1, all.size() - 3), all.size()))
          + ")";
    } catch (IOException | RuntimeException e) {
      return " (log " + log + ")";
    }
  }

  /** Stops the process: a polite signal, then a forced one after five seconds. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
