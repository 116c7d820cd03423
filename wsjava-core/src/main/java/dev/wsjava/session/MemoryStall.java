package dev.wsjava.session;

import dev.wsjava.CloseCode;
import dev.wsjava.ProtocolException;

/**
 * Not a failure: the receiving half could not get the memory for the bytes in hand, so the
 * session stops consuming input until the budget has room again. It travels as a {@link
 * ProtocolException} only to leave an extension's decoder the way a refusing sink does; the
 * session catches it and never reports it.
 */
final class MemoryStall extends ProtocolException {
  private static final long serialVersionUID = 1L;

  /** The bytes the connection waits for; negative for {@link #PAUSED}. */
  final long wanted;

  /**
   * Not memory: the listener of a streamed message paused reading while a decoder was emitting;
   * it stops the decoder the same way.
   */
  static final MemoryStall PAUSED = new MemoryStall(-1);

  MemoryStall(long wanted) {
    super(CloseCode.MESSAGE_TOO_BIG, "waiting for " + wanted + " bytes of the memory budget");
    this.wanted = wanted;
  }

  @Override
  public synchronized Throwable fillInStackTrace() {
    return this; // control flow, not an error: no stack to record
  }
}
