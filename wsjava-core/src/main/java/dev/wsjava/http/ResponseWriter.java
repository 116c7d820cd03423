package dev.wsjava.http;

import dev.wsjava.handshake.Headers;
import dev.wsjava.handshake.HttpStatus;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

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
    StringBuilder sb = new StringBuilder(128);
    sb.append("HTTP/1.1 ")
        .append(status)
        .append(' ')
        .append(HttpStatus.reasonPhrase(status))
        .append("\r\n");
    Headers h = response.headers();
    for (int i = 0; i < h.size(); i++) {
      field(sb, h.name(i), h.value(i));
    }
    if (connection != null) {
      Headers.builder().add("Connection", connection); // checks the value
      field(sb, "Connection", connection);
    }
    if (response.contentType() != null) {
      field(sb, "Content-Type", response.contentType());
    }
    if (status != 204 && status != 304) {
      field(sb, "Content-Length", Integer.toString(response.bodyLength()));
    }
    sb.append("\r\n");
    byte[] head = sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    ByteBuffer body = response.body();
    if (!includeBody || !body.hasRemaining()) {
      return new ByteBuffer[] {ByteBuffer.wrap(head)};
    }
    if (body.remaining() > INLINE_BODY) {
      return new ByteBuffer[] {ByteBuffer.wrap(head), body};
    }
    ByteBuffer one = ByteBuffer.allocate(head.length + body.remaining());
    one.put(head).put(body).flip();
    return new ByteBuffer[] {one};
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

  private static void field(StringBuilder sb, String name, String value) {
    sb.append(name).append(": ").append(value).append("\r\n");
  }
}
