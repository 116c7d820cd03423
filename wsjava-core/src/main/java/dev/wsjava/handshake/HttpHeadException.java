package dev.wsjava.handshake;

/**
 * An HTTP/1.1 head broke RFC 7230 §3 or one of the {@link HttpHeadLimits}. Carries the status a
 * server answers such a request with: 400, 414, 431 or 505. A client that receives a malformed
 * response head fails the connection; the status then only names the kind of fault.
 */
public final class HttpHeadException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int status;

  /**
   * Creates the exception.
   *
   * @param status the HTTP status that answers the fault, for example 400
   * @param message the rule that was broken
   */
  public HttpHeadException(int status, String message) {
    super(message);
    this.status = status;
  }

  /**
   * Returns the status a server answers the faulty request with.
   *
   * @return 400, 414, 431 or 505
   */
  public int status() {
    return status;
  }
}
