package dev.wsjava.http;

import dev.wsjava.handshake.Headers;
import dev.wsjava.handshake.HttpHead;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * RFC 9112 §3: a request as a handler sees it, its head and its whole body. The request-target is
 * split into path and query (§3.2): origin-form {@code /path?query}, absolute-form {@code
 * http://host/path?query} (whose path is used, §3.2.2) or asterisk-form {@code *}. Paths are kept
 * as sent, percent-encoding included. Immutable and thread-safe.
 */
public final class HttpRequest {
  private static final ByteBuffer NO_BODY = ByteBuffer.allocate(0).asReadOnlyBuffer();

  private final HttpHead.Request head;
  private final String path;
  private final String query;
  private final ByteBuffer body;

  private HttpRequest(HttpHead.Request head, String path, String query, ByteBuffer body) {
    this.head = head;
    this.path = path;
    this.query = query;
    this.body = body;
  }

  /**
   * Creates a request from a parsed head and a body.
   *
   * @param head the request head
   * @param body the body, copied; empty when the request has none
   * @return the request
   * @throws IllegalArgumentException when the request-target is none of the forms above
   */
  public static HttpRequest of(HttpHead.Request head, byte[] body) {
    return of(head, body.length == 0 ? NO_BODY : ByteBuffer.wrap(body.clone()));
  }

  /** Creates a request over a body buffer the caller gives up. */
  static HttpRequest of(HttpHead.Request head, ByteBuffer body) {
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
      return new HttpRequest(head, "*", null, readOnly(body));
    } else {
      start = absolutePathStart(target);
    }
    int q = target.indexOf('?', start);
    String path = target.substring(start, q < 0 ? target.length() : q);
    String query = q < 0 ? null : target.substring(q + 1);
    if (path.isEmpty()) {
      path = "/"; // absolute-form with an empty path (RFC 9112 §3.2.2)
    }
    return new HttpRequest(head, path, query, readOnly(body));
  }

  /** Returns this request with a body buffer the caller gives up. */
  HttpRequest withBody(ByteBuffer body) {
    return new HttpRequest(head, path, query, readOnly(body));
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

  /**
   * Returns the method, case-sensitive (RFC 9110 §9.1).
   *
   * @return for example {@code GET}
   */
  public String method() {
    return head.method();
  }

  /**
   * Returns the request-target exactly as sent.
   *
   * @return for example {@code /search?q=ws}
   */
  public String target() {
    return head.target();
  }

  /**
   * Returns the path of the target, percent-encoding kept.
   *
   * @return for example {@code /search}; {@code *} for an asterisk-form target
   */
  public String path() {
    return path;
  }

  /**
   * Returns the query of the target, without its {@code ?}.
   *
   * @return for example {@code q=ws}; empty for a target ending in {@code ?}; {@code null} when the
   *     target has no {@code ?}
   */
  public String query() {
    return query;
  }

  /**
   * Returns the HTTP-version of the request line.
   *
   * @return {@code HTTP/1.0} or {@code HTTP/1.1}
   */
  public String version() {
    return head.version();
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
   * Returns the body (chunked bodies are already decoded).
   *
   * @return a new read-only view, empty when the request has no body
   */
  public ByteBuffer body() {
    return body.duplicate();
  }

  /**
   * Returns the body decoded as UTF-8, malformed sequences replaced.
   *
   * @return the text, empty when the request has no body
   */
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
