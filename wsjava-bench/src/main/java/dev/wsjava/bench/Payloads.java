package dev.wsjava.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/** The inputs the benchmarks share, made the same way in every run. */
final class Payloads {
  static final int MIB = 1 << 20;

  private Payloads() {}

  /**
   * Fills {@code read} with the next piece of {@code wire} from {@code at}, as one socket read would:
   * at most its capacity.
   *
   * @return {@code read}, flipped
   */
  static ByteBuffer nextRead(ByteBuffer read, byte[] wire, int at) {
    return read.clear().put(wire, at, Math.min(read.capacity(), wire.length - at)).flip();
  }

  static byte[] random(int n) {
    byte[] b = new byte[n];
    new SplittableRandom(42).nextBytes(b);
    return b;
  }

  static byte[] ascii(int n) {
    byte[] b = new byte[n];
    String text = "The quick brown fox jumps over the lazy dog. {\"id\":12345,\"ok\":true}\n";
    for (int i = 0; i < n; i++) {
      b[i] = (byte) text.charAt(i % text.length());
    }
    return b;
  }

  /** About 1 MiB of UTF-8 mixing one- to four-byte characters (Latin, Greek, CJK, emoji). */
  static byte[] mixedUtf8(int n) {
    String pattern = "abc héllo κόσμε 世界 😀 ";
    StringBuilder sb = new StringBuilder();
    while (sb.toString().getBytes(StandardCharsets.UTF_8).length < n) {
      sb.append(pattern.repeat(1024));
    }
    byte[] all = sb.toString().getBytes(StandardCharsets.UTF_8);
    // Cut at a character boundary at or below n.
    int end = n;
    while ((all[end] & 0xC0) == 0x80) {
      end--;
    }
    return java.util.Arrays.copyOf(all, end);
  }

  /** A 300-byte JSON-like market data message. */
  static byte[] json300() {
    StringBuilder sb = new StringBuilder("{\"type\":\"quote\",\"seq\":918273,\"items\":[");
    int i = 0;
    while (sb.length() < 280) {
      sb.append("{\"s\":\"SYM").append(i).append("\",\"b\":101.").append(i).append(",\"a\":101.")
          .append(i + 2).append("},");
      i++;
    }
    sb.setLength(sb.length() - 1);
    sb.append("]}");
    while (sb.length() < 300) {
      sb.insert(sb.length() - 2, ' ');
    }
    return sb.substring(0, 300).getBytes(StandardCharsets.UTF_8);
  }
}
