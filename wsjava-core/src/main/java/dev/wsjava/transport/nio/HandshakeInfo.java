package dev.wsjava.transport.nio;

import dev.wsjava.handshake.Headers;
import java.net.SocketAddress;
import java.util.List;
import java.util.Objects;

/**
 * What a server knows of a connection when its upgrade was accepted, given to the handler factory
 * to choose the connection's {@link dev.wsjava.transport.ConnectionHandler}. Immutable.
 *
 * @param target the request-target exactly as sent, for example {@code /chat?room=1}
 * @param headers the request's header fields
 * @param subprotocol the subprotocol the server chose, or null
 * @param extensions the names of the negotiated extensions
 * @param remoteAddress the client's address
 */
public record HandshakeInfo(
    String target,
    Headers headers,
    String subprotocol,
    List<String> extensions,
    SocketAddress remoteAddress) {

  /**
   * Checks and copies.
   *
   * @param target not null
   * @param headers not null
   * @param subprotocol or null
   * @param extensions copied
   * @param remoteAddress or null when unknown
   */
  public HandshakeInfo {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(headers, "headers");
    extensions = List.copyOf(extensions);
  }

  /**
   * Returns the target's path, without the query.
   *
   * @return for example {@code /chat}
   */
  public String path() {
    int q = target.indexOf('?');
    return q < 0 ? target : target.substring(0, q);
  }

  /**
   * Returns the target's query, still percent-encoded.
   *
   * @return for example {@code room=1}, or null when there is none
   */
  public String query() {
    int q = target.indexOf('?');
    return q < 0 ? null : target.substring(q + 1);
  }
}
