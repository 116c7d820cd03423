package dev.wsjava.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wsjava.protocol.Utf8Validator;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The UTF-8 validator agrees with a strict JDK decoder, whole or fed in chunks, from arrays, heap
 * and direct buffers, at any alignment. Input: byte 0 picks the chunking, the rest is the text.
 */
class Utf8ValidatorFuzzTest {

  static boolean jdkValid(byte[] a, int from, int to) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    try {
      decoder.decode(ByteBuffer.wrap(a, from, to - from));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  @FuzzTest(maxDuration = "30s")
  void validate(byte[] data) {
    int from = Math.min(1, data.length);
    boolean expected = jdkValid(data, from, data.length);

    assertThat(Utf8Validator.isValid(data, from, data.length)).isEqualTo(expected);
    assertThat(Utf8Validator.isValid(ByteBuffer.wrap(data, from, data.length - from)))
        .isEqualTo(expected);
    ByteBuffer direct = ByteBuffer.allocateDirect(data.length + 8);
    direct.position(from + 3).put(data, from, data.length - from).flip().position(from + 3);
    assertThat(Utf8Validator.isValid(direct)).isEqualTo(expected);

    // Incremental, in chunks of the chosen sizes, alternating heap and direct buffers.
    Utf8Validator v = new Utf8Validator();
    List<ByteBuffer> chunks = Chunks.split(data, from, Chunks.at(data, 0));
    int offset = 0; // bytes before the current chunk
    int failedAt = -1;
    for (int i = 0; i < chunks.size(); i++) {
      ByteBuffer c = chunks.get(i);
      int n = c.remaining();
      ByteBuffer fed = c;
      if ((i & 1) == 1) {
        fed = ByteBuffer.allocateDirect(n + 5).position(5);
        fed.put(c.duplicate()).flip().position(5);
      }
      int r = v.validate(fed);
      if (failedAt < 0 && r >= 0) {
        assertThat(r).isBetween(fed.position(), fed.limit() - 1);
        failedAt = offset + r - fed.position();
      }
      offset += n;
    }
    assertThat(v.hasFailed()).isEqualTo(failedAt >= 0);
    assertThat(v.isComplete()).isEqualTo(expected);
    if (failedAt >= 0) {
      // The first bad byte: everything before it is a valid prefix.
      assertThat(expected).isFalse();
      assertThat(prefixValid(data, from, from + failedAt)).isTrue();
      assertThat(prefixValid(data, from, from + failedAt + 1)).isFalse();
    }
  }

  /** Whether {@code a[from, to)} is valid UTF-8 or a valid UTF-8 text cut inside a code point. */
  static boolean prefixValid(byte[] a, int from, int to) {
    for (int cut = 0; cut <= 3 && to - cut >= from; cut++) {
      if (jdkValid(a, from, to - cut)) {
        // the cut bytes must start a code point that can still be completed
        Utf8Validator v = new Utf8Validator();
        return v.validate(a, to - cut, to) == -1;
      }
    }
    return false;
  }
}
