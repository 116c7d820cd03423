package dev.wsjava.transport;

import dev.wsjava.Headers;
import dev.wsjava.handshake.HttpHead;
import java.net.SocketAddress;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLSession;

/**
 * What a server knows about a connection when its upgrade was accepted: the request, the chosen
 * subprotocol and extensions, and the peer. Transports hand it to the route's handler factory.
 *
 * @param request the upgrade request head
 * @param subprotocol the chosen subprotocol, or null
 * @param extensions the names of the negotiated extensions
 * @param remoteAddress the peer's address
 * @param localAddress the address the peer connected to
 * @param tlsSession the TLS session ({@code wss}), or null
 */
public record HandshakeInfo(
    HttpHead.Request request,
    String subprotocol,
    List<String> extensions,
    SocketAddress remoteAddress,
    SocketAddress localAddress,
    SSLSession tlsSession) {

  /**
   * Checks and copies.
   *
   * @param request not null
   * @param subprotocol or null
   * @param extensions copied
   * @param remoteAddress the peer
   * @param localAddress this end
   * @param tlsSession or null
   */
  public HandshakeInfo {
    Objects.requireNonNull(request, "request");
    extensions = List.copyOf(extensions);
  }

  /**
   * Returns the request target: path and query.
   *
   * @return for example {@code /chat?room=1}
   */
  public String target() {
    return request.target();
  }

  /**
   * Returns the path of the request target, without the query.
   *
   * @return for example {@code /chat}
   */
  public String path() {
    String target = request.target();
    int q = target.indexOf('?');
    return q < 0 ? target : target.substring(0, q);
  }

  /**
   * Returns the request's headers.
   *
   * @return the headers
   */
  public Headers headers() {
    return request.headers();
  }
}
