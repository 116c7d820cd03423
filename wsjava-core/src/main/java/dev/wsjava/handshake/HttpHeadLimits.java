package dev.wsjava.handshake;

/**
 * Limits on an HTTP/1.1 head (RFC 7230 §3: start line and header fields) that a peer controls. A
 * request over a limit is answered 431 (RFC 6585 §5), or 414 (RFC 7231 §6.5.12) when the request
 * line alone does not fit.
 *
 * @param maxHeadSize the most bytes the head may take, from the first byte of the start line (or of
 *     the empty lines a request may be preceded by) through the final empty line's CRLF
 * @param maxHeaderCount the most header field lines the head may carry
 */
public record HttpHeadLimits(int maxHeadSize, int maxHeaderCount) {

  /**
   * 8 KiB: what browsers' cookie-laden upgrade requests fit in with room to spare, and the per-head
   * bound most servers apply; it caps the memory a slow client can pin per connection.
   */
  public static final int DEFAULT_MAX_HEAD_SIZE = 8 * 1024;

  /**
   * 100: browsers send about 15 to 25 header fields on an upgrade; 100 is the common server default
   * and keeps per-field work bounded.
   */
  public static final int DEFAULT_MAX_HEADER_COUNT = 100;

  private static final HttpHeadLimits DEFAULTS =
      new HttpHeadLimits(DEFAULT_MAX_HEAD_SIZE, DEFAULT_MAX_HEADER_COUNT);

  /**
   * Creates limits.
   *
   * @param maxHeadSize at least 16 bytes
   * @param maxHeaderCount zero or more
   */
  public HttpHeadLimits {
    if (maxHeadSize < 16) {
      throw new IllegalArgumentException("maxHeadSize must be at least 16 bytes: " + maxHeadSize);
    }
    if (maxHeaderCount < 0) {
      throw new IllegalArgumentException("maxHeaderCount must not be negative: " + maxHeaderCount);
    }
  }

  /**
   * Returns the default limits: {@value #DEFAULT_MAX_HEAD_SIZE} bytes and {@value
   * #DEFAULT_MAX_HEADER_COUNT} header fields.
   *
   * @return the shared default instance
   */
  public static HttpHeadLimits defaults() {
    return DEFAULTS;
  }

  /**
   * Returns a copy with another head size limit.
   *
   * @param bytes the new limit, at least 16
   * @return the new limits
   */
  public HttpHeadLimits withMaxHeadSize(int bytes) {
    return new HttpHeadLimits(bytes, maxHeaderCount);
  }

  /**
   * Returns a copy with another header count limit.
   *
   * @param count the new limit, zero or more
   * @return the new limits
   */
  public HttpHeadLimits withMaxHeaderCount(int count) {
    return new HttpHeadLimits(maxHeadSize, count);
  }
}
