package dev.wsjava.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * RFC 3629 as RFC 6455 §8.1 applies it: the validator agrees with the JDK's strict decoder
 * (malformed input REPORTed) on text made of valid and broken pieces (overlong forms, surrogates,
 * code points past U+10FFFF, stray continuation bytes, cut sequences), whole and fed in fragments
 * that split code points anywhere, and it names the first byte that no valid text can have there.
 * Seeded: each case is drawn from its seed, which is in the case's name ({@code -Dwsjava.seed=S}
 * reruns one); a failing text is shrunk to the fewest of its pieces that still fail.
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

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void validatorAgreesWithTheJdkWholeAndInFragments(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    for (int round = 0; round < 4; round++) {
      List<byte[]> pieces = new ArrayList<>();
      for (int n = r.nextInt(13); n > 0; n--) {
        pieces.add(piece(r));
      }
      int[] fragmentSizes = r.ints(1 + r.nextInt(6), 1, 10).toArray();
      boolean direct = r.nextBoolean();
      int text = round;
      Shrink.check(seed, pieces,
          p -> String.format("text %d: %s (pieces in hex), fed in fragments of %s bytes, %s",
              text, hex(p), Arrays.toString(fragmentSizes), direct ? "direct" : "heap"),
          p -> validatorAgreesWithTheJdk(concat(p), fragmentSizes, direct));
    }
  }

  private static void validatorAgreesWithTheJdk(byte[] text, int[] fragmentSizes, boolean direct) {
    boolean valid = jdkValid(text, text.length);
    assertThat(Utf8Validator.isValid(text, 0, text.length)).as("isValid(array)").isEqualTo(valid);
    assertThat(Utf8Validator.isValid(ByteBuffer.wrap(text))).as("isValid(buffer)").isEqualTo(valid);

    Utf8Validator v = new Utf8Validator();
    int failedAt = -1;
    int at = 0;
    for (int i = 0; at < text.length; i++) {
      int n = Math.min(text.length - at, fragmentSizes[i % fragmentSizes.length]);
      ByteBuffer fragment = direct ? ByteBuffer.allocateDirect(n + 2) : ByteBuffer.allocate(n + 2);
      fragment.position(1).put(text, at, n).flip().position(1);
      int r = v.validate(fragment);
      if (failedAt < 0 && r >= 0) {
        assertThat(r).as("index reported in fragment %d", i)
            .isBetween(fragment.position(), fragment.limit() - 1);
        failedAt = at + r - fragment.position();
      }
      at += n;
    }
    assertThat(v.isComplete()).as("complete and valid").isEqualTo(valid);
    assertThat(v.hasFailed()).as("failed").isEqualTo(failedAt >= 0);
    if (failedAt >= 0) {
      assertThat(jdkValidPrefix(text, failedAt))
          .as("the bytes before the one reported (byte %d) begin valid text", failedAt).isTrue();
      assertThat(jdkValidPrefix(text, failedAt + 1))
          .as("the bytes up to the one reported (byte %d) begin no valid text", failedAt).isFalse();
    } else if (!valid) {
      assertThat(jdkValidPrefix(text, text.length)).as("only cut at the end").isTrue();
    }
  }

  private static byte[] concat(List<byte[]> pieces) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    pieces.forEach(out::writeBytes);
    return out.toByteArray();
  }

  private static String hex(List<byte[]> pieces) {
    HexFormat hex = HexFormat.ofDelimiter(" ");
    return pieces.isEmpty() ? "(empty)"
        : pieces.stream().map(hex::formatHex).collect(Collectors.joining(" | "));
  }

  /**
   * A valid code point of each length (12 in 17), or one of the ways UTF-8 goes wrong: an encoded
   * surrogate, a code point past U+10FFFF, an overlong form, a valid sequence cut short, any byte.
   */
  static byte[] piece(SplittableRandom r) {
    int kind = r.nextInt(17);
    if (kind < 12) {
      return validCodePoint(r);
    }
    return switch (kind) {
      case 12 -> encode3(r.nextInt(0xD800, 0xE000));
      case 13 -> encode4(r.nextInt(0x110000, 0x200000));
      case 14 -> switch (r.nextInt(3)) {
        case 0 -> encode2(r.nextInt(0x80));
        case 1 -> encode3(r.nextInt(0x800));
        default -> encode4(r.nextInt(0x10000));
      };
      case 15 -> {
        byte[] b;
        do {
          b = validCodePoint(r);
        } while (b.length == 1);
        yield Arrays.copyOf(b, 1 + r.nextInt(b.length - 1));
      }
      default -> new byte[] {(byte) r.nextInt(256)};
    };
  }

  /** One code point, one to four bytes long in the ratio 3:2:2:2. */
  private static byte[] validCodePoint(SplittableRandom r) {
    int k = r.nextInt(9);
    int c;
    if (k < 3) {
      c = r.nextInt(0x80);
    } else if (k < 5) {
      c = r.nextInt(0x80, 0x800);
    } else if (k < 7) {
      do {
        c = r.nextInt(0x800, 0x10000);
      } while (c >= 0xD800 && c <= 0xDFFF);
    } else {
      c = r.nextInt(0x10000, 0x110000);
    }
    return new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8);
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
