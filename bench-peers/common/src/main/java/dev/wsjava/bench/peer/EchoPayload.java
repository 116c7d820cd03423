package dev.wsjava.bench.peer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The content of every echoed message, and the check of the echo. Message {@code seq} is a fixed
 * template with the sequence number stamped in: 16 lower-case hex digits at offset 8 of a JSON-like
 * ASCII text, or 8 big-endian bytes at offset 0 of pseudo-random binary. So an echo that is cut,
 * stretched, reordered, stale or corrupted fails the check; the template is built once, which
 * keeps the check and the send cheap for 1 MiB messages.
 *
 * <p>Immutable and thread-safe.
 */
public final class EchoPayload {
  private static final String JSON =
      "{\"seq\":\"0000000000000000\",\"type\":\"quote\",\"symbol\":\"EURUSD\",\"bid\":1.08423,"
          + "\"ask\":1.08431,\"size\":250000,\"venue\":\"LD4\",\"flags\":[\"firm\",\"streaming\"],"
          + "\"ts\":\"2026-11-30T10:15:00.123Z\",\"trader\":{\"id\":4711,\"desk\":\"fx-spot\"},"
          + "\"note\":\"the quick brown fox jumps over the lazy dog\",\"tags\":[\"g10\",\"spot\"]";
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private final byte[] template;
  private final boolean text;
  private final int seqOffset;
  private final int seqLength;

  private EchoPayload(byte[] template, boolean text, int seqOffset, int seqLength) {
    this.template = template;
    this.text = text;
    this.seqOffset = seqOffset;
    this.seqLength = seqLength;
  }

  /**
   * Builds the payload of a given size and kind.
   *
   * @param size bytes per message, at least 1
   * @param text a JSON-like ASCII text, or pseudo-random binary
   * @return the payload
   */
  public static EchoPayload of(int size, boolean text) {
    if (size < 1) {
      throw new IllegalArgumentException("size must be positive: " + size);
    }
    byte[] t = new byte[size];
    if (text) {
      StringBuilder sb = new StringBuilder(size + JSON.length());
      sb.append(JSON);
      int n = 0;
      while (sb.length() < size) {
        sb.append(",\"k").append(n++).append("\":\"lorem ipsum dolor sit amet\"");
      }
      sb.setLength(size - 1);
      sb.append('}');
      byte[] ascii = sb.toString().getBytes(StandardCharsets.US_ASCII);
      System.arraycopy(ascii, 0, t, 0, size);
      int off = Math.min(8, size);
      return new EchoPayload(t, true, off, Math.min(16, size - off));
    }
    new SplittableRandom(0x5eed).nextBytes(t);
    return new EchoPayload(t, false, 0, Math.min(8, size));
  }

  /**
   * Returns the message size.
   *
   * @return bytes per message
   */
  public int size() {
    return template.length;
  }

  /**
   * Returns whether messages are text.
   *
   * @return true for text
   */
  public boolean text() {
    return text;
  }

  /**
   * Returns byte {@code i} of message {@code seq}.
   *
   * @param seq the message's sequence number
   * @param i the offset in the message
   * @return the byte
   */
  public byte byteAt(long seq, int i) {
    int s = i - seqOffset;
    if (s < 0 || s >= seqLength) {
      return template[i];
    }
    if (text) {
      return HEX[(int) (seq >>> (60 - 4 * s)) & 0xf];
    }
    return (byte) (seq >>> (56 - 8 * s));
  }

  /**
   * Writes message {@code seq} whole into {@code dst}, which is as long as the message.
   *
   * @param seq the sequence number
   * @param dst the destination
   */
  public void fill(long seq, byte[] dst) {
    System.arraycopy(template, 0, dst, 0, template.length);
    stamp(seq, dst);
  }

  /**
   * Stamps {@code seq} into a buffer that already holds the template (from {@link #fill}); cheap.
   *
   * @param seq the sequence number
   * @param dst the message buffer
   */
  public void stamp(long seq, byte[] dst) {
    for (int i = seqOffset; i < seqOffset + seqLength; i++) {
      dst[i] = byteAt(seq, i);
    }
  }

  /**
   * Copies bytes {@code [offset, offset + len)} of message {@code seq} into {@code dst}.
   *
   * @param seq the sequence number
   * @param offset where in the message to start
   * @param dst the destination, at its position (advanced by {@code len})
   * @param len how many bytes
   */
  public void copy(long seq, int offset, ByteBuffer dst, int len) {
    int start = dst.position();
    dst.put(template, offset, len);
    int from = Math.max(offset, seqOffset);
    int to = Math.min(offset + len, seqOffset + seqLength);
    for (int i = from; i < to; i++) {
      dst.put(start + i - offset, byteAt(seq, i));
    }
  }

  /**
   * Checks bytes {@code [offset, offset + len)} of an echo of message {@code seq}.
   *
   * @param seq the sequence number expected
   * @param offset where in the message these bytes start
   * @param src the echoed bytes, at its position (advanced by {@code len})
   * @param len how many bytes
   * @return the offset in the message of the first wrong byte, or -1 when all match (a chunk that
   *     runs past the message's end is wrong at the message's length)
   */
  public int check(long seq, int offset, ByteBuffer src, int len) {
    int start = src.position();
    src.position(start + len);
    int inside = Math.min(len, template.length - offset);
    ByteBuffer got = src.duplicate().position(start).limit(start + inside);
    int m = got.mismatch(ByteBuffer.wrap(template, offset, inside));
    int from = Math.max(offset, seqOffset);
    int to = Math.min(offset + inside, seqOffset + seqLength);
    for (int i = from; i < to; i++) {
      if (src.get(start + i - offset) != byteAt(seq, i)) {
        return i;
      }
    }
    if (m >= 0) {
      int i = offset + m;
      if (i < seqOffset || i >= seqOffset + seqLength) {
        return i;
      }
      // The template differs only inside the stamp, already checked: look past it.
      ByteBuffer rest = src.duplicate().position(start + (to - offset)).limit(start + inside);
      int m2 = rest.mismatch(ByteBuffer.wrap(template, to, offset + inside - to));
      if (m2 >= 0) {
        return to + m2;
      }
    }
    return inside < len ? template.length : -1;
  }

  /**
   * Checks a whole echoed message.
   *
   * @param seq the sequence number expected
   * @param message the echo, position to limit
   * @return the offset of the first wrong byte (the shorter length when the lengths differ), or -1
   */
  public int checkWhole(long seq, ByteBuffer message) {
    int len = message.remaining();
    int m = check(seq, 0, message.duplicate(), Math.min(len, template.length));
    if (m >= 0) {
      return m;
    }
    return len == template.length ? -1 : Math.min(len, template.length);
  }
}
