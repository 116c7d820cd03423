package dev.wsjava;

import dev.wsjava.handshake.HttpHead;
import dev.wsjava.http.HttpRequest;
import dev.wsjava.internal.http.Request;
import dev.wsjava.transport.HandshakeInfo;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * A WebSocket upgrade request as the server's handshake hook sees it, before the 101 (see {@link
 * WebSocketServer.Builder#onHandshake}), and as the opened {@link WebSocket} keeps it ({@link
 * WebSocket#request()}): the request line and every header, the query and cookies parsed, the path
 * parameters of the route's template, the two addresses, and the TLS session with the peer's
 * certificates and the server name the client asked for.
 *
 * <p>It is the {@link HttpRequest} view a plain route's handler also reads, with the upgrade's own
 * accessors beside it (offered subprotocols and extensions, addresses, TLS).
 *
 * <p>Immutable and thread-safe; the parsed query and cookies are made on first use. An open
 * connection keeps the head packed and unpacks it at each read: read what you need once.
 */
public final class HandshakeRequest implements HttpRequest {
  /**
   * The head: the parsed {@link HttpHead.Request} while the handshake runs, then (see {@link
   * #pack()}) the {@link PackedHead} bytes an open connection keeps, about a fifth of the size.
   */
  private volatile Object head;
  private final Map<String, String> pathParams;
  private final SocketAddress remoteAddress;
  private final SocketAddress localAddress;
  private final SSLSession tlsSession;
  /** {query parameters, cookies}, each made on first use (racing makers agree); null before. */
  private volatile Object[] parsed;

  private HandshakeRequest(HandshakeInfo info, Map<String, String> pathParams) {
    this.head = info.request();
    this.pathParams = pathParams;
    this.remoteAddress = info.remoteAddress();
    this.localAddress = info.localAddress();
    this.tlsSession = info.tlsSession();
  }

  /** A view of a folded request (see {@link #folded}): its head and the socket's addresses. */
  private HandshakeRequest(
      byte[] packed, SocketAddress remoteAddress, SocketAddress localAddress, ServerRef server) {
    this.head = packed;
    this.pathParams = Map.of();
    this.remoteAddress = remoteAddress;
    this.localAddress = localAddress;
    this.tlsSession = null;
    this.server = server;
  }

  static HandshakeRequest of(HandshakeInfo info, Map<String, String> pathParams) {
    return new HandshakeRequest(info, pathParams);
  }

  /**
   * Returns the packed head alone when it says all this request says beside the socket's own
   * addresses and the server: no path parameters, no TLS, the addresses {@code remote} and
   * {@code local}, the server {@code ref}. An open connection whose request no application code
   * has seen then keeps only those bytes (this object is 40 bytes) and makes a view at each
   * {@link WebSocket#request()} ({@link #unfold}).
   *
   * @return the packed head, or null when this request must be kept whole
   */
  byte[] folded(SocketAddress remote, SocketAddress local, ServerRef ref) {
    return head instanceof byte[] packed
            && pathParams.isEmpty()
            && tlsSession == null
            && server == ref
            && java.util.Objects.equals(remoteAddress, remote)
            && java.util.Objects.equals(localAddress, local)
        ? packed
        : null;
  }

  /** A new view of a request {@link #folded} to its packed head. */
  static HandshakeRequest unfold(
      byte[] packed, SocketAddress remote, SocketAddress local, ServerRef ref) {
    return new HandshakeRequest(packed, remote, local, ref);
  }

  /**
   * Keeps the head packed from now on: called once the connection is accepted, so that what every
   * open connection keeps is small; each read then unpacks what it asks for.
   */
  void pack() {
    if (head instanceof HttpHead.Request h) {
      byte[] packed = PackedHead.pack(h);
      if (packed != null) {
        head = packed;
      }
    }
  }

  /** The server's reference; set by the route's hook before anyone sees the request. */
  private ServerRef server;

  HandshakeRequest servedBy(ServerRef ref) {
    server = ref;
    return this;
  }

  @Override
  public WebSocketServer server() {
    ServerRef s = server;
    return s == null ? null : s.get();
  }

  @Override
  public String method() {
    return head instanceof byte[] b ? PackedHead.method(b) : ((HttpHead.Request) head).method();
  }

  @Override
  public String target() {
    return head instanceof byte[] b ? PackedHead.target(b) : ((HttpHead.Request) head).target();
  }

  @Override
  public String path() {
    String target = target();
    int q = target.indexOf('?');
    return q < 0 ? target : target.substring(0, q);
  }

  @Override
  public String query() {
    String target = target();
    int q = target.indexOf('?');
    return q < 0 ? null : target.substring(q + 1);
  }

  @Override
  public Map<String, List<String>> queryParams() {
    @SuppressWarnings("unchecked")
    Map<String, List<String>> m = (Map<String, List<String>>) parsed(0);
    if (m == null) {
      m = Request.parseQuery(query());
      parsed[0] = m;
    }
    return m;
  }

  /** Slot {@code i} of {@link #parsed}, which it makes when there is none. */
  private Object parsed(int i) {
    Object[] p = parsed;
    if (p == null) {
      p = new Object[2];
      parsed = p; // a racing maker's array may be replaced: its values are made again, equal
    }
    return p[i];
  }

  @Override
  public Map<String, String> pathParams() {
    return pathParams;
  }

  @Override
  public String version() {
    return head instanceof byte[] b ? PackedHead.version(b) : ((HttpHead.Request) head).version();
  }

  /**
   * Returns the body: an upgrade request has none.
   *
   * @return an empty buffer
   */
  @Override
  public ByteBuffer body() {
    return ByteBuffer.allocate(0);
  }

  @Override
  public Headers headers() {
    return head instanceof byte[] b ? PackedHead.headers(b) : ((HttpHead.Request) head).headers();
  }

  @Override
  public Map<String, String> cookies() {
    @SuppressWarnings("unchecked")
    Map<String, String> m = (Map<String, String>) parsed(1);
    if (m == null) {
      m = HttpRequest.super.cookies();
      parsed[1] = m;
    }
    return m;
  }

  /**
   * Returns the subprotocols the client offered, in its order of preference.
   *
   * @return the {@code Sec-WebSocket-Protocol} tokens; empty when none
   */
  public List<String> subprotocols() {
    return headers().tokens("Sec-WebSocket-Protocol");
  }

  /**
   * Returns the extension offers of the request, as sent.
   *
   * @return the {@code Sec-WebSocket-Extensions} elements, for example {@code [permessage-deflate;
   *     client_max_window_bits]}; empty when none
   */
  public List<String> extensions() {
    List<String> out = new ArrayList<>();
    for (String field : headers().all("Sec-WebSocket-Extensions")) {
      for (String element : field.split(",")) {
        if (!element.isBlank()) {
          out.add(element.strip());
        }
      }
    }
    return List.copyOf(out);
  }

  /**
   * Returns the peer's address.
   *
   * @return the remote address
   */
  public SocketAddress remoteAddress() {
    return remoteAddress;
  }

  /**
   * Returns the address the peer connected to.
   *
   * @return the local address
   */
  public SocketAddress localAddress() {
    return localAddress;
  }

  /**
   * Returns the TLS session of a {@code wss} connection.
   *
   * @return the session, or null over plain {@code ws}
   */
  public SSLSession tlsSession() {
    return tlsSession;
  }

  /**
   * Returns the certificate chain the client presented (mutual TLS), its own first.
   *
   * @return the chain; empty over plain {@code ws} or when the client presented none
   */
  public List<X509Certificate> peerCertificates() {
    if (tlsSession == null) {
      return List.of();
    }
    try {
      List<X509Certificate> chain = new ArrayList<>();
      for (Certificate c : tlsSession.getPeerCertificates()) {
        if (c instanceof X509Certificate x) {
          chain.add(x);
        }
      }
      return List.copyOf(chain);
    } catch (SSLPeerUnverifiedException e) {
      return List.of();
    }
  }

  /**
   * Returns the host name the client asked for in TLS's server name indication (RFC 6066 §3).
   *
   * @return for example {@code chat.example.com}; null over plain {@code ws} or without SNI
   */
  public String serverName() {
    if (tlsSession instanceof ExtendedSSLSession e) {
      for (SNIServerName n : e.getRequestedServerNames()) {
        if (n instanceof SNIHostName host) {
          return host.getAsciiName();
        }
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return "HandshakeRequest[" + method() + " " + target() + " from " + remoteAddress + "]";
  }
}
