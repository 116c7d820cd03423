package dev.wsjava.transport.blocking;

import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.session.MemoryBudget;
import dev.wsjava.transport.Acceptor;
import java.nio.ByteBuffer;

/**
 * What a server connection speaks before WebSocket: it reads HTTP, answers it, keeps its own
 * deadline, and says when to upgrade. Two fronts: {@link HandshakeFront} (every request is an
 * upgrade, one handler factory) and {@link HttpFront} (plain routes beside WebSocket routes).
 */
interface ServerFront {

  /**
   * Feeds received bytes.
   *
   * @param in the bytes; the caller feeds what is left again after writing the response (a front
   *     may stop reading pipelined requests while answers wait)
   * @param nowNanos the current {@link System#nanoTime()}
   * @return what to do, or {@code null} when more bytes are needed
   */
  Step receive(ByteBuffer in, long nowNanos);

  /**
   * Returns when the front gives up waiting for the request it is reading.
   *
   * @return a {@link System#nanoTime()} value, or {@link Long#MAX_VALUE} for no deadline
   */
  long deadlineNanos();

  /**
   * The deadline passed (or nearly: the read timeout is in whole milliseconds).
   *
   * @param nowNanos the current time
   * @return what to say (possibly nothing), and whether to close
   */
  Respond timeout(long nowNanos);

  /**
   * Returns the connection's share of the memory budget, which request bodies are charged to.
   *
   * @return the account, or null when the front holds nothing for the budget
   */
  default MemoryBudget.Account memory() {
    return null;
  }

  /**
   * Returns how many bytes of memory the last {@link #receive} waits for (a request body on a spent
   * budget): the caller waits for {@link #memory()} to have room, then feeds what is left again.
   *
   * @return bytes wanted, or 0
   */
  default long stalledFor() {
    return 0;
  }

  /** What the transport does next. */
  sealed interface Step permits Respond, Upgrade {}

  /**
   * Write {@code response}; then close the connection if {@code close}, else read on.
   *
   * @param response the bytes to write, possibly none
   * @param close whether to close after writing
   * @param refusal the upgrade request this answer refuses (RFC 6455 §4.2, Origin), or null
   */
  record Respond(ByteBuffer response, boolean close, ServerHandshake.Rejected refusal)
      implements Step {}

  /**
   * Upgrade: ask {@code handlers} for a verdict; unless it refuses, write {@code response} (ending
   * with the 101, or with the 101 the verdict rebuilt in its place) and run a session that starts
   * with {@code received}.
   *
   * @param accepted the accepted handshake
   * @param handlers the route's acceptor
   * @param response the bytes to write
   * @param received the bytes that came after the request head (writable: the session unmasks in
   *     place)
   */
  record Upgrade(
      ServerHandshake.Accepted accepted,
      Acceptor handlers,
      ByteBuffer response,
      ByteBuffer received)
      implements Step {}

  /** Copies the bytes left in {@code in} into a new writable buffer. */
  static ByteBuffer copyOf(ByteBuffer in) {
    return ByteBuffer.allocate(in.remaining()).put(in).flip();
  }
}
