package dev.wsjava.conformance;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;

/** Small helpers the case groups share: payload makers and the usual pauses. */
final class Cases {
  /** The pause between chopped writes, so that each piece goes out in a segment of its own. */
  static final Duration TICK = Duration.ofMillis(1);
  /** A longer pause, where a case wants the peer to have processed what came before. */
  static final Duration PAUSE = Duration.ofMillis(50);

  private Cases() {}

  /**
   * Printable ASCII text of a given length, from a repeating sentence.
   *
   * @param length bytes
   * @return the text
   */
  static String ascii(int length) {
    String base = "The quick brown fox jumps over the lazy dog, says the WebSocket suite. ";
    StringBuilder s = new StringBuilder(length);
    while (s.length() < length) {
      s.append(base, 0, Math.min(base.length(), length - s.length()));
    }
    return s.toString();
  }

  /**
   * Bytes that repeat a pattern of all 256 values (binary payloads).
   *
   * @param length bytes
   * @return the bytes
   */
  static byte[] pattern(int length) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) (i * 7 + (i >>> 8));
    }
    return b;
  }

  /**
   * Random bytes from a seed (reproducible, incompressible).
   *
   * @param length bytes
   * @param seed the seed
   * @return the bytes
   */
  static byte[] random(int length, long seed) {
    byte[] b = new byte[length];
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < length; i++) {
      b[i] = (byte) r.nextInt(256);
    }
    return b;
  }

  /**
   * Bytes from hex, spaces allowed.
   *
   * @param hex for example {@code "ED A0 80"}
   * @return the bytes
   */
  static byte[] hex(String hex) {
    return HexFormat.of().parseHex(hex.replace(" ", ""));
  }

  /**
   * UTF-8 bytes of a string.
   *
   * @param s the string
   * @return the bytes
   */
  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Joins byte arrays.
   *
   * @param parts the arrays
   * @return one array
   */
  static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int off = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, off, p.length);
      off += p.length;
    }
    return out;
  }

  /**
   * A copy of part of an array.
   *
   * @param b the array
   * @param from first index
   * @param to end index, exclusive
   * @return the part
   */
  static byte[] slice(byte[] b, int from, int to) {
    return Arrays.copyOfRange(b, from, to);
  }

  /**
   * Sends a message as fragments of at most {@code size} bytes (at least one frame).
   *
   * @param p the peer
   * @param text text or binary
   * @param payload the message
   * @param size the largest fragment
   */
  static void sendFragmented(Peer p, boolean text, byte[] payload, int size) {
    int off = 0;
    boolean first = true;
    do {
      int n = Math.min(size, payload.length - off);
      boolean fin = off + n == payload.length;
      int opcode = first ? (text ? Frame.TEXT : Frame.BINARY) : Frame.CONTINUATION;
      p.send(Frame.of(opcode, slice(payload, off, off + n)).fin(fin));
      off += n;
      first = false;
    } while (off < payload.length);
  }

  /**
   * Describes a payload size in words.
   *
   * @param n bytes
   * @return for example {@code 64 KiB} or {@code 125 bytes}
   */
  static String size(long n) {
    if (n >= 1 << 20 && n % (1 << 20) == 0) {
      return (n >> 20) + " MiB";
    }
    if (n >= 1024 && n % 1024 == 0) {
      return (n >> 10) + " KiB";
    }
    return n + " bytes";
  }
}
