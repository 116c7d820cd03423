package dev.wsjava.conformance;

import dev.wsjava.protocol.FrameEncoder;
import dev.wsjava.protocol.Opcode;
import java.nio.ByteBuffer;

/**
 * RFC 6455 §5.2: turns a {@link Frame} into bytes. Correct frames come from wsjava-core's {@link
 * FrameEncoder}; what it cannot express (a reserved opcode, a length field that lies or is not
 * minimal) is written here byte by byte.
 */
final class Frames {
  private Frames() {}

  /**
   * Encodes a frame with the minimal length encoding.
   *
   * @param f the frame
   * @param masked whether to mask it
   * @param key the masking key, big-endian (first key byte on the wire is {@code key >>> 24})
   * @return the bytes on the wire
   */
  static byte[] encode(Frame f, boolean masked, int key) {
    int length = f.payload().length;
    ByteBuffer out = ByteBuffer.allocate(FrameEncoder.headerLength(length, masked) + length);
    Opcode known = Opcode.of(f.opcode());
    // The encoder only knows the six defined opcodes: for a reserved one, encode as binary and
    // put the real opcode into the first byte afterwards.
    FrameEncoder.encode(
        out, f.fin(), f.rsv() << 4, known == null ? Opcode.BINARY : known, f.payload(), 0, length,
        masked, key);
    if (known == null) {
      out.put(0, (byte) ((out.get(0) & 0xF0) | f.opcode()));
    }
    return out.array();
  }

  /**
   * Writes a header whose length field is given as is: {@code lengthBytes} 0 puts {@code
   * lengthField} in the 7-bit field, 2 and 8 use the 16- and 64-bit extended fields (whatever the
   * value, so non-minimal and oversized lengths can be expressed).
   *
   * @param fin the FIN bit
   * @param rsv 0-7
   * @param opcode 0-15
   * @param lengthField the value of the length field
   * @param lengthBytes 0, 2 or 8
   * @param masked whether a mask bit and key follow
   * @param key the masking key
   * @return the header bytes
   */
  static byte[] header(
      boolean fin, int rsv, int opcode, long lengthField, int lengthBytes, boolean masked,
      int key) {
    ByteBuffer out = ByteBuffer.allocate(2 + lengthBytes + (masked ? 4 : 0));
    out.put((byte) ((fin ? 0x80 : 0) | rsv << 4 | opcode));
    int maskBit = masked ? 0x80 : 0;
    switch (lengthBytes) {
      case 0 -> out.put((byte) (maskBit | (int) lengthField));
      case 2 -> out.put((byte) (maskBit | 126)).putShort((short) lengthField);
      case 8 -> out.put((byte) (maskBit | 127)).putLong(lengthField);
      default -> throw new IllegalArgumentException("lengthBytes must be 0, 2 or 8: " + lengthBytes);
    }
    if (masked) {
      out.putInt(key);
    }
    return out.array();
  }

  /**
   * Masks (or unmasks) bytes in place with a byte loop of the suite's own, so that the reader
   * does not share wsjava-core's masking code.
   *
   * @param data the bytes
   * @param key the key, big-endian
   */
  static void xor(byte[] data, int key) {
    for (int i = 0; i < data.length; i++) {
      data[i] ^= (byte) (key >>> (24 - 8 * (i & 3)));
    }
  }
}
