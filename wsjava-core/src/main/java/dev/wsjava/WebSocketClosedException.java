package dev.wsjava;

import java.io.IOException;

/** The connection is closed; carries its close code and reason. */
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
