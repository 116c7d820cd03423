package dev.wsjava.http;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A request body as it arrives (RFC 9112 §6), held whole for the handler. It grows as bytes come
 * instead of trusting an announced length, so a head that claims a large body pins no memory before
 * the body is sent. Not thread-safe.
 */
final class BodyBuffer {
  private static final int INITIAL = 4 * 1024;
  private static final byte[] NONE = new byte[0];

  private final int max;
  private byte[] bytes = NONE;
  private int length;

  /**
   * Starts an empty body.
   *
   * @param max the most bytes it may hold
   */
  BodyBuffer(int max) {
    this.max = max;
  }

  /** Returns how many bytes it holds. */
  int length() {
    return length;
  }

  /** Returns how many more bytes it may take. */
  int room() {
    return max - length;
  }

  /**
   * Moves {@code n} bytes from {@code in} to the end of the body.
   *
   * @throws IllegalArgumentException when that would pass the maximum (callers check {@link #room})
   */
  void take(ByteBuffer in, int n) {
    if (n > room()) {
      throw new IllegalArgumentException("body would pass its limit of " + max + " bytes");
    }
    if (length + n > bytes.length) {
      long grown = Math.max((long) length + n, Math.max(INITIAL, 2L * bytes.length));
      bytes = Arrays.copyOf(bytes, (int) Math.min(grown, max));
    }
    in.get(bytes, length, n);
    length += n;
  }

  /** Returns the body as a buffer over the bytes held; the buffer is not to be used after. */
  ByteBuffer toBuffer() {
    return ByteBuffer.wrap(bytes, 0, length).slice();
  }
}
