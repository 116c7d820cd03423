package dev.wsjava.internal.http;

/**
 * A request's framing or size broke RFC 9112 §6-§7 or an {@link HttpLimits} limit, after its head
 * was read: a bad {@code Content-Length} or {@code Transfer-Encoding}, malformed chunks, a body or
 * trailer section over its limit. Carries the status to answer with (400, 413, 431 or 501); the
 * connection is closed after the answer, since the message boundary is lost.
 */
final class RequestException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int status;

  /**
   * Creates the exception; no stack trace, it is control flow.
   *
   * @param status the HTTP status that answers the fault
   * @param message the rule that was broken
   */
  RequestException(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  /** Returns the status to answer with. */
  int status() {
    return status;
  }
}
