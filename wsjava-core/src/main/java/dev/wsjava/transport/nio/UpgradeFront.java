package dev.wsjava.transport.nio;

import dev.wsjava.extension.Extension;
import dev.wsjava.handshake.HttpHead;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * What a server connection speaks before it is a WebSocket: it reads the request, answers what it
 * answers, and reports an accepted upgrade. The transport only moves the bytes. Today {@link
 * HandshakeFront} (the upgrade alone); the HTTP front with plain routes plugs in here too, so
 * changing fronts touches {@link NioServer} in one place.
 *
 * <p>Not thread-safe: one connection, its loop's thread.
 */
interface UpgradeFront {

  /**
   * Feeds received bytes.
   *
   * @param in the bytes; consumed up to the end of the upgrade request's head, so what the client
   *     sent after it stays in the buffer for the session
   * @return the upgrade once accepted, or null (then see {@link #output()} and {@link #mustClose()})
   */
  Upgrade receive(ByteBuffer in);

  /**
   * Returns bytes to write now (a response), once; the front forgets them.
   *
   * @return the bytes, or null when there are none
   */
  ByteBuffer output();

  /**
   * Returns whether the connection must close once {@link #output()} is written.
   *
   * @return true after a rejection
   */
  boolean mustClose();

  /**
   * Refuses an upgrade the front accepted (the application declined it): queues an error response
   * and marks the connection to close. The upgrade's extensions are closed.
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
   * @param response the 101 response to write before any frame
   * @param subprotocol the chosen subprotocol, or null
   * @param extensions the negotiated extensions
   */
  record Upgrade(
      HttpHead.Request request,
      ByteBuffer response,
      String subprotocol,
      List<Extension> extensions) {}
}
