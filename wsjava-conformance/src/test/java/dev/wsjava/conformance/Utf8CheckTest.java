package dev.wsjava.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class Utf8CheckTest {

  @ParameterizedTest(name = "{0} -> first invalid byte at {1}")
  @CsvSource({
      "'', -1",
      "48656c6c6f, -1",
      "c2a9, -1",
      "e282ac, -1",
      "f09f9880, -1",
      "f48fbfbf, -1",
      "efbfbf, -1",
      "c0af, 0",
      "c1bf, 0",
      "e080af, 1",
      "f08fbfbf, 1",
      "eda080, 1",
      "edbfbf, 1",
      "f4908080, 1",
      "f5808080, 0",
      "80, 0",
      "61bf62, 1",
      "c220, 1",
      "e2822e, 2",
      "fe, 0",
      "ff, 0",
      "e282, -1",
      "61f09f98, -1"})
  void findsTheFirstByteNoValidStringCanHave(String hex, int index) {
    assertThat(Utf8Check.firstInvalid(Cases.hex(hex))).isEqualTo(index);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"e282", "c2", "61f09f98", "f48fbf"})
  void aStringEndingInsideACharacterIsNotValid(String hex) {
    assertThat(Utf8Check.isValid(Cases.hex(hex))).isFalse();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.conformance.Seeds#seeds")
  void agreesWithTheJdksStrictDecoderOnRandomBytes(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[] b = new byte[r.nextInt(1, 12)];
    for (int i = 0; i < b.length; i++) {
      // Mostly bytes near the interesting boundaries.
      int[] pool = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
          0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF};
      b[i] = (byte) (r.nextInt(4) == 0 ? r.nextInt(256) : pool[r.nextInt(pool.length)]);
    }
    assertThat(Utf8Check.isValid(b)).as(java.util.HexFormat.of().formatHex(b))
        .isEqualTo(jdkAccepts(b));
  }

  private static boolean jdkAccepts(byte[] b) {
    try {
      StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }
}
