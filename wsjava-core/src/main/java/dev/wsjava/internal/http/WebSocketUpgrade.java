package dev.wsjava.internal.http;

import dev.wsjava.http.HttpRequest;
import dev.wsjava.handshake.ServerHandshake;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * An accepted WebSocket upgrade (RFC 6455 §4.2.2, RFC 9110 §7.8): the HTTP connection ends here and
 * the bytes that follow are frames. Its 101 response is already queued on the {@link
 * HttpConnection}; the transport writes that, then hands the connection to a WebSocket session made
 * from the handshake's extensions and the route's data, and feeds the session {@link #received()}
 * first. Owned by the one transport thread of its connection.
 *
 * @param <T> the WebSocket route data type
 * @param handshake the accepted handshake: request, subprotocol, extensions (which the transport
 *     closes if it never starts the session)
 * @param route the data the route was registered with
 * @param received the bytes that arrived after the request head, already: the first frames of the
 *     session, never to be lost; a read-only buffer, possibly empty
 */
public record WebSocketUpgrade<T>(
    ServerHandshake.Accepted handshake, T route, ByteBuffer received) {

  /**
   * Creates the upgrade.
   *
   * @param handshake the accepted handshake
   * @param route the route data
   * @param received the bytes after the head; kept as a read-only view
   */
  public WebSocketUpgrade {
    Objects.requireNonNull(handshake, "handshake");
    Objects.requireNonNull(route, "route");
    received = Request.readOnly(received); // usually empty: then shared, not copied
  }

  /**
   * Returns the bytes that arrived after the request head.
   *
   * @return a new read-only view, positioned at its start
   */
  @Override
  public ByteBuffer received() {
    return received.capacity() == 0 ? received : received.duplicate(); // empty: cannot change
  }
}
