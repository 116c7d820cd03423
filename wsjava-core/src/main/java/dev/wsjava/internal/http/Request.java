package dev.wsjava.internal.http;

import dev.wsjava.Headers;
import dev.wsjava.handshake.HttpHead;
import dev.wsjava.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.net.URLDecoder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * RFC 9112 §3: a request as a handler sees it, its head and its whole body. The request-target is
 * split into path and query (§3.2): origin-form {@code /path?query}, absolute-form {@code
 * http://host/path?query} (whose path is used, §3.2.2) or asterisk-form {@code *}. Paths are kept
 * as sent, percent-encoding included. Immutable and thread-safe. The server's implementation of
 * {@link HttpRequest}.
 */
public final class Request implements HttpRequest {
  private static final ByteBuffer NO_BODY = ByteBuffer.allocate(0).asReadOnlyBuffer();

  private final HttpHead.Request head;
  private final String path;
  private final String query;
  private final ByteBuffer body;
  private final Map<String, String> pathParams;
  /** The server's, set before the handler sees the request (its thread); null for a test's. */
  private java.util.function.Supplier<dev.wsjava.WebSocketServer> server;

  private Request(HttpHead.Request head, String path, String query, ByteBuffer body) {
    this(head, path, query, body, Map.of());
  }

  private Request(
      HttpHead.Request head,
      String path,
      String query,
      ByteBuffer body,
      Map<String, String> pathParams) {
    this.head = head;
    this.path = path;
    this.query = query;
    this.body = body;
    this.pathParams = pathParams;
  }

  /**
   * Creates a request from a parsed head and a body.
   *
   * @param head the request head
   * @param body the body, copied; empty when the request has none
   * @return the request
   * @throws IllegalArgumentException when the request-target is none of the forms above
   */
  public static Request of(HttpHead.Request head, byte[] body) {
    return of(head, body.length == 0 ? NO_BODY : ByteBuffer.wrap(body.clone()));
  }

  /**
   * Creates a request over a body buffer the caller gives up.
   *
   * @param head the request head
   * @param body the body, not copied
   * @return the request
   * @throws IllegalArgumentException when the request-target is none of the forms above
   */
  public static Request of(HttpHead.Request head, ByteBuffer body) {
    Objects.requireNonNull(head, "head");
    String target = head.target();
    if (target.indexOf('#') >= 0) {
      throw new IllegalArgumentException(
          "request-target must not carry a fragment (RFC 9112 §3.2): " + target);
    }
    int start;
    if (target.startsWith("/")) {
      start = 0;
    } else if (target.equals("*")) {
      return new Request(head, "*", null, readOnly(body));
    } else {
      start = absolutePathStart(target);
    }
    int q = target.indexOf('?', start);
    String path = target.substring(start, q < 0 ? target.length() : q);
    String query = q < 0 ? null : target.substring(q + 1);
    if (path.isEmpty()) {
      path = "/"; // absolute-form with an empty path (RFC 9112 §3.2.2)
    }
    return new Request(head, path, query, readOnly(body));
  }

  /**
   * Returns this request with a body buffer the caller gives up.
   *
   * @param body the body, not copied
   * @return the request with it
   */
  public Request withBody(ByteBuffer body) {
    return new Request(head, path, query, readOnly(body));
  }

  /**
   * Returns this request with the parameters its route's path template matched.
   *
   * @param params name to decoded value, or null for none
   * @return the request with them
   */
  public Request withPathParams(Map<String, String> params) {
    return new Request(
        head, path, query, body, params == null ? Map.of() : Collections.unmodifiableMap(params));
  }

  /** A read-only view; an empty read-only buffer cannot change, so it serves as its own view. */
  static ByteBuffer readOnly(ByteBuffer b) {
    return b.isReadOnly() && b.capacity() == 0 ? b : b.asReadOnlyBuffer();
  }

  /** Returns where the path of an absolute-form target starts (its length when it has none). */
  private static int absolutePathStart(String target) {
    int colon = target.indexOf("://");
    String scheme = colon < 0 ? "" : target.substring(0, colon);
    if (!scheme.equalsIgnoreCase("http") && !scheme.equalsIgnoreCase("https")) {
      throw new IllegalArgumentException(
          "request-target must be origin-form, absolute-form or * (RFC 9112 §3.2): " + target);
    }
    int authority = colon + 3;
    int end = authority;
    while (end < target.length() && target.charAt(end) != '/' && target.charAt(end) != '?') {
      end++;
    }
    if (end == authority) {
      throw new IllegalArgumentException(
          "absolute-form request-target has no authority (RFC 9112 §3.2.2): " + target);
    }
    return end;
  }

  /**
   * Returns the request head as parsed.
   *
   * @return the head
   */
  public HttpHead.Request head() {
    return head;
  }

  @Override
  public String method() {
    return head.method();
  }

  @Override
  public String target() {
    return head.target();
  }

  @Override
  public String path() {
    return path;
  }

  @Override
  public String query() {
    return query;
  }

  /**
   * Tells the request which server received it; called on the handler's thread, before the
   * handler runs.
   *
   * @param value gives the server
   */
  public void servedBy(java.util.function.Supplier<dev.wsjava.WebSocketServer> value) {
    server = value;
  }

  @Override
  public dev.wsjava.WebSocketServer server() {
    java.util.function.Supplier<dev.wsjava.WebSocketServer> s = server;
    return s == null ? null : s.get();
  }

  @Override
  public String pathParam(String name) {
    return pathParams.get(name);
  }

  @Override
  public Map<String, String> pathParams() {
    return pathParams;
  }

  @Override
  public Map<String, List<String>> queryParams() {
    return parseQuery(query);
  }

  /**
   * Parses a query string as {@code application/x-www-form-urlencoded}: pairs split on {@code &},
   * name and value on the first {@code =}, both percent-decoded as UTF-8 with {@code +} a space; a
   * malformed escape is kept as sent.
   *
   * @param query for example {@code q=a+b&page=2}, or null
   * @return name to values, in the order they came; empty for null or an empty query
   */
  public static Map<String, List<String>> parseQuery(String query) {
    if (query == null || query.isEmpty()) {
      return Map.of();
    }
    Map<String, List<String>> m = new LinkedHashMap<>();
    for (String pair : query.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = formDecode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : formDecode(pair.substring(eq + 1));
      m.computeIfAbsent(name, k -> new ArrayList<>(1)).add(value);
    }
    m.replaceAll((k, v) -> List.copyOf(v));
    return Collections.unmodifiableMap(m);
  }

  private static String formDecode(String s) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return s; // a malformed escape: keep what was sent
    }
  }

  @Override
  public String version() {
    return head.version();
  }

  @Override
  public Headers headers() {
    return head.headers();
  }

  @Override
  public ByteBuffer body() {
    return body.duplicate();
  }

  @Override
  public String bodyText() {
    return StandardCharsets.UTF_8.decode(body()).toString();
  }

  /**
   * Describes the request for logs.
   *
   * @return for example {@code GET /chat HTTP/1.1 (0 body bytes)}
   */
  @Override
  public String toString() {
    return method() + " " + target() + " " + version() + " (" + body.remaining() + " body bytes)";
  }
}
