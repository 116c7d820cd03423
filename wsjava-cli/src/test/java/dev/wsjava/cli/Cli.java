package dev.wsjava.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
