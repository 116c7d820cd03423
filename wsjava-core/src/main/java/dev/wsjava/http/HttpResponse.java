package dev.wsjava.http;

import dev.wsjava.Headers;
import dev.wsjava.handshake.HttpStatus;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * RFC 9110 §15: a final response a handler returns: status, content type, more header fields and
 * the whole body. The framing fields ({@code Content-Length}, {@code Connection}, {@code
 * Transfer-Encoding}) are not the handler's: the server writes them. Immutable and
 * thread-safe; {@link #withHeader} returns a copy.
 */
public final class HttpResponse {
  /** The content type of {@link #text} responses and of error pages. */
  public static final String TEXT_PLAIN = "text/plain; charset=utf-8";

  /** The content type of {@link #html} responses. */
  public static final String TEXT_HTML = "text/html; charset=utf-8";

  /** The content type of {@link #json} responses (RFC 8259 §11: JSON is UTF-8, no charset). */
  public static final String APPLICATION_JSON = "application/json";

  private static final ByteBuffer NO_BODY = ByteBuffer.allocate(0).asReadOnlyBuffer();

  private final int status;
  private final String contentType;
  private final Headers headers;
  private final ByteBuffer body;

  private HttpResponse(int status, String contentType, Headers headers, ByteBuffer body) {
    if (status < 200 || status > 599) {
      throw new IllegalArgumentException(
          "a handler's response status must be 200 to 599 (RFC 9110 §15): " + status);
    }
    if ((status == 204 || status == 304) && (body.hasRemaining() || contentType != null)) {
      throw new IllegalArgumentException(
          "a " + status + " response has no content (RFC 9110 §15.3.5, §15.4.5)");
    }
    if (contentType != null) {
      Headers.builder().add("Content-Type", contentType); // checks it is a valid field value
    }
    this.status = status;
    this.contentType = contentType;
    this.headers = headers;
    this.body = body;
  }

  /**
   * Creates a plain text response.
   *
   * @param status 200 to 599
   * @param text the body, sent as UTF-8
   * @return the response, {@code text/plain; charset=utf-8}
   */
  public static HttpResponse text(int status, String text) {
    return new HttpResponse(status, TEXT_PLAIN, Headers.empty(), utf8(text));
  }

  /**
   * Creates an HTML response.
   *
   * @param status 200 to 599
   * @param html the body, sent as UTF-8
   * @return the response, {@code text/html; charset=utf-8}
   */
  public static HttpResponse html(int status, String html) {
    return new HttpResponse(status, TEXT_HTML, Headers.empty(), utf8(html));
  }

  /**
   * Creates a JSON response from JSON text the caller made (the core has no JSON library: use
   * yours, or a text block); the text is sent as it is, not checked.
   *
   * @param status 200 to 599
   * @param json the body, JSON text, sent as UTF-8
   * @return the response, {@code application/json}
   */
  public static HttpResponse json(int status, String json) {
    return new HttpResponse(status, APPLICATION_JSON, Headers.empty(), utf8(json));
  }

  /**
   * Creates a response with a body of any type.
   *
   * @param status 200 to 599
   * @param contentType the media type (RFC 9110 §8.3), for example {@code image/png}
   * @param body the body, copied
   * @return the response
   */
  public static HttpResponse bytes(int status, String contentType, byte[] body) {
    Objects.requireNonNull(contentType, "contentType");
    return new HttpResponse(status, contentType, Headers.empty(), ByteBuffer.wrap(body.clone()));
  }

  /**
   * Creates a response without content and without a content type.
   *
   * @param status 200 to 599, for example 204
   * @return the response
   */
  public static HttpResponse empty(int status) {
    return new HttpResponse(status, null, Headers.empty(), NO_BODY);
  }

  /**
   * Creates the short plain text page the server answers errors with: the status and its reason
   * phrase, for example {@code 404 Not Found} and a newline (the same page a rejected WebSocket
   * upgrade without a body of its own gets).
   *
   * @param status 200 to 599, usually 4xx or 5xx
   * @return the response
   */
  public static HttpResponse error(int status) {
    String phrase = HttpStatus.reasonPhrase(status);
    return text(status, phrase.isEmpty() ? status + "\n" : status + " " + phrase + "\n");
  }

  /**
   * Creates the 404 page (RFC 9110 §15.5.5).
   *
   * @return {@code 404 Not Found}
   */
  public static HttpResponse notFound() {
    return error(HttpStatus.NOT_FOUND);
  }

  /**
   * Creates the 405 page with the {@code Allow} field it must carry (RFC 9110 §15.5.6).
   *
   * @param allowed the methods the resource supports, in the order to list them
   * @return {@code 405 Method Not Allowed}
   */
  public static HttpResponse methodNotAllowed(List<String> allowed) {
    return error(HttpStatus.METHOD_NOT_ALLOWED).withHeader("Allow", String.join(", ", allowed));
  }

  /**
   * Creates a redirect without content (RFC 9110 §15.4).
   *
   * @param status 301, 302, 303, 307 or 308
   * @param location the {@code Location} value, for example {@code /docs/}
   * @return the response
   */
  public static HttpResponse redirect(int status, String location) {
    if (status != 301 && status != 302 && status != 303 && status != 307 && status != 308) {
      throw new IllegalArgumentException("not a redirect status: " + status);
    }
    return empty(status).withHeader("Location", location);
  }

  /**
   * Returns a copy with one more header field.
   *
   * @param name a token; not a framing field ({@code Content-Length}, {@code Connection}, {@code
   *     Transfer-Encoding}), which the writer owns. {@code Content-Type} replaces the factory's
   *     type, for example {@code text/csv; charset=utf-8} on a {@link #text} response
   * @param value the value; no CR, LF or other control
   * @return the new response
   * @throws IllegalArgumentException for an invalid or reserved field
   */
  public HttpResponse withHeader(String name, String value) {
    String n = name.toLowerCase(Locale.ROOT);
    if (n.equals("content-type")) {
      return withContentType(value);
    }
    if (n.equals("content-length")
        || n.equals("connection")
        || n.equals("transfer-encoding")) {
      throw new IllegalArgumentException(
          "header " + name + " is written from the response itself and may not be added");
    }
    return new HttpResponse(
        status, contentType, headers.toBuilder().add(name, value).build(), body);
  }

  /** A copy with another content type; a 204 or 304 refuses one. */
  private HttpResponse withContentType(String value) {
    return new HttpResponse(status, Objects.requireNonNull(value, "value"), headers, body);
  }

  /**
   * Returns the status code.
   *
   * @return 200 to 599
   */
  public int status() {
    return status;
  }

  /**
   * Returns the media type of the body.
   *
   * @return for example {@code text/plain; charset=utf-8}, or {@code null} for none
   */
  public String contentType() {
    return contentType;
  }

  /**
   * Returns the header fields besides content type and framing, in the order added.
   *
   * @return the fields
   */
  public Headers headers() {
    return headers;
  }

  /**
   * Returns the body.
   *
   * @return a new read-only view, empty when the response has none
   */
  public ByteBuffer body() {
    return body.asReadOnlyBuffer();
  }

  /**
   * Returns the body length, the value of {@code Content-Length}.
   *
   * @return bytes
   */
  public int bodyLength() {
    return body.remaining();
  }

  /**
   * Describes the response for logs.
   *
   * @return for example {@code 404 Not Found (14 body bytes)}
   */
  @Override
  public String toString() {
    return status
        + " "
        + HttpStatus.reasonPhrase(status)
        + " ("
        + body.remaining()
        + " body bytes)";
  }

  private static ByteBuffer utf8(String text) {
    return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
  }
}
