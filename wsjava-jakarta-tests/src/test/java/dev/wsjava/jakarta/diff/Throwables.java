package dev.wsjava.jakarta.diff;

import jakarta.websocket.DecodeException;
import java.lang.reflect.InvocationTargetException;

/** Names a throwable the same way whichever container wrapped it. */
final class Throwables {
  private Throwables() {}

  /**
   * The simple class name of {@code t}; when a container wrapped an application's exception (in an
   * InvocationTargetException or its own RuntimeException), the name of the wrapped one after a
   * {@code <} so the transcript shows both.
   */
  static String name(Throwable t) {
    String outer = t.getClass().getSimpleName();
    if (t instanceof DecodeException) {
      return outer;
    }
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (t instanceof InvocationTargetException && t.getCause() != null) {
      return t.getCause().getClass().getSimpleName();
    }
    return root == t ? outer : outer + "<" + root.getClass().getSimpleName();
  }
}
