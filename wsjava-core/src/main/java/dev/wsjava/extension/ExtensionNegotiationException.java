package dev.wsjava.extension;

/**
 * A {@code Sec-WebSocket-Extensions} header could not be parsed, or a server's response did not
 * fit what the client offered. The opening handshake fails.
 */
public final class ExtensionNegotiationException extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what was wrong with the header or response
   */
  public ExtensionNegotiationException(String message) {
    super(message);
  }
}
