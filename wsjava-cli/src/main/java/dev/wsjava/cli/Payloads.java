package dev.wsjava.cli;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The load generator's messages: deterministic pseudo-random bytes (printable ASCII for text),
 * different for every connection and sequence number, and checkable without keeping a copy.
 *
 * <p>Every message is a window of one shared random pool, at an offset that a hash of (connection,
 * sequence number) picks, with the sequence number written over its first bytes: 8 bytes big-endian
 * for binary, 16 lowercase hex digits for text. Messages shorter than that carry no sequence
 * number; their echoes are checked against the message expected next. Thread-safe (immutable).
 */
final class Payloads {
  /** Bytes of a binary message's sequence number. */
  static final int BINARY_HEADER = 8;
  /** Characters of a text message's sequence number. */
  static final int TEXT_HEADER = 16;
  /** Distinct windows of the pool: 4096 offsets. */
  private static final int OFFSET_BITS = 12;

  private final int size;
  private final boolean text;
  private final int header;
  private final byte[] pool;
  private final String poolText;

  /** Payloads of {@code size} bytes, text or binary, from a pool seeded with {@code seed}. */
  Payloads(int size, boolean text, long seed) {
    this.size = size;
    this.text = text;
    this.header = size >= (text ? TEXT_HEADER : BINARY_HEADER) ? (text ? TEXT_HEADER : BINARY_HEADER) : 0;
    this.pool = new byte[size + (1 << OFFSET_BITS)];
    SplittableRandom random = new SplittableRandom(seed);
    if (text) {
      for (int i = 0; i < pool.length; i++) {
        pool[i] = (byte) (' ' + random.nextInt(95)); // printable ASCII, 0x20..0x7e
      }
      poolText = new String(pool, StandardCharsets.ISO_8859_1);
    } else {
      random.nextBytes(pool);
      poolText = null;
    }
  }

  /** The message size in bytes. */
  int size() {
    return size;
  }

  /** Whether messages are text. */
  boolean text() {
    return text;
  }

  /** Whether messages carry their sequence number. */
  boolean numbered() {
    return header > 0;
  }

  private static int offset(int connection, long seq) {
    long z = connection * 0x9E3779B97F4A7C15L + seq;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return (int) ((z ^ (z >>> 31)) >>> (64 - OFFSET_BITS));
  }

  /** Writes message {@code seq} of {@code connection} into {@code dst} (at least size bytes). */
  void fill(byte[] dst, int connection, long seq) {
    System.arraycopy(pool, offset(connection, seq), dst, 0, size);
    if (header > 0 && !text) {
      for (int i = 0; i < BINARY_HEADER; i++) {
        dst[i] = (byte) (seq >>> (56 - 8 * i));
      }
    } else if (header > 0) {
      for (int i = 0; i < TEXT_HEADER; i++) {
        dst[i] = (byte) Character.forDigit((int) (seq >>> (60 - 4 * i)) & 0xf, 16);
      }
    }
  }

  /** The sequence number a binary echo carries, or {@code fallback} when messages carry none. */
  long sequence(ByteBuffer echo, long fallback) {
    return header == 0 || echo.remaining() < header ? fallback : echo.getLong(echo.position());
  }

  /**
   * The sequence number a text echo carries, {@code fallback} when messages carry none, or -1
   * when its digits are not hex (a corrupted echo).
   */
  long sequence(String echo, long fallback) {
    if (header == 0 || echo.length() < header) {
      return fallback;
    }
    long seq = 0;
    for (int i = 0; i < TEXT_HEADER; i++) {
      int digit = Character.digit(echo.charAt(i), 16);
      if (digit < 0 || Character.isUpperCase(echo.charAt(i))) {
        return -1;
      }
      seq = (seq << 4) | digit;
    }
    return seq;
  }

  /**
   * Returns where a binary echo of the right length first differs from message {@code seq} past
   * its sequence number (which the caller read from it), or -1 when it matches.
   */
  int mismatch(ByteBuffer echo, int connection, long seq) {
    int off = offset(connection, seq);
    int pos = echo.position();
    if (echo.hasArray()) {
      int base = echo.arrayOffset() + pos;
      int at = Arrays.mismatch(echo.array(), base + header, base + size, pool, off + header, off + size);
      return at < 0 ? -1 : at + header;
    }
    int at = echo.duplicate().position(pos + header).limit(pos + size)
        .mismatch(ByteBuffer.wrap(pool, off + header, size - header));
    return at < 0 ? -1 : at + header;
  }

  /** As {@link #mismatch(ByteBuffer, int, long)}, for a text echo of the right length. */
  int mismatch(String echo, int connection, long seq) {
    int off = offset(connection, seq);
    if (echo.regionMatches(header, poolText, off + header, size - header)) {
      return -1;
    }
    for (int i = header; i < size; i++) {
      if (echo.charAt(i) != poolText.charAt(off + i)) {
        return i;
      }
    }
    return -1; // unreachable: regionMatches said they differ
  }

  /** The byte (or char) message {@code seq} has at {@code index}, for error reports. */
  int expectedAt(int connection, long seq, int index) {
    return pool[offset(connection, seq) + index] & 0xff;
  }
}
