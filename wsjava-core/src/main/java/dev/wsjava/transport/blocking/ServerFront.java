package dev.wsjava.transport.blocking;

import dev.wsjava.handshake.ServerHandshake;
import java.nio.ByteBuffer;

/**
 * What a server connection speaks before WebSocket: it reads HTTP, answers it, and says when to
 * upgrade. The one place to swap the bare {@link ServerHandshake} ({@link HandshakeFront}) for
 * the HTTP front with plain routes.
 */
interface ServerFront {

  /**
   * Feeds received bytes.
   *
   * @param in consumed up to the end of an upgrade request at most, so the bytes after it stay
   * @return what to do, or {@code null} when more bytes are needed
   */
  Step receive(ByteBuffer in);

  /**
   * The handshake time ran out before an upgrade.
   *
   * @return what to say before closing
   */
  Respond timeout();

  /** What the transport does next. */
  sealed interface Step permits Respond, Upgrade {}

  /**
   * Write {@code response}; then close the connection if {@code close}, else read on.
   *
   * @param response the bytes to write
   * @param close whether to close after writing
   */
  record Respond(ByteBuffer response, boolean close) implements Step {}

  /**
   * Upgrade: the transport writes the 101 response and runs a session.
   *
   * @param accepted the accepted handshake
   */
  record Upgrade(ServerHandshake.Accepted accepted) implements Step {}
}
