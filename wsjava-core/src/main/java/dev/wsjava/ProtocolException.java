package dev.wsjava;


/**
 * The peer broke a rule of RFC 6455 or RFC 7692, or exceeded a limit: the connection fails with
 * {@link #closeCode()}. The message names the rule that was broken.
 *
 * <p>This is what the protocol layers report; it is never thrown at a user for their own misuse
 * (that is an {@link IllegalStateException} or {@link IllegalArgumentException}).
 */
public class ProtocolException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int closeCode;

  /**
   * Creates an exception that fails the connection with the given code.
   *
   * @param closeCode the close code to send, for example {@link CloseCode#PROTOCOL_ERROR}
   * @param message the rule that was broken
   */
  public ProtocolException(int closeCode, String message) {
    super(message);
    this.closeCode = closeCode;
  }

  /**
   * Creates an exception with a cause, for example a {@code DataFormatException} from inflating.
   *
   * @param closeCode the close code to send
   * @param message the rule that was broken
   * @param cause the underlying failure
   */
  public ProtocolException(int closeCode, String message, Throwable cause) {
    super(message, cause);
    this.closeCode = closeCode;
  }

  /**
   * Returns the close code this failure is reported to the peer with.
   *
   * @return an RFC 6455 §7.4.1 code such as 1002, 1007, 1009
   */
  public int closeCode() {
    return closeCode;
  }
}
