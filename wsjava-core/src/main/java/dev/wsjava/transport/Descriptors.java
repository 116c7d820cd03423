package dev.wsjava.transport;

import java.io.IOException;

/**
 * Running out of file descriptors (EMFILE: the process's limit, ENFILE: the system's), told apart
 * from other I/O errors by the JDK's message, which is the C library's: "Too many open files" or
 * "Too many open files in system". Stateless; thread-safe.
 */
public final class Descriptors {
  private Descriptors() {}

  /**
   * Returns whether {@code e}, or one of its causes, says the process or the system has no file
   * descriptor left.
   *
   * @param e an error from accept, connect or open
   * @return true for EMFILE or ENFILE
   */
  public static boolean exhausted(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = t.getMessage();
      if (m != null && m.contains("Too many open files")) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  /**
   * Returns the error a client's connect reports for {@code e}: when descriptors are exhausted, an
   * exception that says so and what to do; else {@code e} itself.
   *
   * @param target what was being connected to, for the message
   * @param e the error from opening or connecting the socket
   * @return the error to report
   */
  public static IOException clientError(Object target, IOException e) {
    if (!exhausted(e)) {
      return e;
    }
    return new IOException(
        "cannot connect to " + target + ": this process has no file descriptor left ("
            + e.getMessage() + "); close connections or raise the limit (ulimit -n)", e);
  }
}
