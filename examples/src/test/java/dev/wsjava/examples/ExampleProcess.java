package dev.wsjava.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One example run as a user runs it: {@code java [JVM options] -cp ... dev.wsjava.examples.NAME
 * ARGS} in a process of its own, its output (stdout and stderr) collected line by line. Closing it
 * kills the process (a server runs until then).
 */
final class ExampleProcess implements AutoCloseable {
  private final String name;
  private final Process process;
  private final List<String> lines = new ArrayList<>(); // guarded by this

  private ExampleProcess(String name, Process process) {
    this.name = name;
    this.process = process;
    Thread.ofVirtual().start(() -> {
      try (BufferedReader out = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = out.readLine()) != null; ) {
          synchronized (this) {
            lines.add(line);
            notifyAll();
          }
        }
      } catch (IOException closed) {
        // the process was killed
      }
    });
  }

  /** Starts example {@code name} with these JVM options (for example a small heap) and arguments. */
  static ExampleProcess start(List<String> jvmOptions, String name, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.wsjava.examples." + name));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    // A test JVM stopped from outside (Ctrl-C, a killed build) takes its examples with it.
    Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
    return new ExampleProcess(name, process);
  }

  /** Waits for a line that {@code regex} finds something in; returns the match. */
  synchronized Matcher await(String regex, Duration timeout) throws InterruptedException {
    Pattern pattern = Pattern.compile(regex);
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int seen = 0; ; ) {
      for (; seen < lines.size(); seen++) {
        Matcher m = pattern.matcher(lines.get(seen));
        if (m.find()) {
          return m;
        }
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError(name + " printed no line matching " + regex + " in " + timeout
            + (process.isAlive() ? "" : " (exited " + process.exitValue() + ")") + "; output:\n" + output());
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  /** The port in the first line that names {@code localhost:PORT}. */
  int port() throws InterruptedException {
    return Integer.parseInt(await("localhost:(\\d+)", Duration.ofSeconds(90)).group(1));
  }

  /** Waits for the process to end; its exit status. */
  int exit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError(name + " still runs after " + timeout + "; output:\n" + output());
    }
    return process.exitValue();
  }

  /** Everything printed so far. */
  synchronized String output() {
    return String.join("\n", lines);
  }

  @Override
  public void close() {
    process.destroyForcibly();
    process.onExit().orTimeout(10, TimeUnit.SECONDS).exceptionally(e -> process).join();
  }
}
