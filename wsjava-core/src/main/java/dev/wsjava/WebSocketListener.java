package dev.wsjava;

import java.nio.ByteBuffer;

/**
 * Callbacks for one connection's events. Each runs on the connection's I/O thread, one at a time,
 * in order; a callback that blocks delays that connection (and, on the NIO transport, the others
 * of its event loop), so hand long work to another thread. A callback may send on this connection
 * or on any other (a broadcast holds no lock across connections), but must not wait for a send's
 * future (its own bytes go out after the callback returns: waiting would deadlock).
 * Buffers are valid only during the call, and only between their position and limit: a buffer
 * may be a view of a reused (pooled) array, whose other bytes belong to earlier messages.
 * Every method does nothing by default.
 */
public interface WebSocketListener {

  /**
   * The connection is open.
   *
   * @param ws the connection
   */
  default void onOpen(WebSocket ws) {}

  /**
   * A text message arrived.
   *
   * @param ws the connection
   * @param text the message
   */
  default void onText(WebSocket ws, String text) {}

  /**
   * A binary message arrived.
   *
   * @param ws the connection
   * @param data the message, valid only during the call
   */
  default void onBinary(WebSocket ws, ByteBuffer data) {}

  /**
   * A piece of a data message arrived, when the configuration streams messages ({@link
   * WebSocketConfig.Builder#streamMessages}); {@link #onText} and {@link #onBinary} are then not
   * called. Pieces come in order, each as it was read (a frame may come in several pieces, a piece
   * is never larger than a read or an inflated chunk), and the next is not read before this call
   * returns: a slow consumer slows the peer through TCP, and a message of any size is taken in
   * constant memory. The UTF-8 of text has been checked up to this piece (a character may be split
   * between pieces); an invalid byte later closes the connection with 1007 and {@link #onError}.
   *
   * @param ws the connection
   * @param text whether the message is text (UTF-8) rather than binary
   * @param part the piece, possibly empty, valid only during the call
   * @param last whether this piece ends the message: for an uncompressed message, the piece with
   *     the end of its data (a message in one frame and one read comes as one piece); after
   *     compressed data, an empty piece
   */
  default void onMessagePart(WebSocket ws, boolean text, ByteBuffer part, boolean last) {}

  /**
   * A ping arrived; the pong has been sent for you.
   *
   * @param ws the connection
   * @param data the ping's data
   */
  default void onPing(WebSocket ws, ByteBuffer data) {}

  /**
   * A pong arrived.
   *
   * @param ws the connection
   * @param data the pong's data
   */
  default void onPong(WebSocket ws, ByteBuffer data) {}

  /**
   * The outbound queue drained after a send had been refused as full.
   *
   * @param ws the connection
   */
  default void onWritable(WebSocket ws) {}

  /**
   * Something failed: the peer broke the protocol (the connection is closed with the RFC's code),
   * an I/O error, or a timeout. {@link #onClose} follows.
   *
   * @param ws the connection
   * @param error what went wrong
   */
  default void onError(WebSocket ws, Throwable error) {}

  /**
   * The connection closed; called exactly once. When the peer started the closing handshake, this
   * end's close frame in reply is already written when this runs (RFC 6455 §5.5.1), so the
   * application may end here, even exit the process. The socket itself may still be open (a
   * client waits for the server to close TCP first): {@link WebSocket#closeFuture()} completes
   * when it is closed, after this call.
   *
   * @param ws the connection
   * @param code the peer's close code, the code this end failed with, or 1006 when it ended
   *     without a close frame
   * @param reason the reason, possibly empty
   */
  default void onClose(WebSocket ws, int code, String reason) {}
}
