package dev.wsjava.http;

import dev.wsjava.WebSocketServer;

import dev.wsjava.Headers;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * RFC 9112 §3: an HTTP request as user code sees it: the request line, the header fields and the
 * whole body. A plain route's {@link HttpHandler} gets one, and the WebSocket handshake hook's
 * {@code HandshakeRequest} is one (with the upgrade's own accessors beside these), so code that
 * reads a request is written once for both.
 *
 * <p>The request-target is split into path and query (§3.2): origin-form {@code /path?query},
 * absolute-form {@code http://host/path?query} (whose path is used, §3.2.2) or asterisk-form
 * {@code *}. Paths are kept as sent, percent-encoding included.
 *
 * <p>The server's requests are immutable and thread-safe. Implementing this interface is allowed
 * (a test double for a handler, say); the server never takes a request from user code.
 */
public interface HttpRequest {
  /**
   * Returns the method, case-sensitive (RFC 9110 §9.1).
   *
   * @return for example {@code GET}
   */
  String method();

  /**
   * Returns the request-target exactly as sent.
   *
   * @return for example {@code /search?q=ws}
   */
  String target();

  /**
   * Returns the path of the target, percent-encoding kept.
   *
   * @return for example {@code /search}; {@code *} for an asterisk-form target
   */
  String path();

  /**
   * Returns the query of the target, without its {@code ?}.
   *
   * @return for example {@code q=ws}; empty for a target ending in {@code ?}; {@code null} when the
   *     target has no {@code ?}
   */
  String query();

  /**
   * Returns the query parameters, decoded as {@code application/x-www-form-urlencoded} ({@code +}
   * is a space; a malformed escape is kept as sent).
   *
   * @return name to values, in the order they came; empty without a query
   */
  Map<String, List<String>> queryParams();

  /**
   * Returns the first value of a query parameter.
   *
   * @param name the parameter's name, decoded
   * @return its first decoded value; null when the query has no such parameter
   */
  default String queryParam(String name) {
    List<String> values = queryParams().get(name);
    return values == null ? null : values.get(0);
  }

  /**
   * Returns the server that received this request, for a handler that reports on it (a health
   * route reading {@link WebSocketServer#stats()}, say) or shuts it down.
   *
   * @return the server; null for a request the server did not make (a test double)
   */
  default WebSocketServer server() {
    return null;
  }

  /**
   * Returns a parameter of the route's path template ({@code /rooms/{room}}).
   *
   * @param name the parameter's name in the template
   * @return the segment it matched, percent-decoded; null when the route has no such parameter
   */
  default String pathParam(String name) {
    return pathParams().get(name);
  }

  /**
   * Returns the parameters of the route's path template.
   *
   * @return name to percent-decoded value, in template order; empty for an exact route
   */
  Map<String, String> pathParams();

  /**
   * Returns the HTTP-version of the request line.
   *
   * @return {@code HTTP/1.0} or {@code HTTP/1.1}
   */
  String version();

  /**
   * Returns the header fields in wire order.
   *
   * @return the fields
   */
  Headers headers();

  /**
   * Returns the first value of a header field.
   *
   * @param name the field name, case-insensitive
   * @return its first value; null when the request has no such field
   */
  default String header(String name) {
    return headers().first(name);
  }

  /**
   * Returns the cookies of the request's {@code Cookie} fields (RFC 6265 §5.4): {@code name=value}
   * pairs split on {@code ;}, a value's surrounding double quotes removed. The first of two
   * cookies with one name wins (the more specific path, per §5.4).
   *
   * @return name to value, in the order sent
   */
  default Map<String, String> cookies() {
    return parseCookies(headers().all("Cookie"));
  }

  /**
   * Returns one cookie's value.
   *
   * @param name the cookie name, case-sensitive
   * @return the value, or null when the request has no such cookie
   */
  default String cookie(String name) {
    return cookies().get(name);
  }

  /**
   * Returns the body (chunked bodies are already decoded).
   *
   * @return a new read-only view, empty when the request has no body (a handshake has none)
   */
  ByteBuffer body();

  /**
   * Returns the body decoded as UTF-8, malformed sequences replaced.
   *
   * @return the text, empty when the request has no body
   */
  default String bodyText() {
    return StandardCharsets.UTF_8.decode(body()).toString();
  }

  private static Map<String, String> parseCookies(List<String> fields) {
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
