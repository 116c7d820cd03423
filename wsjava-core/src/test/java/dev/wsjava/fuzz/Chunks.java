package dev.wsjava.fuzz;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Splits fuzz input into reads the way a socket might deliver them: the split is a pure function of
 * the input (a seed byte picks it), so every finding replays byte for byte.
 */
final class Chunks {
  private Chunks() {}

  /**
   * Splits {@code data[from, data.length)} into chunks whose sizes a seed chooses: seed 0 gives
   * one chunk, small seeds give byte-at-a-time and tiny reads, others mixed sizes.
   */
  static List<ByteBuffer> split(byte[] data, int from, int seed) {
    List<ByteBuffer> out = new ArrayList<>();
    int s = seed & 0xff;
    if (s == 0) {
      out.add(ByteBuffer.wrap(data, from, data.length - from).slice());
      return out;
    }
    SplittableRandom random = new SplittableRandom(s);
    int max = s < 8 ? s : 1 + random.nextInt(64);
    int p = from;
    while (p < data.length) {
      int n = Math.min(data.length - p, 1 + random.nextInt(max));
      // Each chunk in its own array, at an offset, so stale bytes around it would show.
      byte[] copy = new byte[n + 3];
      System.arraycopy(data, p, copy, 1, n);
      out.add(ByteBuffer.wrap(copy, 1, n).slice());
      p += n;
    }
    return out;
  }

  /** The byte at {@code i}, or 0 past the end. */
  static int at(byte[] data, int i) {
    return i < data.length ? data[i] & 0xff : 0;
  }
}
