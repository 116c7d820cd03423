package dev.wsjava.internal.http;

import dev.wsjava.handshake.HttpHeadLimits;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Limits on what a client of the HTTP front controls (RFC 9112 §9.5: a server may close idle
 * connections and must bound what it holds). Every limit has a safe default; build variants with
 * the {@code with...} methods. Immutable.
 *
 * @param head head size and header count; over them a request is answered 431 (or 414 for the
 *     request line alone)
 * @param maxBodySize the largest request body in bytes, announced by {@code Content-Length} or
 *     received in chunks; over it a request is answered 413 and the connection closed
 * @param maxRequestsPerConnection how many requests one connection may carry; the response to the
 *     last one says {@code Connection: close}. {@link Integer#MAX_VALUE} for no limit
 * @param requestTimeoutNanos the time from the first byte of a request to the last byte of its
 *     body; on expiry the request is answered 408 and the connection closed
 * @param idleTimeoutNanos how long a connection may wait for the first byte of its next request
 *     (for a new connection, see {@link HttpConnection#deadlineNanos()}); on expiry it is closed
 *     silently
 * @param maxQueuedBytes response bytes not yet written above which pipelined requests are left
 *     unread in the caller's buffer until the queue drains
 */
public record HttpLimits(
    HttpHeadLimits head,
    int maxBodySize,
    int maxRequestsPerConnection,
    long requestTimeoutNanos,
    long idleTimeoutNanos,
    long maxQueuedBytes) {

  /** 1 MiB: forms and API calls beside a WebSocket server fit; larger uploads need streaming. */
  public static final int DEFAULT_MAX_BODY_SIZE = 1 << 20;

  /** 1,000: as nginx, so long-lived clients rebalance and per-connection state is renewed. */
  public static final int DEFAULT_MAX_REQUESTS_PER_CONNECTION = 1_000;

  /** 20 s: a browser sends a head in one packet; a slowloris client loses its slot quickly. */
  public static final long DEFAULT_REQUEST_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(20);

  /** 30 s: browsers reuse a connection within seconds or not at all; idle sockets cost memory. */
  public static final long DEFAULT_IDLE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

  /** 64 KiB: a client that pipelines without reading cannot make the server buffer more. */
  public static final long DEFAULT_MAX_QUEUED_BYTES = 64 * 1024;

  private static final HttpLimits DEFAULTS =
      new HttpLimits(
          HttpHeadLimits.defaults(),
          DEFAULT_MAX_BODY_SIZE,
          DEFAULT_MAX_REQUESTS_PER_CONNECTION,
          DEFAULT_REQUEST_TIMEOUT_NANOS,
          DEFAULT_IDLE_TIMEOUT_NANOS,
          DEFAULT_MAX_QUEUED_BYTES);

  /**
   * Checks the limits.
   *
   * @param head head limits, not null
   * @param maxBodySize zero or more
   * @param maxRequestsPerConnection at least 1
   * @param requestTimeoutNanos more than zero
   * @param idleTimeoutNanos more than zero
   * @param maxQueuedBytes zero or more (zero: read the next request only once the queue is empty)
   */
  public HttpLimits {
    Objects.requireNonNull(head, "head");
    if (maxBodySize < 0) {
      throw new IllegalArgumentException("maxBodySize must not be negative: " + maxBodySize);
    }
    if (maxRequestsPerConnection < 1) {
      throw new IllegalArgumentException(
          "maxRequestsPerConnection must be at least 1: " + maxRequestsPerConnection);
    }
    if (requestTimeoutNanos <= 0 || idleTimeoutNanos <= 0) {
      throw new IllegalArgumentException(
          "timeouts must be positive: request "
              + requestTimeoutNanos
              + " ns, idle "
              + idleTimeoutNanos
              + " ns");
    }
    if (maxQueuedBytes < 0) {
      throw new IllegalArgumentException("maxQueuedBytes must not be negative: " + maxQueuedBytes);
    }
  }

  /**
   * Returns the defaults above, with {@link HttpHeadLimits#defaults()}.
   *
   * @return the shared default instance
   */
  public static HttpLimits defaults() {
    return DEFAULTS;
  }

  /**
   * Returns a copy with other head limits.
   *
   * @param value the head limits
   * @return the new limits
   */
  public HttpLimits withHead(HttpHeadLimits value) {
    return new HttpLimits(
        value,
        maxBodySize,
        maxRequestsPerConnection,
        requestTimeoutNanos,
        idleTimeoutNanos,
        maxQueuedBytes);
  }

  /**
   * Returns a copy with another body size limit.
   *
   * @param bytes the largest body, zero or more
   * @return the new limits
   */
  public HttpLimits withMaxBodySize(int bytes) {
    return new HttpLimits(
        head,
        bytes,
        maxRequestsPerConnection,
        requestTimeoutNanos,
        idleTimeoutNanos,
        maxQueuedBytes);
  }

  /**
   * Returns a copy with another number of requests per connection.
   *
   * @param count at least 1
   * @return the new limits
   */
  public HttpLimits withMaxRequestsPerConnection(int count) {
    return new HttpLimits(
        head, maxBodySize, count, requestTimeoutNanos, idleTimeoutNanos, maxQueuedBytes);
  }

  /**
   * Returns a copy with another request timeout.
   *
   * @param nanos more than zero
   * @return the new limits
   */
  public HttpLimits withRequestTimeoutNanos(long nanos) {
    return new HttpLimits(
        head, maxBodySize, maxRequestsPerConnection, nanos, idleTimeoutNanos, maxQueuedBytes);
  }

  /**
   * Returns a copy with another idle timeout.
   *
   * @param nanos more than zero
   * @return the new limits
   */
  public HttpLimits withIdleTimeoutNanos(long nanos) {
    return new HttpLimits(
        head, maxBodySize, maxRequestsPerConnection, requestTimeoutNanos, nanos, maxQueuedBytes);
  }

  /**
   * Returns a copy with another limit on queued response bytes.
   *
   * @param bytes zero or more
   * @return the new limits
   */
  public HttpLimits withMaxQueuedBytes(long bytes) {
    return new HttpLimits(
        head, maxBodySize, maxRequestsPerConnection, requestTimeoutNanos, idleTimeoutNanos, bytes);
  }
}
