package dev.wsjava;

import dev.wsjava.handshake.HttpHead;
import dev.wsjava.http.HttpRequest;
import dev.wsjava.internal.http.Request;
import dev.wsjava.transport.HandshakeInfo;
import java.net.SocketAddress;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
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
 * <p>Immutable and thread-safe; the parsed query and cookies are made on first use.
 */
public final class HandshakeRequest {
  private final HttpHead.Request head;
  private final String path;
  private final String query;
  private final Map<String, String> pathParams;
  private final SocketAddress remoteAddress;
  private final SocketAddress localAddress;
  private final SSLSession tlsSession;
  private volatile Map<String, List<String>> queryParams; // made on first use; racing makers agree
  private volatile Map<String, String> cookies;

  private HandshakeRequest(HandshakeInfo info, Map<String, String> pathParams) {
    this.head = info.request();
    String target = head.target();
    int q = target.indexOf('?');
    this.path = q < 0 ? target : target.substring(0, q);
    this.query = q < 0 ? null : target.substring(q + 1);
    this.pathParams = pathParams;
    this.remoteAddress = info.remoteAddress();
    this.localAddress = info.localAddress();
    this.tlsSession = info.tlsSession();
  }

  static HandshakeRequest of(HandshakeInfo info, Map<String, String> pathParams) {
    return new HandshakeRequest(info, pathParams);
  }

  /**
   * Returns the method.
   *
   * @return {@code GET} (an upgrade with another method is refused before the hook)
   */
  public String method() {
    return head.method();
  }

  /**
   * Returns the request-target exactly as sent.
   *
   * @return for example {@code /rooms/7?token=abc}
   */
  public String target() {
    return head.target();
  }

  /**
   * Returns the path of the target, percent-encoding kept.
   *
   * @return for example {@code /rooms/7}
   */
  public String path() {
    return path;
  }

  /**
   * Returns the query of the target, without its {@code ?}, as sent.
   *
   * @return for example {@code token=abc}; null when the target has no {@code ?}
   */
  public String query() {
    return query;
  }

  /**
   * Returns the query parameters, decoded as {@code application/x-www-form-urlencoded} ({@code +}
   * is a space; a malformed escape is kept as sent).
   *
   * @return name to values, in the order they came; empty without a query
   */
  public Map<String, List<String>> queryParams() {
    Map<String, List<String>> m = queryParams;
    if (m == null) {
      m = Request.parseQuery(query);
      queryParams = m;
    }
    return m;
  }

  /**
   * Returns the first value of a query parameter.
   *
   * @param name the decoded name
   * @return its first decoded value ({@code ""} for {@code ?flag}), or null when absent
   */
  public String queryParam(String name) {
    List<String> values = queryParams().get(name);
    return values == null ? null : values.get(0);
  }

  /**
   * Returns the value of a parameter of the route's path template ({@code /rooms/{room}}).
   *
   * @param name the parameter's name in the template
   * @return the segment it matched, percent-decoded; null when the template has no such name
   */
  public String pathParam(String name) {
    return pathParams.get(name);
  }

  /**
   * Returns every parameter of the route's path template.
   *
   * @return name to decoded value; empty for a route without parameters
   */
  public Map<String, String> pathParams() {
    return pathParams;
  }

  /**
   * Returns the header fields in wire order.
   *
   * @return the fields
   */
  public Headers headers() {
    return head.headers();
  }

  /**
   * Returns the first value of a header field.
   *
   * @param name the field name, any case
   * @return the value, or null when absent
   */
  public String header(String name) {
    return head.headers().first(name);
  }

  /**
   * Returns the cookies of the request's {@code Cookie} fields (RFC 6265 §5.4): {@code name=value}
   * pairs split on {@code ;}, a value's surrounding double quotes removed. The first of two
   * cookies with one name wins (the more specific path, per §5.4).
   *
   * @return name to value, in the order sent
   */
  public Map<String, String> cookies() {
    Map<String, String> m = cookies;
    if (m == null) {
      m = parseCookies(head.headers().all("Cookie"));
      cookies = m;
    }
    return m;
  }

  /**
   * Returns one cookie's value.
   *
   * @param name the cookie name, case-sensitive
   * @return the value, or null when the request has no such cookie
   */
  public String cookie(String name) {
    return cookies().get(name);
  }

  /**
   * Returns the subprotocols the client offered, in its order of preference.
   *
   * @return the {@code Sec-WebSocket-Protocol} tokens; empty when none
   */
  public List<String> subprotocols() {
    return head.headers().tokens("Sec-WebSocket-Protocol");
  }

  /**
   * Returns the extension offers of the request, as sent.
   *
   * @return the {@code Sec-WebSocket-Extensions} elements, for example {@code [permessage-deflate;
   *     client_max_window_bits]}; empty when none
   */
  public List<String> extensions() {
    List<String> out = new ArrayList<>();
    for (String field : head.headers().all("Sec-WebSocket-Extensions")) {
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
    return "HandshakeRequest[" + head.method() + " " + head.target() + " from " + remoteAddress + "]";
  }

  static Map<String, String> parseCookies(List<String> fields) {
    if (fields.isEmpty()) {
      return Map.of();
    }
    Map<String, String> m = new LinkedHashMap<>();
    for (String field : fields) {
      for (String pair : field.split(";")) {
        int eq = pair.indexOf('=');
        if (eq <= 0) {
          continue; // not a cookie-pair (RFC 6265 §5.2: ignore)
        }
        String name = pair.substring(0, eq).strip();
        String value = pair.substring(eq + 1).strip();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
          value = value.substring(1, value.length() - 1);
        }
        if (!name.isEmpty()) {
          m.putIfAbsent(name, value);
        }
      }
    }
    return Collections.unmodifiableMap(m);
  }
}
