package dev.wsjava.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * RFC 6455 §5.3: masking, word at a time, equals the RFC's byte loop ({@code j = i MOD 4}) for any
 * key, length, alignment and starting key index, on arrays, heap and direct buffers, and when the
 * range is masked in two pieces that carry the key index from one to the next. Seeded: each case
 * is drawn from its seed, which is in the case's name ({@code -Dwsjava.seed=S} reruns one); a
 * failure names the cases of that seed that fail.
 */
class MaskingPropertiesTest {

  /** Lengths at the edges of the masking loops' steps (4, 8 and 32 bytes), and the largest. */
  private static final int[] EDGE_LENGTHS = {0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 600};

  private static final int[] EDGE_KEYS = {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE};

  /** Where the bytes live; a heap buffer is a slice, so its array offset is not zero. */
  enum Storage { ARRAY, HEAP, DIRECT }

  /** The RFC's definition, one octet at a time. */
  static byte[] byteLoop(byte[] data, int key, int keyIndex) {
    byte[] out = data.clone();
    for (int i = 0; i < out.length; i++) {
      int j = (keyIndex + i) & 3;
      out[i] ^= (byte) (key >>> (24 - 8 * j));
    }
    return out;
  }

  /** One case: {@code data} at {@code offset} in the storage, masked in two pieces. */
  record Case(Storage storage, byte[] data, int offset, int split, int key, int keyIndex) {
    @Override
    public String toString() {
      return String.format("%s, %d bytes at offset %d masked as [0, %d) then [%d, %d), key %08x"
          + " from key index %d", storage, data.length, offset, split, split, data.length, key,
          keyIndex);
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void maskingInTwoPiecesEqualsTheByteLoop(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Case> cases = new ArrayList<>();
    for (int round = 0; round < 2; round++) {
      int n = r.nextInt(4) == 0 ? EDGE_LENGTHS[r.nextInt(EDGE_LENGTHS.length)] : r.nextInt(601);
      byte[] data = new byte[n];
      r.nextBytes(data);
      int key = r.nextInt(8) == 0 ? EDGE_KEYS[r.nextInt(EDGE_KEYS.length)] : r.nextInt();
      int keyIndex = r.nextInt(4);
      int offset = r.nextInt(16);
      int split = switch (r.nextInt(4)) {
        case 0 -> 0;
        case 1 -> n;
        default -> r.nextInt(n + 1);
      };
      for (Storage storage : Storage.values()) {
        cases.add(new Case(storage, data, offset, split, key, keyIndex));
      }
    }
    Shrink.check(seed, cases, List::toString, cs -> cs.forEach(MaskingPropertiesTest::check));
  }

  private static void check(Case c) {
    int n = c.data().length;
    // Around the data, bytes that masking must leave zero.
    byte[] want = new byte[c.offset() + n + 5];
    System.arraycopy(byteLoop(c.data(), c.key(), c.keyIndex()), 0, want, c.offset(), n);
    byte[] got = maskInTwoPieces(c);
    assertThat(Arrays.mismatch(got, want))
        .as("first byte (from the start of the storage) unlike the byte loop's").isEqualTo(-1);
  }

  /** One call of {@code Masking.mask} on the storage under test. */
  private interface Mask {
    int mask(int from, int length, int key, int keyIndex);
  }

  /** Masks {@code [0, split)} then {@code [split, n)}; returns the whole storage afterwards. */
  private static byte[] maskInTwoPieces(Case c) {
    int n = c.data().length;
    int capacity = c.offset() + n + 5;
    byte[] a = new byte[capacity];
    ByteBuffer b = switch (c.storage()) {
      case ARRAY -> null;
      case HEAP -> ByteBuffer.allocate(capacity + 3).slice(3, capacity);
      case DIRECT -> ByteBuffer.allocateDirect(capacity);
    };
    Mask mask;
    if (b == null) {
      System.arraycopy(c.data(), 0, a, c.offset(), n);
      mask = (from, length, k, ki) -> Masking.mask(a, from, length, k, ki);
    } else {
      b.put(c.offset(), c.data()).position(2).limit(capacity - 1);
      mask = (from, length, k, ki) -> Masking.mask(b, from, length, k, ki);
    }
    int next = mask.mask(c.offset(), c.split(), c.key(), c.keyIndex());
    assertThat(next).as("key index after the first piece").isEqualTo((c.keyIndex() + c.split()) & 3);
    int last = mask.mask(c.offset() + c.split(), n - c.split(), c.key(), next);
    assertThat(last).as("key index after the second piece").isEqualTo((c.keyIndex() + n) & 3);
    if (b != null) {
      assertThat(b.position()).as("position left alone").isEqualTo(2);
      assertThat(b.limit()).as("limit left alone").isEqualTo(capacity - 1);
      b.limit(capacity).get(0, a);
    }
    return a;
  }
}
