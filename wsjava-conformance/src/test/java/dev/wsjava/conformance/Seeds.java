package dev.wsjava.conformance;

import java.util.stream.LongStream;

/**
 * Seeds for randomized tests (as wsjava-core's {@code Seeds}, which is not published as a test
 * jar): {@code -Dwsjava.seeds=N} runs more (default 300), {@code -Dwsjava.seed=S} just one.
 */
final class Seeds {
  private Seeds() {}

  static LongStream seeds() {
    String one = System.getProperty("wsjava.seed");
    if (one != null) {
      return LongStream.of(Long.parseLong(one));
    }
    long base = 0x5EED_0F_C0F0L;
    return LongStream.range(0, Integer.getInteger("wsjava.seeds", 300))
        .map(i -> base + i * 0x9E3779B97F4A7C15L);
  }
}
