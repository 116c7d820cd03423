package dev.wsjava.session;

import dev.wsjava.protocol.Opcode;
import java.nio.ByteBuffer;

/**
 * Encodes a whole message once into the frame bytes that every session with the same {@link
 * Session#sharedFrameForm()} would send for it (RFC 6455 §5.2, through RFC 7692 §7.2.1 when the
 * form is a context-free permessage-deflate). The frame is then queued unchanged on each of those
 * sessions with {@link Session#sendEncoded}: a server's frames are not masked, so their bytes do
 * not depend on the connection.
 *
 * <p>It runs a private session of its own, whose compressor (a copy of the form's) resets after
 * every message, so the bytes depend on the message alone.
 *
 * <p>Thread-safe: encodes one message at a time.
 */
public final class SharedFrameEncoder {
  /** The form of a server session without extensions. */
  static final Object PLAIN = "plain";

  private final Session session;
  private final ByteBuffer[] gathered = new ByteBuffer[8];

  SharedFrameEncoder(Session session) {
    this.session = session;
  }

  /**
   * Encodes a whole message into its frames: one, or several of at most the sessions' outbound
   * frame size, back to back.
   *
   * @param type {@link Opcode#TEXT} (valid UTF-8) or {@link Opcode#BINARY}
   * @param payload the message, position to limit; not consumed
   * @return the frames, in a heap buffer of their own that nothing writes into again
   */
  public synchronized ByteBuffer encode(Opcode type, ByteBuffer payload) {
    session.sendMessage(type, payload.duplicate());
    ByteBuffer frame = ByteBuffer.allocate(Math.toIntExact(session.outboundBytes()));
    while (frame.hasRemaining()) {
      int n = session.gatherOutbound(gathered, 0);
      long wrote = 0;
      for (int i = 0; i < n; i++) {
        wrote += gathered[i].remaining();
        frame.put(gathered[i]);
        gathered[i] = null;
      }
      session.written(wrote);
    }
    return frame.flip();
  }
}
