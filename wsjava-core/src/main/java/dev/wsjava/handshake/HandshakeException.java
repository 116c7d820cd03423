package dev.wsjava.handshake;

/**
 * The client side of the RFC 6455 §4.1 opening handshake failed: the server's response was
 * malformed, was not 101, or broke one of the rules a client must check. The message names the
 * rule; {@link #status()} is the status the server answered with, so a caller can report a 403 or
 * follow a 3xx from {@link #response()}.
 */
public final class HandshakeException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final transient HttpHead.Response response;

  /**
   * Creates a failure about a response that was received and parsed.
   *
   * @param response the server's response head
   * @param message the rule that was broken
   */
  public HandshakeException(HttpHead.Response response, String message) {
    this(response, message, null);
  }

  /**
   * Creates a failure about a response that was received and parsed, with a cause (for example an
   * extension factory's refusal).
   *
   * @param response the server's response head
   * @param message the rule that was broken
   * @param cause the underlying failure, or {@code null}
   */
  public HandshakeException(HttpHead.Response response, String message, Throwable cause) {
    super(message, cause);
    this.response = response;
    this.status = response.status();
  }

  /**
   * Creates a failure with no usable response head (the response could not be parsed).
   *
   * @param message the rule that was broken
   * @param cause the underlying failure, or {@code null}
   */
  public HandshakeException(String message, Throwable cause) {
    super(message, cause);
    this.response = null;
    this.status = 0;
  }

  /**
   * Returns the status code of the server's response.
   *
   * @return for example 101, 403 or 426; 0 when no valid response head was received
   */
  public int status() {
    return status;
  }

  /**
   * Returns the server's response head, for its headers ({@code Location} after a 3xx, {@code
   * WWW-Authenticate} after a 401, {@code Sec-WebSocket-Version} after a 426).
   *
   * @return the head, or {@code null} when none could be parsed (and after deserialization)
   */
  public HttpHead.Response response() {
    return response;
  }
}
