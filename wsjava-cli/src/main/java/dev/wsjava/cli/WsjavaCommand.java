package dev.wsjava.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The top command, {@code wsjava}: holds the streams and names the subcommands. A new subcommand
 * is one class (a picocli {@code @Command} that finds the streams through its
 * {@code @ParentCommand}) and one entry in {@code subcommands} below.
 */
@Command(
    name = "wsjava",
    scope = ScopeType.INHERIT, // subcommands get -h and -V (this version) too
    mixinStandardHelpOptions = true,
    versionProvider = WsjavaCommand.Version.class,
    description = {
      "WebSocket (RFC 6455, RFC 7692) from the command line: a server with a browser page, a"
          + " client for the terminal and for pipes, a load generator, a conformance suite.",
      "Without a command, or with only options, runs 'serve'.",
      ""
    },
    commandListHeading = "%nCommands:%n",
    footer = {
      "",
      "Exit status: 0 done, 1 failed (connection, handshake, errors found, a conformance case"
          + " FAILED), 2 usage error,"
          + " 3 connection closed abnormally (connect).",
      "Run 'wsjava help COMMAND' for a command's options."
    },
    subcommands = {
      ServeCommand.class,
      ConnectCommand.class,
      LoadCommand.class,
      ConformanceCommand.class,
      AotTrainingCommand.class,
      HelpCommand.class,
    })
public final class WsjavaCommand implements Callable<Integer> {
  private final Io io;

  @Spec CommandSpec spec;

  /**
   * Creates the command over these streams.
   *
   * @param io where subcommands read and write
   */
  public WsjavaCommand(Io io) {
    this.io = io;
  }

  /**
   * Returns the streams the subcommands use.
   *
   * @return the streams
   */
  public Io io() {
    return io;
  }

  /**
   * Runs when no subcommand was given (after {@link Main} made options alone mean {@code serve},
   * that is only for an empty command line built by hand): prints the usage.
   *
   * @return 2, a usage error
   */
  @Override
  public Integer call() {
    spec.commandLine().usage(io.err());
    return 2;
  }

  /** Reads the version from the jar's Maven descriptor. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      try (InputStream in =
          WsjavaCommand.class.getResourceAsStream(
              "/META-INF/maven/dev.wsjava/wsjava-cli/pom.properties")) {
        if (in == null) {
          return new String[] {"wsjava (development build)"};
        }
        Properties p = new Properties();
        p.load(in);
        return new String[] {
          "wsjava " + p.getProperty("version", "?"),
          "Java " + Runtime.version() + " (" + System.getProperty("java.vendor", "?") + ")"
        };
      }
    }
  }
}
