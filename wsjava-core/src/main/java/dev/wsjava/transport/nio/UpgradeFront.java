package dev.wsjava.transport.nio;

import dev.wsjava.extension.Extension;
import dev.wsjava.handshake.HttpHead;
import dev.wsjava.transport.ConnectionHandler;
import dev.wsjava.transport.HandshakeInfo;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Function;

/**
 * What a server connection speaks before it is a WebSocket: fed the bytes that arrive, it queues
 * its answers (HTTP responses, a 101 or an error) and reports an accepted upgrade; it keeps its own
 * clock through {@link #deadlineNanos()}. The transport only moves the bytes and keeps the time.
 * Two fronts: {@link HandshakeFront} (every request is an upgrade) and {@link HttpFront} (plain
 * routes beside WebSocket routes); {@code NioServer.newFront} picks one.
 *
 * <p>Not thread-safe: one connection, its loop's thread.
 */
interface UpgradeFront {

  /**
   * Feeds received bytes. All are consumed, except while the front's answers wait to be written: it
   * may then leave the next request in {@code in}, for the transport to feed again once the queue
   * has drained.
   *
   * @param in the bytes
   * @param nowNanos the current {@link System#nanoTime()}
   * @return the upgrade once accepted (its 101 response is then queued), or null
   */
  Upgrade receive(ByteBuffer in, long nowNanos);

  /**
   * The client closed its side: answers already queued are still written, then the socket closes.
   */
  void receiveEnd();

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
   * @param handlers the route's handler factory, or null for the server's
   */
  record Upgrade(
      HttpHead.Request request,
      String subprotocol,
      List<Extension> extensions,
      ByteBuffer received,
      Function<HandshakeInfo, ConnectionHandler> handlers) {}
}
