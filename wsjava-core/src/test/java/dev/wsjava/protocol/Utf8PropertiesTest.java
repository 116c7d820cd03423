package dev.wsjava.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * RFC 3629 as RFC 6455 §8.1 applies it: the validator agrees with the JDK's strict decoder
 * (malformed input REPORTed) on text made of valid and broken pieces (overlong forms, surrogates,
 * code points past U+10FFFF, stray continuation bytes, cut sequences), whole and fed in fragments
 * that split code points anywhere, and it names the first byte that no valid text can have there.
 */
class Utf8PropertiesTest {

  static CharsetDecoder strict() {
    return StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
  }

  /** Whether the JDK decodes the bytes as complete, valid UTF-8. */
  static boolean jdkValid(byte[] a, int length) {
    CharsetDecoder d = strict();
    ByteBuffer in = ByteBuffer.wrap(a, 0, length);
    CharBuffer out = CharBuffer.allocate(length + 1);
    return !d.decode(in, out, true).isError() && !d.flush(out).isError() && !in.hasRemaining();
  }

  /**
   * Whether some valid UTF-8 text starts with these bytes: they are valid, or become valid, in the
   * JDK's eyes, with one to three continuation bytes added (one of 80, 90, A0 or BF each, which
   * between them complete any code point that a lead byte can begin).
   */
  static boolean jdkValidPrefix(byte[] a, int length) {
    if (jdkValid(a, length)) {
      return true;
    }
    byte[] tails = {(byte) 0x80, (byte) 0x90, (byte) 0xA0, (byte) 0xBF};
    byte[] b = Arrays.copyOf(a, length + 3);
    for (int k = 1; k <= 3; k++) {
      for (int combo = 0; combo < 1 << (2 * k); combo++) {
        for (int i = 0; i < k; i++) {
          b[length + i] = tails[(combo >> (2 * i)) & 3];
        }
        if (jdkValid(b, length + k)) {
          return true;
        }
      }
    }
    return false;
  }

  @Property(tries = 1000)
  void validatorAgreesWithTheJdkWholeAndInFragments(
      @ForAll("text") byte[] text,
      @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 1, max = 9) Integer> fragmentSizes,
      @ForAll boolean direct) {
    boolean valid = jdkValid(text, text.length);
    assertThat(Utf8Validator.isValid(text, 0, text.length)).isEqualTo(valid);
    assertThat(Utf8Validator.isValid(ByteBuffer.wrap(text))).isEqualTo(valid);

    Utf8Validator v = new Utf8Validator();
    int failedAt = -1;
    int at = 0;
    for (int i = 0; at < text.length; i++) {
      int n = Math.min(text.length - at, fragmentSizes.get(i % fragmentSizes.size()));
      ByteBuffer fragment = direct ? ByteBuffer.allocateDirect(n + 2) : ByteBuffer.allocate(n + 2);
      fragment.position(1).put(text, at, n).flip().position(1);
      int r = v.validate(fragment);
      if (failedAt < 0 && r >= 0) {
        assertThat(r).isBetween(fragment.position(), fragment.limit() - 1);
        failedAt = at + r - fragment.position();
      }
      at += n;
    }
    assertThat(v.isComplete()).as("complete and valid").isEqualTo(valid);
    assertThat(v.hasFailed()).isEqualTo(failedAt >= 0);
    if (failedAt >= 0) {
      assertThat(jdkValidPrefix(text, failedAt)).as("the bytes before the one reported").isTrue();
      assertThat(jdkValidPrefix(text, failedAt + 1)).as("up to the byte reported").isFalse();
    } else if (!valid) {
      assertThat(jdkValidPrefix(text, text.length)).as("only cut at the end").isTrue();
    }
  }

  @Provide
  Arbitrary<byte[]> text() {
    return piece().list().ofMaxSize(12).map(pieces -> {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      pieces.forEach(out::writeBytes);
      return out.toByteArray();
    });
  }

  /** A valid code point of each length, or one of the ways UTF-8 goes wrong. */
  private Arbitrary<byte[]> piece() {
    Arbitrary<byte[]> valid = Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.integers().between(0, 0x7F)),
        Tuple.of(2, Arbitraries.integers().between(0x80, 0x7FF)),
        Tuple.of(2, Arbitraries.integers().between(0x800, 0xFFFF)
            .filter(c -> c < 0xD800 || c > 0xDFFF)),
        Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10FFFF)))
        .map(c -> new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8));
    Arbitrary<byte[]> surrogate = Arbitraries.integers().between(0xD800, 0xDFFF)
        .map(c -> encode3(c));
    Arbitrary<byte[]> tooHigh = Arbitraries.integers().between(0x110000, 0x1FFFFF)
        .map(c -> encode4(c));
    Arbitrary<byte[]> overlong = Arbitraries.oneOf(
        Arbitraries.integers().between(0, 0x7F).map(c -> encode2(c)),
        Arbitraries.integers().between(0, 0x7FF).map(c -> encode3(c)),
        Arbitraries.integers().between(0, 0xFFFF).map(c -> encode4(c)));
    Arbitrary<byte[]> cut = valid.filter(b -> b.length > 1)
        .flatMap(b -> Arbitraries.integers().between(1, b.length - 1)
            .map(n -> Arrays.copyOf(b, n)));
    Arbitrary<byte[]> anyByte = Arbitraries.bytes().map(b -> new byte[] {b});
    return Arbitraries.frequencyOf(
        Tuple.of(12, valid),
        Tuple.of(1, surrogate),
        Tuple.of(1, tooHigh),
        Tuple.of(1, overlong),
        Tuple.of(1, cut),
        Tuple.of(1, anyByte));
  }

  private static byte[] encode2(int c) {
    return new byte[] {(byte) (0xC0 | c >> 6), (byte) (0x80 | c & 0x3F)};
  }

  private static byte[] encode3(int c) {
    return new byte[] {(byte) (0xE0 | c >> 12), (byte) (0x80 | c >> 6 & 0x3F),
        (byte) (0x80 | c & 0x3F)};
  }

  private static byte[] encode4(int c) {
    return new byte[] {(byte) (0xF0 | c >> 18), (byte) (0x80 | c >> 12 & 0x3F),
        (byte) (0x80 | c >> 6 & 0x3F), (byte) (0x80 | c & 0x3F)};
  }
}
