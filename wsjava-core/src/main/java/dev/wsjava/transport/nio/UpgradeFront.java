package dev.wsjava.transport.nio;

import dev.wsjava.extension.Extension;
import dev.wsjava.handshake.HttpHead;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * What a server connection speaks before it is a WebSocket: fed the bytes that arrive, it queues
 * its answers (a 101 response or an error) and reports an accepted upgrade; it keeps its own clock
 * through {@link #deadlineNanos()}. The transport only moves the bytes and keeps the time. Today
 * {@link HandshakeFront} (the upgrade alone); the HTTP front with plain routes has the same shape,
 * so changing fronts touches {@link NioServer#newFront} only.
 *
 * <p>Not thread-safe: one connection, its loop's thread.
 */
interface UpgradeFront {

  /**
   * Feeds received bytes; all of them are consumed.
   *
   * @param in the bytes
   * @param nowNanos the current {@link System#nanoTime()}
   * @return the upgrade once accepted (its 101 response is then queued), or null
   */
  Upgrade receive(ByteBuffer in, long nowNanos);

  /**
   * Returns when {@link #onTimeout} is due.
   *
   * @return a {@link System#nanoTime()} value, or {@link Long#MAX_VALUE} for none
   */
  long deadlineNanos();

  /**
   * Acts on an expired deadline (queues an answer, or marks the connection to close).
   *
   * @param nowNanos the current time
   */
  void onTimeout(long nowNanos);

  /**
   * Returns whether the connection must close once the queue is written.
   *
   * @return true after a rejection, a timeout or a request to close
   */
  boolean shouldClose();

  /**
   * Returns whether bytes wait to be written.
   *
   * @return true while the queue is not empty
   */
  boolean hasOutbound();

  /**
   * Puts the queued buffers into {@code dst} for a gathering write.
   *
   * @param dst where to put them
   * @param offset the first index to fill
   * @return how many were put
   */
  int gatherOutbound(ByteBuffer[] dst, int offset);

  /**
   * Reports bytes written from the gathered buffers.
   *
   * @param bytes how many
   */
  void written(long bytes);

  /**
   * Refuses an upgrade the front accepted, because the application declined it, before any of its
   * bytes were written: the front answers with {@code status} if it still can, and closes. The
   * upgrade's extensions are closed.
   *
   * @param upgrade the accepted upgrade
   * @param status the HTTP status, 400 to 599
   * @param reason for logs
   */
  void refuse(Upgrade upgrade, int status, String reason);

  /**
   * An accepted upgrade.
   *
   * @param request the client's request head
   * @param subprotocol the chosen subprotocol, or null
   * @param extensions the negotiated extensions
   * @param received the bytes that came after the request head: the session's first bytes, valid
   *     until the next call to the front (the transport copies them if it must wait)
   */
  record Upgrade(
      HttpHead.Request request,
      String subprotocol,
      List<Extension> extensions,
      ByteBuffer received) {}
}
