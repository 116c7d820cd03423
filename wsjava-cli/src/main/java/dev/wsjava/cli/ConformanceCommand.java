package dev.wsjava.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code wsjava conformance}: the conformance suite of {@code wsjava-conformance} (RFC 6455 and
 * RFC 7692, the reference suite's case groups) from the command line: {@code client} tests a
 * server, {@code server} tests a client.
 */
@Command(
    name = "conformance",
    description = {
      "Run the conformance suite (RFC 6455, RFC 7692; case groups 1-7, 9, 10, 12, 13): 'client'"
          + " tests a server that echoes, 'server' tests a client that echoes.",
      ""
    },
    commandListHeading = "%nCommands:%n",
    footer = {
      "",
      "Verdicts: OK, NON-STRICT, INFORMATIONAL, UNIMPLEMENTED, FAILED. Reports: index.json and"
          + " index.html (one page, click a case for its frames).",
      "Run 'wsjava conformance help COMMAND' for a command's options."
    },
    subcommands = {
      ConformanceClientCommand.class,
      ConformanceServerCommand.class,
      picocli.CommandLine.HelpCommand.class,
    })
public final class ConformanceCommand implements Callable<Integer> {
  @ParentCommand private WsjavaCommand parent;

  @Spec private CommandSpec spec;

  /**
   * Returns the streams the subcommands use.
   *
   * @return the top command's streams
   */
  Io io() {
    return parent.io();
  }

  /**
   * Runs when neither {@code client} nor {@code server} was given: prints the usage.
   *
   * @return 2, a usage error
   */
  @Override
  public Integer call() {
    spec.commandLine().usage(parent.io().err());
    return 2;
  }
}
