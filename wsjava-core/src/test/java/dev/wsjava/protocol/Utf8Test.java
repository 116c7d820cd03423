package dev.wsjava.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class Utf8Test {
  @Test
  void aSurrogatePairEncodesAsOneFourByteSequence() {
    assertThat(Hex.of(Utf8.encode("\uD83D\uDE00"))).isEqualTo("f0 9f 98 80"); // U+1F600
  }

  @Test
  void aLoneSurrogateIsRefusedInsteadOfReplaced() {
    assertThatThrownBy(() -> Utf8.encode("ok \uD83D"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unpaired UTF-16 surrogate");
    assertThatThrownBy(() -> Utf8.encode("\uDE00 ok")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void textWithoutSurrogatesEncodesLikeTheJdk() {
    String text = "plain ascii, é, €, 世界";
    assertThat(Utf8.encode(text)).isEqualTo(java.nio.ByteBuffer.wrap(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    assertThat(Utf8.encode(new StringBuilder(text))).isEqualTo(Utf8.encode(text));
  }
}
