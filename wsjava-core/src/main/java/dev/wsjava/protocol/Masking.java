package dev.wsjava.protocol;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * RFC 6455 §5.3 client-to-server masking: XOR of the payload with a 4-byte masking key, byte
 * {@code i} of the payload with key byte {@code i mod 4}.
 *
 * <p>The key is passed as a big-endian {@code int} in wire order: key byte 0 (the first masking-key
 * byte on the wire) is {@code key >>> 24}. Masking can stop after any byte and go on in a later call:
 * each call takes the key index to start with and returns the key index for the next byte, so a
 * payload that arrives over several reads is unmasked in place read by read.
 *
 * <p>Eight bytes are processed per step through a {@code long} view of the bytes in the platform's
 * native order (32 per loop iteration on arrays); only a tail of at most three bytes (seven in a
 * direct buffer) is done byte by byte. Masking is its own
 * inverse: masking the same range twice with the same key and key index restores it.
 *
 * <p>Stateless and thread-safe; callers must not mask the same bytes from two threads at once.
 */
public final class Masking {
  private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
  private static final boolean BIG_ENDIAN = NATIVE == ByteOrder.BIG_ENDIAN;
  private static final VarHandle ARRAY_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, NATIVE);
  private static final VarHandle ARRAY_INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, NATIVE);
  private static final VarHandle BUFFER_LONG =
      MethodHandles.byteBufferViewVarHandle(long[].class, NATIVE);

  private Masking() {}

  /**
   * XORs bytes {@code [offset, offset + length)} of a buffer with the masking key, in place.
   *
   * <p>Indices are absolute; the buffer's position, limit, mark and byte order are left as they are.
   * Heap and direct buffers are both supported.
   *
   * @param buf the buffer holding the payload; must be writable
   * @param offset absolute index of the first byte to mask
   * @param length number of bytes to mask, 0 or more; {@code offset + length} may not pass the limit
   * @param key the four masking-key bytes as a big-endian int (key byte 0 is {@code key >>> 24})
   * @param keyIndex which key byte (0-3) applies to the byte at {@code offset}
   * @return {@code (keyIndex + length) & 3}, the key index for the byte after the range
   * @throws IndexOutOfBoundsException if the range is not within {@code [0, buf.limit())}
   * @throws IllegalArgumentException if {@code keyIndex} is not 0-3
   * @throws java.nio.ReadOnlyBufferException if the buffer is read-only and {@code length > 0}
   */
  public static int mask(ByteBuffer buf, int offset, int length, int key, int keyIndex) {
    Objects.checkFromIndexSize(offset, length, buf.limit());
    checkKeyIndex(keyIndex);
    if (buf.hasArray()) {
      maskArray(buf.array(), buf.arrayOffset() + offset, length, key, keyIndex);
    } else {
      maskBuffer(buf, offset, length, key, keyIndex);
    }
    return (keyIndex + length) & 3;
  }

  /**
   * XORs bytes {@code [offset, offset + length)} of an array with the masking key, in place.
   *
   * @param a the array holding the payload
   * @param offset index of the first byte to mask
   * @param length number of bytes to mask, 0 or more
   * @param key the four masking-key bytes as a big-endian int (key byte 0 is {@code key >>> 24})
   * @param keyIndex which key byte (0-3) applies to the byte at {@code offset}
   * @return {@code (keyIndex + length) & 3}, the key index for the byte after the range
   * @throws IndexOutOfBoundsException if the range is not within the array
   * @throws IllegalArgumentException if {@code keyIndex} is not 0-3
   */
  public static int mask(byte[] a, int offset, int length, int key, int keyIndex) {
    Objects.checkFromIndexSize(offset, length, a.length);
    checkKeyIndex(keyIndex);
    maskArray(a, offset, length, key, keyIndex);
    return (keyIndex + length) & 3;
  }

  private static void checkKeyIndex(int keyIndex) {
    if ((keyIndex & ~3) != 0) {
      throw new IllegalArgumentException("key index must be 0-3, was " + keyIndex);
    }
  }

  /**
   * The key rotated so that its first (most significant) byte is key byte {@code keyIndex},
   * repeated twice: eight key bytes in wire order, big-endian.
   */
  private static long wirePattern(int key, int keyIndex) {
    long rotated = Integer.rotateLeft(key, keyIndex << 3) & 0xFFFF_FFFFL;
    return (rotated << 32) | rotated;
  }

  /** The wire pattern as a long read from memory in native order gives it. */
  private static long nativePattern(long wire) {
    return BIG_ENDIAN ? wire : Long.reverseBytes(wire);
  }

  private static void maskArray(byte[] a, int offset, int length, int key, int keyIndex) {
    long wire = wirePattern(key, keyIndex);
    long mask = nativePattern(wire);
    int i = offset;
    int end = offset + length;
    // Every step is a multiple of 4 bytes long, so the key index at i stays keyIndex. The loop is
    // left plain on purpose: C2 unrolls and vectorizes it, which a hand-unrolled body prevented
    // (measured: about 1.5x faster on 1 MiB).
    for (int last = end - 8; i <= last; i += 8) {
      ARRAY_LONG.set(a, i, (long) ARRAY_LONG.get(a, i) ^ mask);
    }
    if (end - i >= 4) {
      // Either half of the mask holds key bytes keyIndex..keyIndex+3 in memory order.
      ARRAY_INT.set(a, i, (int) ARRAY_INT.get(a, i) ^ (int) mask);
      i += 4;
    }
    for (; i < end; i++) {
      a[i] ^= (byte) (wire >>> 56);
      wire <<= 8;
    }
  }

  private static void maskBuffer(ByteBuffer buf, int offset, int length, int key, int keyIndex) {
    long wire = wirePattern(key, keyIndex);
    long mask = nativePattern(wire);
    int i = offset;
    int end = offset + length;
    for (int last = end - 8; i <= last; i += 8) {
      BUFFER_LONG.set(buf, i, (long) BUFFER_LONG.get(buf, i) ^ mask);
    }
    for (; i < end; i++) {
      buf.put(i, (byte) (buf.get(i) ^ (byte) (wire >>> 56)));
      wire <<= 8;
    }
  }
}
