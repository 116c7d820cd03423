package dev.wsjava.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.SecureRandom;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MaskKeySourceTest {
  private static final int KEYS = 10_000;

  @Test
  void drawsKeysThatAlmostNeverRepeat() {
    MaskKeySource source = new MaskKeySource();
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < KEYS; i++) {
      seen.add(source.nextKey());
    }
    // 10,000 random 32-bit keys collide about 0.01 times on average.
    assertThat(seen).hasSizeGreaterThanOrEqualTo(KEYS - 3);
  }

  @Test
  void variesEveryByteAndEveryBitOfTheKey() {
    MaskKeySource source = new MaskKeySource();
    List<Set<Integer>> byteValues = List.of(new HashSet<>(), new HashSet<>(), new HashSet<>(),
        new HashSet<>());
    int[] ones = new int[32];
    for (int i = 0; i < KEYS; i++) {
      int key = source.nextKey();
      for (int p = 0; p < 4; p++) {
        byteValues.get(p).add((key >>> (24 - 8 * p)) & 0xFF);
      }
      for (int bit = 0; bit < 32; bit++) {
        ones[bit] += (key >>> bit) & 1;
      }
    }
    for (int p = 0; p < 4; p++) {
      // Missing any of 256 values in 10,000 uniform draws has a chance of about 3e-15.
      assertThat(byteValues.get(p)).as("values of key byte %d", p).hasSize(256);
    }
    for (int bit = 0; bit < 32; bit++) {
      // Expected 5,000 with a standard deviation of 50.
      assertThat(ones[bit]).as("ones in bit %d", bit).isBetween(4_500, 5_500);
    }
  }

  @Test
  void givesEachInstanceItsOwnKeys() {
    Set<Integer> firstKeys = new HashSet<>();
    Set<Integer> secondKeys = new HashSet<>();
    for (int i = 0; i < 1_000; i++) {
      MaskKeySource source = new MaskKeySource();
      firstKeys.add(source.nextKey());
      secondKeys.add(source.nextKey());
    }
    assertThat(firstKeys).hasSizeGreaterThanOrEqualTo(998);
    assertThat(secondKeys).hasSizeGreaterThanOrEqualTo(998);

    MaskKeySource a = new MaskKeySource();
    MaskKeySource b = new MaskKeySource();
    Set<Integer> fromA = new HashSet<>();
    Set<Integer> fromB = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      fromA.add(a.nextKey());
      fromB.add(b.nextKey());
    }
    fromA.retainAll(fromB);
    assertThat(fromA).as("keys two connections share").hasSizeLessThanOrEqualTo(1);
  }

  @Test
  void readsKeysInWireOrderFromBatchesOfTheGenerator() {
    CountingRandom random = new CountingRandom();
    MaskKeySource source = new MaskKeySource(random);

    // The generator yields 00 01 02 03 04 05 ...: the first key's first wire byte is 00.
    assertThat(source.nextKey()).isEqualTo(0x00010203);
    assertThat(source.nextKey()).isEqualTo(0x04050607);
    for (int i = 2; i < 16; i++) {
      source.nextKey();
    }
    assertThat(random.calls).as("one draw serves 16 keys").isEqualTo(1);
    assertThat(source.nextKey()).isEqualTo(0x40414243);
    assertThat(random.calls).isEqualTo(2);
  }

  @Test
  void refusesANullGenerator() {
    assertThatThrownBy(() -> new MaskKeySource(null)).isInstanceOf(NullPointerException.class);
  }

  /** A predictable generator that counts its draws; for checking byte order and batching only. */
  private static final class CountingRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;
    private int nextByte;
    private int calls;

    @Override
    public void nextBytes(byte[] bytes) {
      calls++;
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = (byte) nextByte++;
      }
    }
  }
}
