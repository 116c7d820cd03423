package dev.wsjava;

/**
 * A send was refused because the connection's outbound queue is at its bound: the peer reads more
 * slowly than the application sends. Wait for earlier sends or for {@link
 * WebSocketListener#onWritable}, then send again.
 */
public final class SendQueueFullException extends java.io.IOException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the queue's size and bound
   */
  public SendQueueFullException(String message) {
    super(message);
  }
}
