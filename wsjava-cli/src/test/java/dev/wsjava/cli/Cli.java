package dev.wsjava.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/** Test helper: runs wsjava commands in-process with stdin, stdout and stderr of the test's own. */
final class Cli {
  private Cli() {}

  /** What a command run left behind. */
  record Result(int exit, byte[] stdout, String stderr) {
    String out() {
      return new String(stdout, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out() + "\n--- stderr\n" + stderr;
    }
  }

  /** Runs {@code args} with {@code stdin} as standard input. */
  static Result run(String stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Io io = new Io(
        new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        false);
    int exit = Main.run(io, args);
    return new Result(exit, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
  }

  /**
   * Runs {@code args} in a child JVM, as a shell would run {@code wsjava}: the process exits when
   * the command returns ({@link Main#main} calls {@code System.exit}), so whatever the command
   * left unwritten at that moment is lost, as it would be for a user.
   *
   * @param stdin the child's standard input, closed after it is written
   * @param environment variables to set (null values remove them)
   * @param args the command line
   */
  static Result child(String stdin, java.util.Map<String, String> environment, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        ProcessHandle.current().info().command().orElseThrow(),
        "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(List.of(args));
    ProcessBuilder child = new ProcessBuilder(command);
    environment.forEach((k, v) -> {
      if (v == null) {
        child.environment().remove(k);
      } else {
        child.environment().put(k, v);
      }
    });
    Process p = child.start();
    CompletableFuture<byte[]> out = readAll(p.getInputStream());
    CompletableFuture<byte[]> err = readAll(p.getErrorStream());
    try (var in = p.getOutputStream()) {
      in.write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    try {
      if (!p.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        throw new AssertionError("wsjava " + String.join(" ", args) + " still runs after "
            + CHILD_TIMEOUT_SECONDS + " s");
      }
      return new Result(p.exitValue(), out.join(), new String(err.join(), StandardCharsets.UTF_8));
    } finally {
      p.destroyForcibly();
    }
  }

  /** The longest a child process may run. */
  private static final int CHILD_TIMEOUT_SECONDS = 60;

  private static CompletableFuture<byte[]> readAll(InputStream in) {
    CompletableFuture<byte[]> all = new CompletableFuture<>();
    Thread.ofVirtual().start(() -> {
      try (in) {
        all.complete(in.readAllBytes());
      } catch (IOException e) {
        all.completeExceptionally(e);
      }
    });
    return all;
  }

  /** Starts {@code wsjava serve} with these options in-process; its messages go to stderr. */
  static ServeCommand.Running serve(String... options) throws Exception {
    Io io = new Io(new ByteArrayInputStream(new byte[0]), System.out, System.err, false);
    String[] args = new String[options.length + 1];
    args[0] = "serve";
    System.arraycopy(options, 0, args, 1, options.length);
    ServeCommand serve = parse(io, args);
    return serve.start();
  }

  /** Parses a command line over these streams and returns the (innermost) command it names. */
  static <T> T parse(Io io, String... args) {
    CommandLine.ParseResult parsed = Main.commandLine(io).parseArgs(args);
    while (parsed.hasSubcommand()) {
      parsed = parsed.subcommand();
    }
    return parsed.commandSpec().commandLine().getCommand();
  }
}
