package dev.wsjava.transport;

/** The connection closed before or while this operation ran; carries how it closed. */
public final class ConnectionClosedException extends java.io.IOException {
  private static final long serialVersionUID = 1L;

  private final int code;
  private final String reason;

  /**
   * Creates the exception.
   *
   * @param code the connection's close code
   * @param reason its close reason
   */
  public ConnectionClosedException(int code, String reason) {
    super("connection closed: " + code + (reason == null || reason.isEmpty() ? "" : " " + reason));
    this.code = code;
    this.reason = reason == null ? "" : reason;
  }

  /**
   * Returns the close code.
   *
   * @return the code, 1006 when closed without a close frame
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
