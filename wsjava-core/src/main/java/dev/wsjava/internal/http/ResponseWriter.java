package dev.wsjava.internal.http;

import dev.wsjava.http.HttpResponse;
import dev.wsjava.Headers;
import dev.wsjava.handshake.HttpStatus;
import java.nio.ByteBuffer;

/**
 * RFC 9112 §4 and §6: writes a response as the bytes to send. The status line is always {@code
 * HTTP/1.1} (RFC 9110 §6.2: a server sends its own version, also to HTTP/1.0 clients); then the
 * response's fields in order, {@code Connection} when given, {@code Content-Type} when the response
 * has one, and {@code Content-Length}, which is always written except where RFC 9110 §8.6 forbids
 * or voids it (204, 304). This order matches {@link
 * dev.wsjava.handshake.ServerHandshake#reject(int, String)}, so an error page is the same bytes
 * whichever layer writes it. No {@code Date} is added; a caller who wants one adds the field.
 *
 * <p>Stateless and thread-safe.
 */
public final class ResponseWriter {
  /** Bodies up to this size are copied behind the head, so the response is one buffer. */
  static final int INLINE_BODY = 8 * 1024;

  private ResponseWriter() {}

  /**
   * Writes a response.
   *
   * @param response the response
   * @param includeBody false for the answer to a HEAD request (RFC 9110 §9.3.2): the head is the
   *     same, {@code Content-Length} included, and no body follows
   * @param connection the {@code Connection} value, for example {@code close} or {@code
   *     keep-alive}; {@code null} for none
   * @return one buffer (head and a small body) or two (head, then a read-only view of the body),
   *     each positioned at 0
   */
  public static ByteBuffer[] encode(HttpResponse response, boolean includeBody, String connection) {
    int status = response.status();
    if (connection != null && !"keep-alive".equals(connection) && !"close".equals(connection)) {
      Headers.builder().add("Connection", connection); // checks a value that is not ours
    }
    String reason = HttpStatus.reasonPhrase(status);
    Headers h = response.headers();
    String type = response.contentType();
    boolean length = status != 204 && status != 304;
    int size = "HTTP/1.1 ".length() + digits(status) + 1 + reason.length() + 2;
    for (int i = 0; i < h.size(); i++) {
      size += fieldSize(h.name(i), h.value(i));
    }
    if (connection != null) {
      size += fieldSize("Connection", connection);
    }
    if (type != null) {
      size += fieldSize("Content-Type", type);
    }
    if (length) {
      size += "Content-Length".length() + 2 + digits(response.bodyLength()) + 2;
    }
    size += 2;
    ByteBuffer body = response.body();
    boolean hasBody = includeBody && body.hasRemaining();
    boolean inline = hasBody && body.remaining() <= INLINE_BODY;
    // The head is written straight into the array that goes out, the small body behind it.
    byte[] a = new byte[size + (inline ? body.remaining() : 0)];
    int at = ascii(a, 0, "HTTP/1.1 ");
    at = decimal(a, at, status);
    a[at++] = ' ';
    at = crlf(a, ascii(a, at, reason));
    for (int i = 0; i < h.size(); i++) {
      at = field(a, at, h.name(i), h.value(i));
    }
    if (connection != null) {
      at = field(a, at, "Connection", connection);
    }
    if (type != null) {
      at = field(a, at, "Content-Type", type);
    }
    if (length) {
      at = ascii(a, at, "Content-Length: ");
      at = crlf(a, decimal(a, at, response.bodyLength()));
    }
    at = crlf(a, at);
    if (inline) {
      body.get(body.position(), a, at, body.remaining());
      return new ByteBuffer[] {ByteBuffer.wrap(a)};
    }
    if (hasBody) {
      return new ByteBuffer[] {ByteBuffer.wrap(a), body};
    }
    return new ByteBuffer[] {ByteBuffer.wrap(a)};
  }

  /**
   * Writes a response into one array, for tests and for callers that do not gather.
   *
   * @param response the response
   * @param includeBody false for the answer to a HEAD request
   * @param connection the {@code Connection} value, or {@code null}
   * @return the bytes of {@link #encode}, concatenated
   */
  public static byte[] toBytes(HttpResponse response, boolean includeBody, String connection) {
    ByteBuffer[] parts = encode(response, includeBody, connection);
    int n = 0;
    for (ByteBuffer b : parts) {
      n += b.remaining();
    }
    ByteBuffer out = ByteBuffer.allocate(n);
    for (ByteBuffer b : parts) {
      out.put(b);
    }
    return out.array();
  }

  private static int fieldSize(String name, String value) {
    return name.length() + 2 + value.length() + 2;
  }

  private static int field(byte[] a, int at, String name, String value) {
    int i = ascii(a, at, name);
    i = ascii(a, i, ": ");
    return crlf(a, ascii(a, i, value));
  }

  /** Writes a string as ISO-8859-1 (a char above U+00FF, which field values never hold, as ?). */
  private static int ascii(byte[] a, int at, String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      a[at++] = c <= 0xFF ? (byte) c : (byte) '?';
    }
    return at;
  }

  private static int crlf(byte[] a, int at) {
    a[at] = '\r';
    a[at + 1] = '\n';
    return at + 2;
  }

  private static int digits(int n) {
    int d = 1;
    for (long p = 10; p <= n; p *= 10) {
      d++;
    }
    return d;
  }

  /** Writes a non-negative int in decimal. */
  private static int decimal(byte[] a, int at, int n) {
    int end = at + digits(n);
    for (int i = end - 1; i >= at; i--) {
      a[i] = (byte) ('0' + n % 10);
      n /= 10;
    }
    return end;
  }
}
