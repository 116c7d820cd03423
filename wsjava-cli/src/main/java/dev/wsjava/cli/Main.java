package dev.wsjava.cli;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import picocli.CommandLine;

/**
 * The {@code wsjava} command's entry point: {@code serve} (the default), {@code connect},
 * {@code load} and {@code conformance}; see {@link WsjavaCommand}.
 */
public final class Main {
  /** Arguments that belong to the top command even when they come first. */
  private static final Set<String> TOP_LEVEL = Set.of("-h", "--help", "-V", "--version");

  private Main() {}

  /**
   * Runs the command and exits with its status.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    System.exit(run(Io.system(), args));
  }

  /**
   * Runs the command over the given streams and returns its exit status; no arguments, or options
   * alone, mean {@code serve}.
   *
   * @param io the streams
   * @param args the command line
   * @return 0 done, 1 failure, 2 usage error, 3 connection closed abnormally
   */
  public static int run(Io io, String... args) {
    return commandLine(io).execute(withDefaultCommand(args));
  }

  /**
   * Builds the picocli command line over these streams: converters for sizes and durations,
   * case-insensitive enum values, errors to {@code io.err()}.
   *
   * @param io the streams
   * @return the command line, ready to parse or execute
   */
  public static CommandLine commandLine(Io io) {
    CommandLine cl = new CommandLine(new WsjavaCommand(io));
    cl.registerConverter(Duration.class, new Units.DurationConverter());
    cl.registerConverter(URI.class, new Usage.UriConverter());
    cl.setParameterExceptionHandler(Usage::handle);
    cl.setHelpFactory(WholeWordHelp.FACTORY);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setOut(new PrintWriter(io.out(), true, StandardCharsets.UTF_8));
    cl.setErr(new PrintWriter(io.err(), true, StandardCharsets.UTF_8));
    cl.setExecutionExceptionHandler(
        (e, line, parsed) -> {
          line.getErr().println(line.getCommandSpec().qualifiedName() + ": " + describe(e));
          return 1;
        });
    return cl;
  }

  /** Puts {@code serve} in front of a command line that is empty or starts with a serve option. */
  static String[] withDefaultCommand(String[] args) {
    if (args.length == 0 || (args[0].startsWith("-") && !TOP_LEVEL.contains(args[0]))) {
      String[] withServe = new String[args.length + 1];
      withServe[0] = "serve";
      System.arraycopy(args, 0, withServe, 1, args.length);
      return withServe;
    }
    return Arrays.copyOf(args, args.length);
  }

  /** One line for a failure: its message, and its cause's where that says more. */
  static String describe(Throwable e) {
    Throwable t = Futures.cause(e);
    String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    Throwable cause = t.getCause();
    if (cause != null && cause.getMessage() != null && !message.contains(cause.getMessage())) {
      message += " (" + cause.getMessage() + ")";
    }
    return message;
  }
}
