package dev.wsjava.protocol;

/**
 * Limits on what a peer may make this end hold (RFC 6455 §10.4): each exceeded limit fails the
 * connection with 1009. Immutable; build variants with the {@code with...} methods.
 *
 * @param maxFramePayload largest payload of a single frame, in bytes, as announced in its header
 * @param maxMessageSize largest message, in bytes, after any extension decoded it (so it bounds
 *     inflated size too)
 * @param maxFragments most frames one fragmented message may have; {@link Integer#MAX_VALUE} (the
 *     default) for no cap
 */
public record Limits(long maxFramePayload, long maxMessageSize, int maxFragments) {

  /**
   * 16 MiB: a frame larger than the largest message makes no sense, and 16 MiB bounds what a single
   * header can make us expect.
   */
  public static final long DEFAULT_MAX_FRAME_PAYLOAD = 16L << 20;

  /**
   * 16 MiB: generous for chat, market data and game state, small enough that a few hundred hostile
   * connections cannot exhaust a default heap.
   */
  public static final long DEFAULT_MAX_MESSAGE_SIZE = 16L << 20;

  /**
   * No cap ({@link Integer#MAX_VALUE}): a message costs its bytes, not its frames. Every frame's
   * header is bytes the peer sent, parsing is linear in them, and the message size limit and the
   * memory budget bound what a message holds, so any fragmentation within the size limit is
   * accepted, as RFC 6455 §5.4 allows (the reference conformance suite's cases 9.3.1 and 9.4.1
   * send 4 MiB in 64-byte fragments). A cap is an opt-in: {@link #withMaxFragments(int)}.
   */
  public static final int DEFAULT_MAX_FRAGMENTS = Integer.MAX_VALUE;

  /** The defaults above. */
  public static final Limits DEFAULTS =
      new Limits(DEFAULT_MAX_FRAME_PAYLOAD, DEFAULT_MAX_MESSAGE_SIZE, DEFAULT_MAX_FRAGMENTS);

  /**
   * Checks the limits.
   *
   * @param maxFramePayload at least 125 (a control frame must always fit)
   * @param maxMessageSize at least 0
   * @param maxFragments at least 1
   */
  public Limits {
    if (maxFramePayload < 125) {
      throw new IllegalArgumentException(
          "maxFramePayload must be at least 125 (the largest control frame): " + maxFramePayload);
    }
    if (maxMessageSize < 0) {
      throw new IllegalArgumentException("maxMessageSize must not be negative: " + maxMessageSize);
    }
    if (maxFragments < 1) {
      throw new IllegalArgumentException("maxFragments must be at least 1: " + maxFragments);
    }
  }

  /**
   * Returns a copy with another frame payload limit.
   *
   * @param bytes the new limit
   * @return new limits
   */
  public Limits withMaxFramePayload(long bytes) {
    return new Limits(bytes, maxMessageSize, maxFragments);
  }

  /**
   * Returns a copy with another message size limit.
   *
   * @param bytes the new limit
   * @return new limits
   */
  public Limits withMaxMessageSize(long bytes) {
    return new Limits(maxFramePayload, bytes, maxFragments);
  }

  /**
   * Returns a copy with another fragment count limit.
   *
   * @param count the new limit
   * @return new limits
   */
  public Limits withMaxFragments(int count) {
    return new Limits(maxFramePayload, maxMessageSize, count);
  }
}
