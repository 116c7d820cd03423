package dev.wsjava.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * RFC 6455 §5.3: masking, word at a time, equals the RFC's byte loop ({@code j = i MOD 4}) for any
 * key, length, alignment and starting key index, on arrays, heap and direct buffers, and when the
 * range is masked in two pieces that carry the key index from one to the next.
 */
class MaskingPropertiesTest {

  /** The RFC's definition, one octet at a time. */
  static byte[] byteLoop(byte[] data, int key, int keyIndex) {
    byte[] out = data.clone();
    for (int i = 0; i < out.length; i++) {
      int j = (keyIndex + i) & 3;
      out[i] ^= (byte) (key >>> (24 - 8 * j));
    }
    return out;
  }

  @Property(tries = 500)
  void maskingInTwoPiecesEqualsTheByteLoop(
      @ForAll @Size(max = 600) byte[] data,
      @ForAll int key,
      @ForAll @IntRange(min = 0, max = 3) int keyIndex,
      @ForAll @IntRange(min = 0, max = 15) int offset,
      @ForAll @IntRange(min = 0, max = 600) int cut,
      @ForAll("kinds") String kind) {
    int split = Math.min(cut, data.length);
    byte[] expected = byteLoop(data, key, keyIndex);
    byte[] got;
    if (kind.equals("array")) {
      byte[] a = new byte[offset + data.length + 5];
      System.arraycopy(data, 0, a, offset, data.length);
      int next = Masking.mask(a, offset, split, key, keyIndex);
      assertThat(next).isEqualTo((keyIndex + split) & 3);
      Masking.mask(a, offset + split, data.length - split, key, next);
      got = Arrays.copyOfRange(a, offset, offset + data.length);
    } else {
      int capacity = offset + data.length + 5;
      ByteBuffer b = kind.equals("direct") ? ByteBuffer.allocateDirect(capacity)
          : ByteBuffer.allocate(capacity);
      b.put(offset, data).position(2).limit(capacity - 1);
      int next = Masking.mask(b, offset, split, key, keyIndex);
      assertThat(next).isEqualTo((keyIndex + split) & 3);
      Masking.mask(b, offset + split, data.length - split, key, next);
      assertThat(b.position()).as("position left alone").isEqualTo(2);
      assertThat(b.limit()).as("limit left alone").isEqualTo(capacity - 1);
      got = new byte[data.length];
      b.get(offset, got);
    }
    assertThat(got).isEqualTo(expected);
  }

  @Provide
  Arbitrary<String> kinds() {
    return Arbitraries.of("array", "heap", "direct");
  }
}
