package dev.wsjava.handshake;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AcceptKeyTest {

  /** A SecureRandom that hands out fixed bytes, to reproduce the RFC's nonce. */
  static final class FixedRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;
    private final byte[] bytes;

    FixedRandom(byte[] bytes) {
      this.bytes = bytes.clone();
    }

    @Override
    public void nextBytes(byte[] out) {
      System.arraycopy(bytes, 0, out, 0, out.length);
    }
  }

  /** The 16-byte nonce of RFC 6455 §1.3: ASCII "the sample nonce". */
  static final byte[] SAMPLE_NONCE = "the sample nonce".getBytes(StandardCharsets.US_ASCII);

  @Test
  void computesTheRfc6455Section13Vector() {
    assertThat(AcceptKey.accept("dGhlIHNhbXBsZSBub25jZQ=="))
        .isEqualTo("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
  }

  @Test
  void aNewKeyIsTheBase64OfSixteenRandomBytes() {
    assertThat(AcceptKey.newKey(new FixedRandom(SAMPLE_NONCE)))
        .isEqualTo("dGhlIHNhbXBsZSBub25jZQ==");
    String key = AcceptKey.newKey(new SecureRandom());
    assertThat(AcceptKey.isValidKey(key)).isTrue();
    assertThat(key).isNotEqualTo(AcceptKey.newKey(new SecureRandom()));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "dGhlIHNhbXBsZSBub25jZQ==",
        "AAAAAAAAAAAAAAAAAAAAAA==",
        "+/+/+/+/+/+/+/+/+/+/+/==",
      })
  void keysOfSixteenBytesAreValid(String key) {
    assertThat(AcceptKey.isValidKey(key)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "dGhlIHNhbXBsZSBub25jZQ", // unpadded
        "dGhlIHNhbXBsZSBub25jZQ=", // one pad short
        "dGhlIHNhbXBsZSBub25jZS5h", // 18 bytes
        "dGhlIHNhbXBsZSBub25j", // 15 bytes
        "dGhlIHNhbXBsZSBub25jZ===",
        "dGhlIHNhbXBsZSBub25jZQ-_", // base64url alphabet
        "dGhlIHNhbXBsZSBub25jZ-==",
        "dGhlIHNhbXBsZSBub25jZ\u00e9==",
      })
  void otherKeysAreInvalid(String key) {
    assertThat(AcceptKey.isValidKey(key)).isFalse();
  }
}
