package dev.wsjava.protocol;

import java.util.stream.LongStream;

/**
 * Seeds for randomized property tests: each test draws its case from {@code new
 * SplittableRandom(seed)}, and the seed is in the test's display name, so any failure is
 * reproduced by that one seed. {@code -Dwsjava.seeds=N} runs more (default 300); {@code
 * -Dwsjava.seed=S} runs just one.
 */
public final class Seeds {
  private Seeds() {}

  /** The seeds to run, for {@code @MethodSource("dev.wsjava.protocol.Seeds#seeds")}. */
  public static LongStream seeds() {
    return seeds(Integer.getInteger("wsjava.seeds", 300));
  }

  /** A third as many seeds, for properties whose every case is heavy. */
  public static LongStream fewer() {
    return seeds(Math.max(1, Integer.getInteger("wsjava.seeds", 300) / 3));
  }

  private static LongStream seeds(int n) {
    String one = System.getProperty("wsjava.seed");
    if (one != null) {
      return LongStream.of(Long.parseLong(one));
    }
    long base = 0x5EED_0F_3A55L;
    return LongStream.range(0, n).map(i -> base + i * 0x9E3779B97F4A7C15L);
  }
}
