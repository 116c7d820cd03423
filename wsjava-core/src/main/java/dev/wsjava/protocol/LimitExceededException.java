package dev.wsjava.protocol;

import dev.wsjava.CloseCode;
import dev.wsjava.ProtocolException;

/**
 * A configured limit was exceeded by the peer: frame size, message size, inflated size, fragment
 * count. Carries the limit and the size that broke it.
 */
public final class LimitExceededException extends ProtocolException {
  private static final long serialVersionUID = 1L;

  private final long limit;
  private final long actual;

  /**
   * Creates a limit failure.
   *
   * @param closeCode the close code to send, usually {@link CloseCode#MESSAGE_TOO_BIG}
   * @param what the name of the limit, for example "message size"
   * @param actual the size the peer reached or announced (at least {@code limit + 1})
   * @param limit the configured limit
   */
  public LimitExceededException(int closeCode, String what, long actual, long limit) {
    super(closeCode, what + " " + actual + " exceeds the limit of " + limit);
    this.limit = limit;
    this.actual = actual;
  }

  /**
   * Returns the configured limit.
   *
   * @return the limit that was exceeded
   */
  public long limit() {
    return limit;
  }

  /**
   * Returns the size the peer reached or announced.
   *
   * @return a value greater than {@link #limit()}
   */
  public long actual() {
    return actual;
  }
}
