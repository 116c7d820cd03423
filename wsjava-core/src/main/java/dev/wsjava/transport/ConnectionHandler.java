package dev.wsjava.transport;

import dev.wsjava.protocol.Opcode;
import java.nio.ByteBuffer;

/**
 * What a {@link Connection} reports to its owner (the API layer). Called on the connection's I/O
 * thread, one event at a time; buffers are valid only during the call.
 */
public interface ConnectionHandler {

  /**
   * Server side: the settings this handler's connection runs with, when its route has its own
   * (limits, streaming, queue bound, timeouts); read once, when the upgrade is accepted, before
   * the connection is made. The transport's settings by default.
   *
   * @return the settings, or null for the transport's
   */
  default ConnectionConfig connectionConfig() {
    return null;
  }

  /**
   * Client side, before {@link #onOpen}: the server's 101 response, for its header fields (cookies,
   * custom fields). Ignored by default.
   *
   * @param response the response head
   */
  default void onHandshakeResponse(dev.wsjava.handshake.HttpHead.Response response) {}

  /**
   * The connection is open: the handshake is done and data may flow.
   *
   * @param c the connection
   */
  void onOpen(Connection c);

  /**
   * A whole data message arrived.
   *
   * @param c the connection
   * @param type {@link Opcode#TEXT} (valid UTF-8) or {@link Opcode#BINARY}
   * @param payload the message
   */
  void onMessage(Connection c, Opcode type, ByteBuffer payload);

  /**
   * A piece of a data message arrived, when the connection streams messages ({@link
   * Connection#streamsMessages()}). The UTF-8 of text has been checked so far. Ignored by default.
   *
   * @param c the connection
   * @param type {@link Opcode#TEXT} or {@link Opcode#BINARY}, the type of the whole message
   * @param chunk the piece, possibly empty, valid only during the call
   * @param last whether this ends the message
   */
  default void onMessagePart(Connection c, Opcode type, ByteBuffer chunk, boolean last) {}

  /**
   * A ping arrived (the pong is already queued).
   *
   * @param c the connection
   * @param payload the application data
   */
  void onPing(Connection c, ByteBuffer payload);

  /**
   * A pong arrived.
   *
   * @param c the connection
   * @param payload the application data
   */
  void onPong(Connection c, ByteBuffer payload);

  /**
   * Something went wrong: the peer broke the protocol (a {@code ProtocolException}), an I/O error,
   * or a timeout. {@link #onClose} follows.
   *
   * @param c the connection
   * @param error what went wrong
   */
  void onError(Connection c, Throwable error);

  /**
   * The connection is closed, exactly once: with the peer's code after a close handshake, the code
   * this end failed with, or 1006 when it ended without a close frame. Reported once this end's
   * close frame is written (or the socket closed), never before: a handler may end the process
   * here without cutting off the reply RFC 6455 §5.5.1 requires. {@link Connection#closed()}
   * completes after it.
   *
   * @param c the connection
   * @param code the close code
   * @param reason the close reason, possibly empty
   */
  void onClose(Connection c, int code, String reason);

  /**
   * The outbound queue, which had passed its high-water mark, drained below half of it.
   *
   * @param c the connection
   */
  void onWritable(Connection c);
}
