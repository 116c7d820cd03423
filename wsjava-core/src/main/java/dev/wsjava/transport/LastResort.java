package dev.wsjava.transport;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Logging that cannot take a thread down. A logger's first record may open files (the JDK's
 * logging reads its configuration and loads a resource bundle for the level's name, a class may
 * still have to be read from a directory or a jar): with no file descriptor left that fails, and
 * an {@link Error} such as {@code NoClassDefFoundError} thrown from inside a catch block is what
 * killed an event loop when descriptors ran out. Here every call to the logger is guarded; when it
 * throws, the line, formatted by the caller, goes to the standard error stream the process already
 * holds (file descriptor 2, opened before {@code main}), and the thread goes on.
 *
 * <p>{@link #prepare} at a server's start makes the logger initialise while files can still be
 * opened. Thread-safe.
 */
public final class LastResort {
  /** The process's standard error, wrapped once: no new descriptor, no charset or class to load. */
  private static final FileOutputStream ERR = new FileOutputStream(FileDescriptor.err);

  private static final byte[] UNREPORTABLE =
      "wsjava: a failure could not be reported (the logger failed too)\n"
          .getBytes(StandardCharsets.UTF_8);

  private LastResort() {}

  /**
   * Makes the logger find its backend and configuration now, while files can still be opened.
   *
   * @param log the logger a transport reports failures to
   */
  public static void prepare(System.Logger log) {
    try {
      log.isLoggable(System.Logger.Level.WARNING);
      log.isLoggable(System.Logger.Level.ERROR);
      // Formatters stamp the time in the local zone, whose rules are read from tzdb.dat once.
      java.time.ZonedDateTime.now().toString();
      // The JDK's logging names levels from a resource bundle found on the class path, read on
      // the first record and cached by each level: read it now (by reflection: the core does not
      // depend on java.logging, which may be absent).
      Class<?> level = Class.forName("java.util.logging.Level");
      for (String name : new String[] {"SEVERE", "WARNING", "INFO", "FINE"}) {
        level.getMethod("getLocalizedName").invoke(level.getField(name).get(null));
      }
    } catch (Throwable e) {
      // nothing (more) to prepare then
    }
  }

  /**
   * Logs a preformatted line, and falls back to writing it to standard error when the logger
   * throws; never throws.
   *
   * @param log the logger
   * @param level the level
   * @param line the whole message
   * @param thrown a cause to attach, or null
   */
  public static void log(System.Logger log, System.Logger.Level level, String line, Throwable thrown) {
    try {
      if (thrown == null) {
        log.log(level, line);
      } else {
        log.log(level, line, thrown);
      }
    } catch (Throwable e) {
      raw(level, line + " [the logger failed: " + e + "]", thrown);
    }
  }

  /**
   * Writes a line straight to standard error, bypassing the logger; never throws.
   *
   * @param level the level, named in the line
   * @param line the message
   * @param thrown a cause, whose {@code toString()} ends the line, or null
   */
  public static void raw(System.Logger.Level level, String line, Throwable thrown) {
    try {
      String text = "wsjava " + level.getName() + ": " + line
          + (thrown == null ? "" : ": " + thrown) + "\n";
      synchronized (ERR) {
        ERR.write(text.getBytes(StandardCharsets.UTF_8));
      }
    } catch (Throwable e) {
      try {
        ERR.write(UNREPORTABLE);
      } catch (Throwable ignored) {
        // standard error is gone: nothing is left to write to
      }
    }
  }
}
