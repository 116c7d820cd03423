package dev.wsjava;

import java.io.IOException;

/**
 * The connection is closed; carries its close code and reason. The one exception for a closed
 * connection: {@code receive} throws it, and a send's future fails with it (also when the send was
 * queued and the connection closed under it), on both transports.
 */
public final class WebSocketClosedException extends IOException {
  private static final long serialVersionUID = 1L;

  private final int code;
  private final String reason;

  /**
   * Creates the exception.
   *
   * @param code the close code
   * @param reason the close reason
   */
  public WebSocketClosedException(int code, String reason) {
    super("WebSocket closed: " + code + (reason == null || reason.isEmpty() ? "" : " " + reason));
    this.code = code;
    this.reason = reason == null ? "" : reason;
  }

  /**
   * Returns the close code.
   *
   * @return the code; 1006 when the connection ended without a close frame
   */
  public int code() {
    return code;
  }

  /**
   * Returns the close reason.
   *
   * @return the reason, possibly empty
   */
  public String reason() {
    return reason;
  }
}
