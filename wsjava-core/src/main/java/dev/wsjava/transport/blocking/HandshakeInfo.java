package dev.wsjava.transport.blocking;

import dev.wsjava.handshake.Headers;
import dev.wsjava.handshake.HttpHead;
import java.net.SocketAddress;
import java.util.List;
import java.util.Objects;

/**
 * What a server knows about a connection when its upgrade is accepted, for choosing the
 * connection's handler.
 *
 * @param request the client's upgrade request head (target, headers, cookies)
 * @param subprotocol the subprotocol chosen, or {@code null}
 * @param extensions the names of the extensions negotiated
 * @param remoteAddress the client's address
 */
public record HandshakeInfo(
    HttpHead.Request request,
    String subprotocol,
    List<String> extensions,
    SocketAddress remoteAddress) {

  /**
   * Checks and copies.
   *
   * @param request not null
   * @param subprotocol or null
   * @param extensions copied
   * @param remoteAddress the peer
   */
  public HandshakeInfo {
    Objects.requireNonNull(request, "request");
    extensions = List.copyOf(extensions);
  }

  /**
   * Returns the path of the request target, without the query.
   *
   * @return for example {@code /chat} for {@code /chat?room=1}
   */
  public String path() {
    String target = request.target();
    int q = target.indexOf('?');
    return q < 0 ? target : target.substring(0, q);
  }

  /**
   * Returns the request's header fields.
   *
   * @return the headers
   */
  public Headers headers() {
    return request.headers();
  }
}
