package dev.wsjava.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The streams a command reads and writes: the process's own, or a test's.
 *
 * @param in standard input
 * @param out standard output (messages, summaries, URLs)
 * @param err standard error (diagnostics, progress)
 * @param errIsTerminal whether {@code err} is a terminal, so progress lines may overwrite
 *     themselves
 */
public record Io(InputStream in, PrintStream out, PrintStream err, boolean errIsTerminal) {

  /**
   * Returns the process's standard streams.
   *
   * @return {@code System.in}, {@code System.out}, {@code System.err}
   */
  public static Io system() {
    return new Io(System.in, System.out, System.err, isTerminal(2));
  }

  /** Whether a file descriptor of this process is a terminal (Linux; false where unknown). */
  private static boolean isTerminal(int fd) {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }
}
