package dev.wsjava.extension;

import dev.wsjava.ProtocolException;
import java.nio.ByteBuffer;

/**
 * A negotiated extension on one connection (RFC 6455 §9): it owns some RSV bits and transforms
 * the payload of data messages. Control frames never pass through an extension.
 *
 * <p>The session calls an extension for every data frame, in order; several extensions form a
 * chain (outbound in negotiation order, inbound in reverse), each writing into the next one's
 * input. An extension that does not transform a given message passes its bytes through unchanged.
 *
 * <p>Not thread-safe: one connection drives it from one thread at a time.
 */
public interface Extension extends AutoCloseable {
  /** The RSV1 bit as it sits in the first header byte. */
  int RSV1 = 0x40;
  /** The RSV2 bit as it sits in the first header byte. */
  int RSV2 = 0x20;
  /** The RSV3 bit as it sits in the first header byte. */
  int RSV3 = 0x10;

  /**
   * Returns the registered extension name.
   *
   * @return for example {@code permessage-deflate}
   */
  String name();

  /**
   * Returns the RSV bits this extension may set ({@link #RSV1}, {@link #RSV2}, {@link #RSV3}
   * combined). A frame with an RSV bit no negotiated extension owns fails with 1002.
   *
   * @return a mask over bits 0x70 of the first header byte
   */
  int rsvBits();

  /**
   * Decodes the payload of one inbound data frame.
   *
   * @param messageRsv the RSV bits of the first frame of the message this frame belongs to
   * @param fin whether this is the last frame of the message
   * @param payload the frame payload (already unmasked); consumed by this call
   * @param out receives the decoded bytes
   * @throws ProtocolException when the payload cannot be decoded (usually 1007) or the sink
   *     refuses it (1009)
   */
  void decode(int messageRsv, boolean fin, ByteBuffer payload, ByteSink out)
      throws ProtocolException;

  /**
   * Encodes the payload of one outbound data frame.
   *
   * @param first whether this is the first frame of the message
   * @param fin whether this is the last frame of the message
   * @param payload the bytes the user sends; consumed by this call
   * @param out receives the encoded bytes
   * @return the RSV bits to set on this frame (for example RSV1 on the first frame of a
   *     compressed message, 0 on the rest)
   * @throws ProtocolException only if a downstream sink refuses the bytes
   */
  int encode(boolean first, boolean fin, ByteBuffer payload, ByteSink out)
      throws ProtocolException;

  /** Releases what the extension holds (native zlib streams); idempotent. */
  @Override
  void close();
}
