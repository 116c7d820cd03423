package dev.wsjava.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Utf8ValidatorTest {
  private static final HexFormat HEX = HexFormat.of();

  private static byte[] hex(String spaced) {
    return HEX.parseHex(spaced.replace(" ", ""));
  }

  // Columns: bytes | index of the first invalid byte (-1: none) | whole code points at the end.
  @ParameterizedTest(name = "{0} -> {1}, complete {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ''                                 | -1 | true
          # Valid, at the boundaries of each length class
          00                                 | -1 | true
          7f                                 | -1 | true
          c2 80                              | -1 | true
          df bf                              | -1 | true
          e0 a0 80                           | -1 | true
          ed 9f bf                           | -1 | true
          ee 80 80                           | -1 | true
          ef bf bf                           | -1 | true
          f0 90 80 80                        | -1 | true
          f3 bf bf bf                        | -1 | true
          f4 8f bf bf                        | -1 | true
          # "κόσμε" (Autobahn case 6.2.1)
          ce ba e1 bd b9 cf 83 ce bc ce b5   | -1 | true
          # Unexpected continuation bytes
          80                                 |  0 | false
          bf                                 |  0 | false
          41 42 80                           |  2 | false
          c2 80 80                           |  2 | false
          # Lead bytes that never appear in UTF-8
          c0 80                              |  0 | false
          c1 bf                              |  0 | false
          f5 80 80 80                        |  0 | false
          f8 88 80 80 80                     |  0 | false
          fe                                 |  0 | false
          ff                                 |  0 | false
          # Overlong 3- and 4-byte forms
          e0 80 80                           |  1 | false
          e0 9f bf                           |  1 | false
          f0 80 80 80                        |  1 | false
          f0 8f bf bf                        |  1 | false
          # UTF-16 surrogates U+D800..U+DFFF
          ed a0 80                           |  1 | false
          ed bf bf                           |  1 | false
          ed a0 80 ed b0 80                  |  1 | false
          # Above U+10FFFF
          f4 90 80 80                        |  1 | false
          f7 bf bf bf                        |  0 | false
          # A sequence cut short by a byte that is not a continuation
          c2 41                              |  1 | false
          e1 80 41                           |  2 | false
          f1 80 80 c2 80                     |  3 | false
          e1 c2 80                           |  1 | false
          # "κόσμε" + surrogate + "edited" (Autobahn case 6.3.1)
          ce ba e1 bd b9 cf 83 ce bc ce b5 ed a0 80 65 64 69 74 65 64 | 12 | false
          # Truncated at the end of the message: valid so far, not complete
          c2                                 | -1 | false
          e0                                 | -1 | false
          e0 a0                              | -1 | false
          f0 90 80                           | -1 | false
          f4 8f bf                           | -1 | false
          41 f1                              | -1 | false
          """)
  void validatesEveryClassOfSequence(String bytes, int firstInvalid, boolean complete) {
    byte[] a = hex(bytes);
    Utf8Validator v = new Utf8Validator();

    assertThat(v.validate(a, 0, a.length)).isEqualTo(firstInvalid);
    assertThat(v.isComplete()).isEqualTo(complete);
    assertThat(v.hasFailed()).isEqualTo(firstInvalid >= 0);
    assertThat(Utf8Validator.isValid(a, 0, a.length)).isEqualTo(complete);
    assertThat(Utf8Validator.isValid(ByteBuffer.wrap(a))).isEqualTo(complete);

    // The same after 13 ASCII bytes, through a direct buffer whose position is not 0.
    ByteBuffer direct = ByteBuffer.allocateDirect(20 + a.length);
    direct.position(7).put("Hello, world!".getBytes(StandardCharsets.US_ASCII)).put(a).flip();
    direct.position(7);
    Utf8Validator w = new Utf8Validator();
    assertThat(w.validate(direct)).isEqualTo(firstInvalid < 0 ? -1 : 7 + 13 + firstInvalid);
    assertThat(w.isComplete()).isEqualTo(complete);
    assertThat(direct.position()).isEqualTo(7);
    assertThat(Utf8Validator.isValid(direct)).isEqualTo(complete);
  }

  @Test
  void acceptsACodePointSplitAcrossCalls() {
    // U+1F600 😀 = f0 9f 98 80, one byte per call
    byte[] a = hex("f0 9f 98 80");
    Utf8Validator v = new Utf8Validator();
    for (int i = 0; i < a.length; i++) {
      assertThat(v.validate(a, i, i + 1)).isEqualTo(-1);
      assertThat(v.isComplete()).isEqualTo(i == a.length - 1);
    }
  }

  @Test
  void reportsTheFailingByteOfASequenceSplitAcrossCalls() {
    // ed | a0 80: the surrogate's second byte fails, in the second call, at its index there.
    byte[] a = hex("41 ed a0 80");
    Utf8Validator v = new Utf8Validator();

    assertThat(v.validate(a, 0, 2)).isEqualTo(-1);
    assertThat(v.validate(a, 2, 4)).isEqualTo(2);
    assertThat(v.hasFailed()).isTrue();
  }

  @Test
  void staysFailedUntilReset() {
    byte[] bad = hex("c0 af");
    byte[] good = "fine".getBytes(StandardCharsets.US_ASCII);
    Utf8Validator v = new Utf8Validator();
    assertThat(v.validate(bad, 0, 2)).isZero();

    assertThat(v.validate(good, 1, 4)).as("failed: answers the start index").isEqualTo(1);
    assertThat(v.validate(ByteBuffer.wrap(good).position(2))).isEqualTo(2);
    assertThat(v.hasFailed()).isTrue();
    assertThat(v.isComplete()).isFalse();

    v.reset();
    assertThat(v.hasFailed()).isFalse();
    assertThat(v.isComplete()).isTrue();
    assertThat(v.validate(good, 0, 4)).isEqualTo(-1);
    assertThat(v.isComplete()).isTrue();
  }

  @Test
  void resetForgetsAnOpenCodePoint() {
    Utf8Validator v = new Utf8Validator();
    v.validate(hex("e2 82"), 0, 2);
    assertThat(v.isComplete()).isFalse();

    v.reset();

    assertThat(v.validate(hex("41"), 0, 1)).isEqualTo(-1);
    assertThat(v.isComplete()).isTrue();
  }

  @Test
  void findsABadByteAtEveryPositionOfALongAsciiText() {
    for (int length : new int[] {1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 72, 73, 100, 200}) {
      for (int at = 0; at < length; at++) {
        byte[] a = new byte[length];
        Arrays.fill(a, (byte) 'a');
        a[at] = (byte) 0x80;
        assertThat(new Utf8Validator().validate(a, 0, length)).isEqualTo(at);
        ByteBuffer direct = ByteBuffer.allocateDirect(length).put(a).flip();
        assertThat(new Utf8Validator().validate(direct)).isEqualTo(at);
        ByteBuffer sliced = ByteBuffer.allocate(length + 5).put(5, a).slice(5, length);
        assertThat(new Utf8Validator().validate(sliced)).as("heap slice").isEqualTo(at);
      }
    }
  }

  @Test
  void acceptsAMultiByteCharacterAtEveryPositionOfALongAsciiText() {
    byte[] euro = hex("e2 82 ac"); // U+20AC €
    for (int at = 0; at <= 70; at++) {
      byte[] a = new byte[73];
      Arrays.fill(a, (byte) 'x');
      System.arraycopy(euro, 0, a, at, 3);
      assertThat(Utf8Validator.isValid(a, 0, a.length)).as("at %d", at).isTrue();
      assertThat(Utf8Validator.isValid(ByteBuffer.allocateDirect(73).put(a).flip())).isTrue();
    }
  }

  @Test
  void readsNothingOutsideTheRangeItIsGiven() {
    // ff before and after the range would fail if read.
    byte[] a = hex("ff ff 41 42 43 44 45 46 47 48 49 ff ff");
    assertThat(new Utf8Validator().validate(a, 2, 11)).isEqualTo(-1);
    assertThat(new Utf8Validator().validate(ByteBuffer.wrap(a, 2, 9))).isEqualTo(-1);
    assertThat(Utf8Validator.isValid(a, 2, 11)).isTrue();
  }

  @Test
  void rejectsARangeOutsideTheArray() {
    Utf8Validator v = new Utf8Validator();
    assertThatThrownBy(() -> v.validate(new byte[4], 2, 5))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> Utf8Validator.isValid(new byte[4], 3, 2))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  // ---------------------------------------------------------------- properties against the JDK

  /** The oracle: the start of the first malformed sequence a strict JDK decoder finds, or -1. */
  private static int jdkMalformedStart(byte[] a) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(a);
    CharBuffer out = CharBuffer.allocate(a.length + 1);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      return in.position();
    }
    assertThat(result.isUnderflow()).isTrue();
    assertThat(decoder.flush(out).isUnderflow()).isTrue();
    return -1;
  }

  /** Checks one input every way the validator can be fed it. */
  private static void checkAgainstJdk(byte[] a) {
    int n = a.length;
    Utf8Validator v = new Utf8Validator();
    int firstInvalid = v.validate(a, 0, n);
    boolean complete = v.isComplete();
    boolean valid = firstInvalid < 0 && complete;
    int jdk = jdkMalformedStart(a);
    String shown = HEX.formatHex(a);

    assertThat(valid).as("valid per validator vs JDK for %s", shown).isEqualTo(jdk < 0);
    assertThat(v.hasFailed()).isEqualTo(firstInvalid >= 0);
    if (firstInvalid >= 0) {
      // The JDK reports where the bad sequence starts; we report the byte that cannot follow.
      assertThat(firstInvalid).as("index for %s (JDK %d)", shown, jdk).isBetween(jdk, jdk + 3);
    } else if (!complete) {
      assertThat(jdk).as("truncated tail of %s", shown).isBetween(n - 3, n - 1);
    }
    assertThat(Utf8Validator.isValid(a, 0, n)).isEqualTo(valid);
    assertThat(Utf8Validator.isValid(ByteBuffer.wrap(a))).isEqualTo(valid);
    assertThat(Utf8Validator.isValid(ByteBuffer.allocateDirect(n).put(a).flip())).isEqualTo(valid);

    // Split at every point into two calls.
    for (int k = 0; k <= n; k++) {
      Utf8Validator s = new Utf8Validator();
      int first = s.validate(a, 0, k);
      int second = s.validate(a, k, n);
      int reported = first >= 0 ? first : second;
      assertThat(reported).as("split at %d of %s", k, shown).isEqualTo(firstInvalid);
      if (first >= 0) {
        assertThat(second).as("a failed validator answers the start").isEqualTo(k);
      }
      assertThat(s.isComplete()).isEqualTo(complete);
    }

    // Inside larger buffers, with bytes that would fail before the position and after the limit.
    int pad = 1 + (n % 5);
    for (ByteBuffer backing :
        new ByteBuffer[] {ByteBuffer.allocate(n + 2 * pad), ByteBuffer.allocateDirect(n + 2 * pad)}) {
      for (int i = 0; i < backing.capacity(); i++) {
        backing.put(i, (byte) 0xff);
      }
      backing.put(pad, a).position(pad).limit(pad + n);
      Utf8Validator b = new Utf8Validator();
      assertThat(b.validate(backing)).isEqualTo(firstInvalid < 0 ? -1 : pad + firstInvalid);
      assertThat(backing.position()).isEqualTo(pad);
      ByteBuffer slice = backing.slice(); // index 0 is backing's pad (arrayOffset pad on heap)
      assertThat(new Utf8Validator().validate(slice)).isEqualTo(firstInvalid);
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void agreesWithTheJdkOnRandomBytes(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[] a = new byte[r.nextInt(81)];
    r.nextBytes(a);
    checkAgainstJdk(a);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void agreesWithTheJdkOnAdversarialBytes(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < 10; i++) {
      checkAgainstJdk(adversarial(r));
    }
  }

  @Test
  void theAdversarialGeneratorProducesEveryKindOfInput() {
    int valid = 0;
    int invalid = 0;
    int truncated = 0;
    int longOnes = 0;
    int n = 3000;
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < n; i++) {
      byte[] a = adversarial(r);
      Utf8Validator v = new Utf8Validator();
      if (v.validate(a, 0, a.length) >= 0) {
        invalid++;
      } else if (v.isComplete()) {
        valid++;
      } else {
        truncated++;
      }
      longOnes += a.length >= 32 ? 1 : 0;
    }
    assertThat(valid).isGreaterThanOrEqualTo(n * 15 / 100);
    assertThat(invalid).isGreaterThanOrEqualTo(n * 30 / 100);
    assertThat(truncated).isGreaterThanOrEqualTo(n * 3 / 100);
    assertThat(longOnes).isGreaterThanOrEqualTo(n * 20 / 100);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void agreesWithTheJdkOnValidText(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < 5; i++) {
      byte[] a = text(r, true);
      assertThat(jdkMalformedStart(a)).isEqualTo(-1);
      checkAgainstJdk(a);
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void givesTheSameAnswerWhenFedInRandomPieces(long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int round = 0; round < 5; round++) {
      byte[] a = adversarial(rnd);
      boolean direct = rnd.nextBoolean();
      Utf8Validator whole = new Utf8Validator();
      int expected = whole.validate(a, 0, a.length);

      int[] points =
          rnd.ints(rnd.nextInt(9), 0, a.length + 1).sorted().distinct().toArray();
      ByteBuffer buf = direct ? ByteBuffer.allocateDirect(a.length) : ByteBuffer.allocate(a.length);
      buf.put(0, a);
      Utf8Validator pieces = new Utf8Validator();
      int reported = -1;
      int from = 0;
      for (int k = 0; k <= points.length; k++) {
        int to = k < points.length ? points[k] : a.length;
        int r = pieces.validate(buf.limit(to).position(from));
        if (reported < 0 && r >= 0) {
          reported = r;
        }
        from = to;
      }

      assertThat(reported).isEqualTo(expected);
      assertThat(pieces.isComplete()).isEqualTo(whole.isComplete());
      assertThat(pieces.hasFailed()).isEqualTo(whole.hasFailed());
    }
  }

  // ---------------------------------------------------------------- generators

  /** Encodes any value up to 0x1FFFFF in the UTF-8 bit pattern of the given length (1-4). */
  private static byte[] encode(int cp, int length) {
    return switch (length) {
      case 1 -> new byte[] {(byte) cp};
      case 2 -> new byte[] {(byte) (0xC0 | cp >>> 6), (byte) (0x80 | cp & 0x3F)};
      case 3 ->
          new byte[] {
            (byte) (0xE0 | cp >>> 12), (byte) (0x80 | cp >>> 6 & 0x3F), (byte) (0x80 | cp & 0x3F)
          };
      default ->
          new byte[] {
            (byte) (0xF0 | cp >>> 18),
            (byte) (0x80 | cp >>> 12 & 0x3F),
            (byte) (0x80 | cp >>> 6 & 0x3F),
            (byte) (0x80 | cp & 0x3F)
          };
    };
  }

  private static int shortestLength(int cp) {
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }

  private static byte[] encode(int cp) {
    return encode(cp, shortestLength(cp));
  }

  private static final int[] BOUNDARY_CODE_POINTS = {
    0x00, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF
  };

  private static byte[] asciiRun(SplittableRandom r) {
    byte[] a = new byte[r.nextInt(81)];
    for (int i = 0; i < a.length; i++) {
      a[i] = (byte) r.nextInt(0x80);
    }
    return a;
  }

  private static int validCodePoint(SplittableRandom r) {
    return switch (r.nextInt(4)) {
      case 0 -> r.nextInt(0x80, 0x800);
      case 1 -> r.nextInt(0x800, 0xD800);
      case 2 -> r.nextInt(0xE000, 0x10000);
      default -> r.nextInt(0x10000, 0x110000);
    };
  }

  private static int boundaryCodePoint(SplittableRandom r) {
    return BOUNDARY_CODE_POINTS[r.nextInt(BOUNDARY_CODE_POINTS.length)];
  }

  /** One piece: weights as ascii 3, valid 4, boundary 3, and (unless validOnly) 1 each of bad. */
  private static byte[] piece(SplittableRandom r, boolean validOnly) {
    int pick = r.nextInt(validOnly ? 8 : 14);
    if (validOnly) {
      return pick < 2 ? asciiRun(r) : pick < 6 ? encode(validCodePoint(r)) : encode(boundaryCodePoint(r));
    }
    if (pick < 3) {
      return asciiRun(r);
    } else if (pick < 7) {
      return encode(validCodePoint(r));
    } else if (pick < 10) {
      return encode(boundaryCodePoint(r));
    } else if (pick == 10) { // a surrogate, often at its edges
      int[] edges = {0xD800, 0xDBFF, 0xDC00, 0xDFFF};
      return encode(r.nextBoolean() ? edges[r.nextInt(4)] : r.nextInt(0xD800, 0xE000));
    } else if (pick == 11) { // beyond U+10FFFF
      return encode(r.nextInt(0x110000, 0x200000), 4);
    } else if (pick == 12) { // overlong
      int cp = r.nextBoolean() ? boundaryCodePoint(r) : r.nextInt(0x10000);
      return encode(cp, Math.min(4, shortestLength(cp) + 1 + r.nextInt(3)));
    }
    return new byte[] {(byte) r.nextInt(256)};
  }

  private static byte[] text(SplittableRandom r, boolean validOnly) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int n = r.nextInt(validOnly ? 11 : 9); n > 0; n--) {
      out.writeBytes(piece(r, validOnly));
    }
    return out.toByteArray();
  }

  /** Encoded code points, good and bad, then maybe one byte replaced, dropped, inserted or cut. */
  private static byte[] adversarial(SplittableRandom r) {
    return mutate(text(r, false), r.nextInt(6), r.nextInt(10_001), (byte) r.nextInt(256));
  }

  private static byte[] mutate(byte[] a, int how, int where, byte value) {
    if (a.length == 0) {
      return a;
    }
    int at = where % a.length;
    return switch (how) {
      case 0 -> { // replace one byte
        byte[] b = a.clone();
        b[at] = value;
        yield b;
      }
      case 1 -> { // drop one byte
        byte[] b = new byte[a.length - 1];
        System.arraycopy(a, 0, b, 0, at);
        System.arraycopy(a, at + 1, b, at, a.length - at - 1);
        yield b;
      }
      case 2 -> { // insert one byte
        byte[] b = new byte[a.length + 1];
        System.arraycopy(a, 0, b, 0, at);
        b[at] = value;
        System.arraycopy(a, at, b, at + 1, a.length - at);
        yield b;
      }
      case 3 -> Arrays.copyOf(a, at); // cut the message short
      default -> a; // unchanged
    };
  }
}
