package dev.wsjava.handshake;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
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

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void theAcceptValueIsTheBase64OfTheJdkSha1OfKeyAndGuid(long seed) throws Exception {
    Random random = new Random(seed);
    // Lengths around the SHA-1 block boundaries: the key plus the 36-character GUID pads to one,
    // two or three 64-byte blocks; characters past Latin-1 become '?' as ISO-8859-1 encodes them.
    int length = random.nextInt(140);
    StringBuilder key = new StringBuilder();
    for (int i = 0; i < length; i++) {
      key.append(random.nextInt(10) == 0 ? (char) random.nextInt(0x3000) : (char) (32 + random.nextInt(95)));
    }
    MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
    sha1.update(key.toString().getBytes(StandardCharsets.ISO_8859_1));
    String expected =
        Base64.getEncoder().encodeToString(sha1.digest(AcceptKey.GUID.getBytes(StandardCharsets.US_ASCII)));
    assertThat(AcceptKey.accept(key.toString())).isEqualTo(expected);
  }

  /**
   * Handshakes share one kept digest and make their own when it is taken: many threads of both
   * kinds hashing different keys at once must each get their own key's value.
   */
  @Test
  void threadsOfBothKindsHashingAtOnceEachGetTheirOwnKeysValue() throws Exception {
    java.util.List<Thread> threads = new java.util.ArrayList<>();
    java.util.Queue<String> wrong = new java.util.concurrent.ConcurrentLinkedQueue<>();
    for (int t = 0; t < 8; t++) {
      int id = t;
      Runnable work = () -> {
        try {
          MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
          Random random = new Random(id);
          byte[] nonce = new byte[16];
          for (int i = 0; i < 2_000; i++) {
            random.nextBytes(nonce);
            String key = Base64.getEncoder().encodeToString(nonce);
            String expected = Base64.getEncoder().encodeToString(
                sha1.digest((key + AcceptKey.GUID).getBytes(StandardCharsets.US_ASCII)));
            if (!AcceptKey.accept(key).equals(expected)) {
              wrong.add(key);
            }
          }
        } catch (Exception e) {
          wrong.add(e.toString());
        }
      };
      threads.add(id % 2 == 0 ? Thread.ofPlatform().start(work) : Thread.ofVirtual().start(work));
    }
    for (Thread t : threads) {
      t.join(30_000);
    }
    assertThat(wrong).isEmpty();
  }

  @Test
  void everyKeyLengthAcrossTwoBlocksHashesLikeTheJdk() throws Exception {
    for (int length = 0; length <= 100; length++) {
      String key = "k".repeat(length);
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      byte[] digest = sha1.digest((key + AcceptKey.GUID).getBytes(StandardCharsets.US_ASCII));
      assertThat(AcceptKey.accept(key)).isEqualTo(Base64.getEncoder().encodeToString(digest));
    }
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
