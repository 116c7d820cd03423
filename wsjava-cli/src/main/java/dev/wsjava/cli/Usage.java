package dev.wsjava.cli;

import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/**
 * Usage errors, said the same way by every command: the error on one line, then one line that
 * points at the command's {@code --help} (the whole help would bury the error), exit status 2;
 * and the checks of the values every command takes alike (ports, files, URLs).
 */
final class Usage {
  /** The exit status of a usage error. */
  static final int EXIT = 2;

  private Usage() {}

  /**
   * Prints a usage error as {@code wsjava serve: ERROR} and a line pointing at {@code --help}.
   *
   * @param e what picocli (or a command's own check) found wrong
   * @param args the command line
   * @return {@link #EXIT}
   */
  static int handle(ParameterException e, String[] args) {
    CommandLine line = e.getCommandLine();
    String command = line.getCommandSpec().qualifiedName();
    PrintWriter err = line.getErr();
    err.println(command + ": " + message(e));
    err.println("Run '" + command + " --help' for the options.");
    err.flush();
    return EXIT;
  }

  /**
   * The error in words: a value a converter refused says so without picocli's "Invalid value for
   * positional parameter at index 0" in front (the converters' messages name the value), with
   * the option's name where it was an option's.
   */
  private static String message(ParameterException e) {
    if (e.getCause() instanceof TypeConversionException refused && e.getArgSpec() != null) {
      return e.getArgSpec() instanceof OptionSpec option
          ? option.longestName() + ": " + refused.getMessage()
          : refused.getMessage();
    }
    return e.getMessage();
  }

  /**
   * Checks a port to listen on.
   *
   * @param spec the command, for the error
   * @param option the option's name, for the error
   * @param port the value given
   * @throws ParameterException unless it is 0 (any free port) to 65535
   */
  static void checkListenPort(CommandSpec spec, String option, int port) {
    if (port < 0 || port > 65_535) {
      throw new ParameterException(spec.commandLine(),
          option + " " + port + " is out of range: give 0 (any free port) to 65535");
    }
  }

  /**
   * Checks that a file given on the command line can be read, before anything uses it.
   *
   * @param spec the command, for the error
   * @param option the option's name, for the error
   * @param file the value given, or null when the option is absent
   * @return {@code file}
   * @throws ParameterException when it does not exist, is not a file, or cannot be read
   */
  static Path readableFile(CommandSpec spec, String option, Path file) {
    if (file != null && !(Files.isRegularFile(file) && Files.isReadable(file))) {
      throw new ParameterException(spec.commandLine(),
          option + " " + file + ": the file does not exist or cannot be read");
    }
    return file;
  }

  /** Reads a URL, saying in words what is wrong with one that is not: no Java exception names. */
  static final class UriConverter implements ITypeConverter<URI> {
    @Override
    public URI convert(String value) {
      try {
        return new URI(value);
      } catch (URISyntaxException e) {
        String why = e.getReason().startsWith("Expected authority") ? "there is no host after //"
            : e.getReason().toLowerCase(java.util.Locale.ROOT) + " at character "
                + (e.getIndex() + 1) + (value.indexOf(' ') >= 0 ? " (write a space as %20)" : "");
        throw new TypeConversionException(
            "'" + value + "' is not a valid URL: " + why + "; give one like ws://HOST:PORT/PATH");
      }
    }
  }
}
