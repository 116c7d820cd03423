package dev.wsjava.session;

import dev.wsjava.protocol.Opcode;
import dev.wsjava.ProtocolException;
import java.nio.ByteBuffer;

/**
 * Events a {@link Session} reports while it is fed bytes. Every buffer handed over is valid only
 * during the call: a listener that keeps bytes copies them. All methods do nothing by default.
 */
public interface SessionListener {

  /**
   * A whole data message arrived (when the session does not stream messages). Text messages have
   * been checked to be valid UTF-8.
   *
   * @param type {@link Opcode#TEXT} or {@link Opcode#BINARY}
   * @param payload the message, decoded by any extensions
   */
  default void onMessage(Opcode type, ByteBuffer payload) {}

  /**
   * A piece of a data message arrived (when the session streams messages). The UTF-8 of text
   * pieces has been checked so far; a code point may be split between pieces.
   *
   * @param type {@link Opcode#TEXT} or {@link Opcode#BINARY}, the type of the whole message
   * @param chunk the piece, possibly empty
   * @param last whether this is the message's last piece: the one that completes an uncompressed
   *     message's data, else an empty piece after the data
   */
  default void onMessagePart(Opcode type, ByteBuffer chunk, boolean last) {}

  /**
   * A ping arrived. When auto-pong is on, the pong has already been queued.
   *
   * @param payload the ping's application data, at most 125 bytes
   */
  default void onPing(ByteBuffer payload) {}

  /**
   * A pong arrived.
   *
   * @param payload the pong's application data, at most 125 bytes
   */
  default void onPong(ByteBuffer payload) {}

  /**
   * The peer closed: its close frame arrived (and, if this end had not closed yet, the reply is
   * queued), or the byte stream ended without one (code 1006).
   *
   * @param code the peer's code, 1005 when its close frame had none, 1006 when there was no frame
   * @param reason the peer's reason, possibly empty
   */
  default void onClose(int code, String reason) {}

  /**
   * This end failed the connection because the peer broke a rule or a limit; a close frame with
   * {@link ProtocolException#closeCode()} is queued when one could still be sent. Nothing more is
   * reported after this.
   *
   * @param cause the rule that was broken
   */
  default void onFailure(ProtocolException cause) {}
}
