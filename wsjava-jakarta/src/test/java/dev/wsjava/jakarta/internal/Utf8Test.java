package dev.wsjava.jakarta.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Where a partial text handler's piece is cut: never inside a UTF-8 sequence. */
class Utf8Test {

  @Test
  void aCompleteSequenceIsKept() {
    byte[] b = "aé€😀".getBytes(StandardCharsets.UTF_8); // 1 + 2 + 3 + 4 bytes
    assertThat(Utf8.boundary(b, b.length)).isEqualTo(10);
  }

  @Test
  void anIncompleteSequenceAtTheEndIsLeftOut() {
    byte[] b = "a😀".getBytes(StandardCharsets.UTF_8); // 61 f0 9f 98 80
    assertThat(Utf8.boundary(b, 4)).isEqualTo(1); // f0 9f 98: three of four
    assertThat(Utf8.boundary(b, 3)).isEqualTo(1);
    assertThat(Utf8.boundary(b, 2)).isEqualTo(1);
    byte[] e = "é".getBytes(StandardCharsets.UTF_8); // c3 a9
    assertThat(Utf8.boundary(e, 1)).isZero();
  }

  @Test
  void asciiIsCutAnywhere() {
    byte[] b = "hello".getBytes(StandardCharsets.US_ASCII);
    for (int n = 0; n <= b.length; n++) {
      assertThat(Utf8.boundary(b, n)).isEqualTo(n);
    }
  }
}
