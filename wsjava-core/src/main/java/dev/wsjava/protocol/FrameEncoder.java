package dev.wsjava.protocol;

import java.nio.ByteBuffer;

/**
 * RFC 6455 §5.2 frame encoder: writes a header and payload into a buffer the caller owns, in one
 * pass (the payload is copied once and masked in place). Stateless and thread-safe.
 */
public final class FrameEncoder {

  private FrameEncoder() {}

  /**
   * Returns the length of a header (with masking key, if any) for a payload.
   *
   * @param payloadLength the payload length
   * @param masked whether a masking key follows the length
   * @return 2 to 14
   */
  public static int headerLength(long payloadLength, boolean masked) {
    int n = payloadLength <= 125 ? 2 : payloadLength <= 0xFFFF ? 4 : 10;
    return masked ? n + 4 : n;
  }

  /**
   * Writes a frame header at {@code out}'s position, advancing it. Uses the minimal length
   * encoding (§5.2).
   *
   * @param out the destination, with at least {@link #headerLength} bytes remaining
   * @param fin whether this is the final frame of its message
   * @param rsv RSV bits as they sit in the first byte (a mask over 0x70)
   * @param opcode the opcode
   * @param payloadLength the payload length, 0 to 2^63-1
   * @param masked whether to write a masking key
   * @param maskKey the key as a big-endian int (ignored when not masked)
   */
  public static void writeHeader(
      ByteBuffer out,
      boolean fin,
      int rsv,
      Opcode opcode,
      long payloadLength,
      boolean masked,
      int maskKey) {
    if (payloadLength < 0) {
      throw new IllegalArgumentException("payload length must not be negative: " + payloadLength);
    }
    out.put((byte) ((fin ? 0x80 : 0) | (rsv & 0x70) | opcode.code()));
    int maskBit = masked ? 0x80 : 0;
    if (payloadLength <= 125) {
      out.put((byte) (maskBit | (int) payloadLength));
    } else if (payloadLength <= 0xFFFF) {
      out.put((byte) (maskBit | 126));
      out.put((byte) (payloadLength >>> 8));
      out.put((byte) payloadLength);
    } else {
      out.put((byte) (maskBit | 127));
      for (int shift = 56; shift >= 0; shift -= 8) {
        out.put((byte) (payloadLength >>> shift));
      }
    }
    if (masked) {
      out.put((byte) (maskKey >>> 24));
      out.put((byte) (maskKey >>> 16));
      out.put((byte) (maskKey >>> 8));
      out.put((byte) maskKey);
    }
  }

  /**
   * Encodes a whole frame at {@code out}'s position: header, then the payload copied once, masked
   * in place when {@code masked}. Advances {@code out}'s position past the frame; {@code payload}'s
   * position is left unchanged.
   *
   * @param out the destination, with at least {@code headerLength + payload.remaining()} bytes
   *     remaining
   * @param fin whether this is the final frame of its message
   * @param rsv RSV bits (a mask over 0x70)
   * @param opcode the opcode
   * @param payload the payload, from its position to its limit
   * @param masked whether to mask (a client must)
   * @param maskKey the masking key as a big-endian int
   * @return the number of bytes written
   */
  public static int encode(
      ByteBuffer out,
      boolean fin,
      int rsv,
      Opcode opcode,
      ByteBuffer payload,
      boolean masked,
      int maskKey) {
    int start = out.position();
    int length = payload.remaining();
    writeHeader(out, fin, rsv, opcode, length, masked, maskKey);
    int payloadStart = out.position();
    out.put(payloadStart, payload, payload.position(), length);
    if (masked) {
      Masking.mask(out, payloadStart, length, maskKey, 0);
    }
    out.position(payloadStart + length);
    return out.position() - start;
  }

  /**
   * Encodes a whole frame from an array slice; see {@link #encode(ByteBuffer, boolean, int,
   * Opcode, ByteBuffer, boolean, int)}.
   *
   * @param out the destination
   * @param fin whether this is the final frame of its message
   * @param rsv RSV bits (a mask over 0x70)
   * @param opcode the opcode
   * @param payload the array holding the payload
   * @param offset the payload's first index
   * @param length the payload length
   * @param masked whether to mask
   * @param maskKey the masking key as a big-endian int
   * @return the number of bytes written
   */
  public static int encode(
      ByteBuffer out,
      boolean fin,
      int rsv,
      Opcode opcode,
      byte[] payload,
      int offset,
      int length,
      boolean masked,
      int maskKey) {
    int start = out.position();
    writeHeader(out, fin, rsv, opcode, length, masked, maskKey);
    int payloadStart = out.position();
    out.put(payload, offset, length);
    if (masked) {
      Masking.mask(out, payloadStart, length, maskKey, 0);
    }
    return out.position() - start;
  }
}
