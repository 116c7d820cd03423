package dev.wsjava.transport;

/**
 * A send was refused because the connection's outbound queue is full: the peer reads slower than
 * the application sends. Wait for the earlier sends' futures or for {@code onWritable}, then send
 * again.
 */
public final class QueueFullException extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param queued bytes already queued
   * @param size bytes this send would add
   * @param limit the configured limit
   */
  public QueueFullException(long queued, long size, long limit) {
    super(
        "outbound queue holds "
            + queued
            + " bytes; "
            + size
            + " more would pass the limit of "
            + limit
            + " (wait for earlier sends to complete or for onWritable)");
  }
}
