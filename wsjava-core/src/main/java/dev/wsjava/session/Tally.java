package dev.wsjava.session;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A count of messages and their payload bytes, kept by one writer at a time (the receiving thread,
 * or a sender holding the connection's lock) with opaque stores, so that any thread may read it
 * without a lock: a server's stats sum thousands of these without stopping a connection.
 */
final class Tally {
  private static final VarHandle MESSAGES;
  private static final VarHandle BYTES;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      MESSAGES = lookup.findVarHandle(Tally.class, "messages", long.class);
      BYTES = lookup.findVarHandle(Tally.class, "bytes", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private long messages;
  private long bytes;

  /**
   * Counts payload bytes, and a message when they end one; by the one writer.
   *
   * @param payload payload bytes
   * @param endsMessage whether they end a message
   */
  void add(long payload, boolean endsMessage) {
    if (endsMessage) {
      MESSAGES.setOpaque(this, messages + 1);
    }
    BYTES.setOpaque(this, bytes + payload);
  }

  /** Returns the messages counted; from any thread. */
  long messages() {
    return (long) MESSAGES.getOpaque(this);
  }

  /** Returns the payload bytes counted; from any thread. */
  long bytes() {
    return (long) BYTES.getOpaque(this);
  }
}
