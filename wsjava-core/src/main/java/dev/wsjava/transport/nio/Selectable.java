package dev.wsjava.transport.nio;

/**
 * What an {@link EventLoop} calls for a channel registered with its selector (the key's
 * attachment).
 */
interface Selectable {

  /**
   * The channel is ready; called on the loop thread.
   *
   * @param readyOps the ready set of the selection key
   */
  void ready(int readyOps);

  /**
   * Closes the channel at once, without any closing handshake: the loop is shutting down or the
   * handler failed. Called on the loop thread.
   */
  void forceClose();
}
