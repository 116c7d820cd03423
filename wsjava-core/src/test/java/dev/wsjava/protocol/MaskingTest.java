package dev.wsjava.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MaskingTest {
  private static final HexFormat HEX = HexFormat.of();

  // RFC 6455 §5.7: a masked text frame "Hello" from a client, key 37 fa 21 3d.
  private static final int RFC_KEY = 0x37fa213d;
  private static final byte[] HELLO = "Hello".getBytes(StandardCharsets.US_ASCII); // 48 65 6c 6c 6f
  private static final byte[] HELLO_MASKED = HEX.parseHex("7f9f4d5158");

  @Test
  void masksTheRfcHelloVector() {
    byte[] a = HELLO.clone();

    int next = Masking.mask(a, 0, a.length, RFC_KEY, 0);

    assertThat(a).isEqualTo(HELLO_MASKED);
    assertThat(next).isEqualTo(1); // five bytes used key bytes 0,1,2,3,0
  }

  @Test
  void unmasksTheRfcHelloVectorInsideAFrame() {
    // 81 85 | 37 fa 21 3d | 7f 9f 4d 51 58: the payload starts at index 6 of the frame.
    byte[] frame = HEX.parseHex("818537fa213d7f9f4d5158");

    Masking.mask(frame, 6, 5, RFC_KEY, 0);

    assertThat(new String(frame, 6, 5, StandardCharsets.US_ASCII)).isEqualTo("Hello");
    assertThat(HEX.formatHex(frame, 0, 6)).isEqualTo("818537fa213d");
  }

  @Test
  void unmasksTheRfcHelloVectorOneByteAtATime() {
    byte[] a = HELLO_MASKED.clone();
    int keyIndex = 0;
    for (int i = 0; i < a.length; i++) {
      keyIndex = Masking.mask(a, i, 1, RFC_KEY, keyIndex);
    }
    assertThat(a).isEqualTo(HELLO);
    assertThat(keyIndex).isEqualTo(1);
  }

  @Test
  void masksTheRfcHelloVectorInADirectBufferOfEitherByteOrder() {
    for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
      ByteBuffer buf = ByteBuffer.allocateDirect(16).order(order);
      buf.position(3).put(HELLO).flip().position(3); // payload at absolute 3..8

      Masking.mask(buf, 3, 5, RFC_KEY, 0);

      byte[] out = new byte[5];
      buf.get(3, out);
      assertThat(out).isEqualTo(HELLO_MASKED);
      assertThat(buf.order()).isEqualTo(order);
      assertThat(buf.position()).isEqualTo(3);
      assertThat(buf.limit()).isEqualTo(8);
    }
  }

  @Test
  void startsAtTheGivenKeyIndex() {
    // Key bytes 37 fa 21 3d starting at index 2: 21 3d 37 fa 21 ...
    byte[] a = new byte[9];

    int next = Masking.mask(a, 0, a.length, RFC_KEY, 2);

    assertThat(HEX.formatHex(a)).isEqualTo("213d37fa213d37fa21");
    assertThat(next).isEqualTo(3);
  }

  @Test
  void masksNothingWhenTheLengthIsZero() {
    byte[] a = {1, 2, 3};

    assertThat(Masking.mask(a, 3, 0, RFC_KEY, 2)).isEqualTo(2);
    assertThat(a).containsExactly(1, 2, 3);
  }

  @Test
  void rejectsAKeyIndexOutsideZeroToThree() {
    assertThatThrownBy(() -> Masking.mask(new byte[4], 0, 4, RFC_KEY, 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0-3");
    assertThatThrownBy(() -> Masking.mask(ByteBuffer.allocate(4), 0, 4, RFC_KEY, -1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rejectsARangeOutsideTheArrayOrPastTheLimit() {
    assertThatThrownBy(() -> Masking.mask(new byte[4], 1, 4, RFC_KEY, 0))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> Masking.mask(new byte[4], -1, 1, RFC_KEY, 0))
        .isInstanceOf(IndexOutOfBoundsException.class);
    ByteBuffer buf = ByteBuffer.allocateDirect(16).limit(8);
    assertThatThrownBy(() -> Masking.mask(buf, 4, 5, RFC_KEY, 0))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void refusesAReadOnlyBuffer() {
    ByteBuffer buf = ByteBuffer.allocate(16).asReadOnlyBuffer();
    assertThatThrownBy(() -> Masking.mask(buf, 0, 16, RFC_KEY, 0))
        .isInstanceOf(ReadOnlyBufferException.class);
    assertThatThrownBy(() -> Masking.mask(buf, 0, 3, RFC_KEY, 0))
        .isInstanceOf(ReadOnlyBufferException.class);
  }

  /** The specification: a plain byte loop with the key bytes in wire order. */
  private static void maskByByte(byte[] b, int offset, int length, int key, int keyIndex) {
    byte[] keyByte = {(byte) (key >>> 24), (byte) (key >>> 16), (byte) (key >>> 8), (byte) key};
    for (int i = offset; i < offset + length; i++) {
      b[i] ^= keyByte[(keyIndex + i - offset) & 3];
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void arrayMaskingEqualsAByteLoop(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[] data = randomBytes(r, 200);
    int offsetSeed = r.nextInt(1001);
    int lengthSeed = r.nextInt(1001);
    int key = r.nextInt();
    int keyIndex = r.nextInt(4);
    int offset = offsetSeed % (data.length + 1);
    int length = lengthSeed % (data.length - offset + 1);
    byte[] expected = data.clone();
    maskByByte(expected, offset, length, key, keyIndex);
    byte[] actual = data.clone();

    int next = Masking.mask(actual, offset, length, key, keyIndex);

    assertThat(actual).isEqualTo(expected); // includes: bytes outside the range untouched
    assertThat(next).isEqualTo((keyIndex + length) & 3);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void bufferMaskingEqualsAByteLoopOnHeapAndDirectBuffersOfEitherOrder(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[] data = randomBytes(r, 200);
    int offsetSeed = r.nextInt(1001);
    int lengthSeed = r.nextInt(1001);
    int key = r.nextInt();
    int keyIndex = r.nextInt(4);
    boolean direct = r.nextBoolean();
    boolean bigEndian = r.nextBoolean();
    int sliceAt = r.nextInt(10);
    int offset = offsetSeed % (data.length + 1);
    int length = lengthSeed % (data.length - offset + 1);
    byte[] expected = data.clone();
    maskByByte(expected, offset, length, key, keyIndex);
    // A heap buffer sliced out of a larger array has a non-zero arrayOffset.
    ByteBuffer backing =
        direct ? ByteBuffer.allocateDirect(sliceAt + data.length) : ByteBuffer.allocate(
            sliceAt + data.length);
    ByteBuffer buf = backing.slice(sliceAt, data.length).put(0, data);
    ByteOrder order = bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    buf.order(order).position(offset / 2).limit(data.length);

    int next = Masking.mask(buf, offset, length, key, keyIndex);

    byte[] actual = new byte[data.length];
    buf.get(0, actual);
    assertThat(actual).isEqualTo(expected);
    assertThat(next).isEqualTo((keyIndex + length) & 3);
    assertThat(buf.position()).isEqualTo(offset / 2);
    assertThat(buf.limit()).isEqualTo(data.length);
    assertThat(buf.order()).isEqualTo(order);
    for (int i = 0; i < sliceAt; i++) {
      assertThat(backing.get(i)).as("byte before the slice").isZero();
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void maskingSplitIntoTwoCallsEqualsOneCall(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[] data = randomBytes(r, 200);
    int offsetSeed = r.nextInt(1001);
    int lengthSeed = r.nextInt(1001);
    int splitSeed = r.nextInt(1001);
    int key = r.nextInt();
    int keyIndex = r.nextInt(4);
    boolean direct = r.nextBoolean();
    int offset = offsetSeed % (data.length + 1);
    int length = lengthSeed % (data.length - offset + 1);
    int split = splitSeed % (length + 1);
    byte[] once = data.clone();
    Masking.mask(once, offset, length, key, keyIndex);
    ByteBuffer buf = direct ? ByteBuffer.allocateDirect(data.length) : ByteBuffer.allocate(
        data.length);
    buf.put(0, data);

    int middle = Masking.mask(buf, offset, split, key, keyIndex);
    int next = Masking.mask(buf, offset + split, length - split, key, middle);

    byte[] twice = new byte[data.length];
    buf.get(0, twice);
    assertThat(twice).isEqualTo(once);
    assertThat(middle).isEqualTo((keyIndex + split) & 3);
    assertThat(next).isEqualTo((keyIndex + length) & 3);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void maskingTwiceRestoresTheInput(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[] data = randomBytes(r, 300);
    int key = r.nextInt();
    int ki = r.nextInt(4);
    byte[] a = data.clone();

    Masking.mask(a, 0, a.length, key, ki);
    Masking.mask(a, 0, a.length, key, ki);

    assertThat(a).isEqualTo(data);
  }

  /** Random bytes of random length up to {@code max}. */
  static byte[] randomBytes(SplittableRandom r, int max) {
    byte[] a = new byte[r.nextInt(max + 1)];
    r.nextBytes(a);
    return a;
  }
}
