package dev.wsjava.transport.blocking;

import dev.wsjava.handshake.ServerHandshake;
import java.nio.ByteBuffer;

/**
 * What a server connection speaks before WebSocket: it reads HTTP, answers it, keeps its own
 * deadline, and says when to upgrade. The one place to swap the bare {@link ServerHandshake}
 * ({@link HandshakeFront}) for the HTTP front with plain routes.
 */
interface ServerFront {

  /**
   * Feeds received bytes.
   *
   * @param in the bytes; what follows an accepted upgrade request is in {@link Upgrade#received()}
   * @param nowNanos the current {@link System#nanoTime()}
   * @return what to do, or {@code null} when more bytes are needed
   */
  Step receive(ByteBuffer in, long nowNanos);

  /**
   * Returns when the front gives up waiting for the request it is reading.
   *
   * @return a {@link System#nanoTime()} value
   */
  long deadlineNanos();

  /**
   * The deadline passed.
   *
   * @param nowNanos the current time
   * @return what to say (possibly nothing) before closing
   */
  Respond timeout(long nowNanos);

  /** What the transport does next. */
  sealed interface Step permits Respond, Upgrade {}

  /**
   * Write {@code response}; then close the connection if {@code close}, else read on.
   *
   * @param response the bytes to write, possibly none
   * @param close whether to close after writing
   */
  record Respond(ByteBuffer response, boolean close) implements Step {}

  /**
   * Upgrade: unless the handler factory refuses, write {@code response} (the 101) and run a
   * session that starts with {@code received}.
   *
   * @param accepted the accepted handshake
   * @param response the bytes to write, ending with the 101
   * @param received the bytes that came after the request head: the session's first
   */
  record Upgrade(ServerHandshake.Accepted accepted, ByteBuffer response, ByteBuffer received)
      implements Step {}
}
