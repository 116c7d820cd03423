package dev.wsjava.handshake;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * RFC 6455 §1.3 and §4.2.2: the {@code Sec-WebSocket-Key} nonce a client sends and the {@code
 * Sec-WebSocket-Accept} value that proves a server read it. Stateless and thread-safe.
 */
public final class AcceptKey {
  /** The GUID RFC 6455 §1.3 appends to the key before hashing. */
  public static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

  private static final int KEY_BYTES = 16;
  private static final int KEY_CHARS = 24; // base64 of 16 bytes: 22 characters and "=="
  private static final boolean[] BASE64 = new boolean[128];
  private static final byte[] ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
          .getBytes(StandardCharsets.US_ASCII);

  /** The length of a {@code Sec-WebSocket-Accept} value: base64 of a 20-byte SHA-1 digest. */
  static final int ACCEPT_CHARS = 28;

  static {
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (char c : alphabet.toCharArray()) {
      BASE64[c] = true;
    }
  }

  private AcceptKey() {}

  /**
   * Computes the {@code Sec-WebSocket-Accept} value for a key: base64 of the SHA-1 of the key
   * followed by {@link #GUID}.
   *
   * @param secWebSocketKey the key as sent, without surrounding whitespace
   * @return for example {@code s3pPLMBiTxaQ9kYGzzhZRbK+xOo=} for {@code dGhlIHNhbXBsZSBub25jZQ==}
   */
  public static String accept(String secWebSocketKey) {
    byte[] out = new byte[ACCEPT_CHARS];
    acceptInto(secWebSocketKey, out, 0);
    return new String(out, StandardCharsets.US_ASCII);
  }

  /**
   * Writes the {@code Sec-WebSocket-Accept} value for a key as {@link #ACCEPT_CHARS} ASCII bytes,
   * straight into a response being built. The SHA-1 (RFC 3174) is computed here rather than with a
   * {@code MessageDigest}, whose lookup and state cost each handshake about a kilobyte of garbage;
   * the input is the key's ISO-8859-1 bytes followed by {@link #GUID}, as {@link #accept} hashes.
   *
   * @param secWebSocketKey the key as sent
   * @param dst where to write
   * @param offset the first index written
   */
  static void acceptInto(String secWebSocketKey, byte[] dst, int offset) {
    int keyLength = secWebSocketKey.length();
    long length = (long) keyLength + GUID.length();
    long blocks = (length + 8) / 64 + 1; // the message, 0x80, zeros, and its 64-bit bit length
    int h0 = 0x67452301;
    int h1 = 0xEFCDAB89;
    int h2 = 0x98BADCFE;
    int h3 = 0x10325476;
    int h4 = 0xC3D2E1F0;
    int[] w = new int[16]; // the message schedule, as a ring of its last 16 words
    for (long block = 0; block < blocks; block++) {
      long base = block * 64;
      for (int i = 0; i < 16; i++) {
        int word = 0;
        for (int j = 0; j < 4; j++) {
          word = word << 8 | paddedByte(secWebSocketKey, base + i * 4 + j, length, blocks * 64);
        }
        w[i] = word;
      }
      int a = h0;
      int b = h1;
      int c = h2;
      int d = h3;
      int e = h4;
      for (int t = 0; t < 80; t++) {
        if (t >= 16) {
          w[t & 15] =
              Integer.rotateLeft(
                  w[(t - 3) & 15] ^ w[(t - 8) & 15] ^ w[(t - 14) & 15] ^ w[t & 15], 1);
        }
        int f;
        int k;
        if (t < 20) {
          f = (b & c) | (~b & d);
          k = 0x5A827999;
        } else if (t < 40) {
          f = b ^ c ^ d;
          k = 0x6ED9EBA1;
        } else if (t < 60) {
          f = (b & c) | (b & d) | (c & d);
          k = 0x8F1BBCDC;
        } else {
          f = b ^ c ^ d;
          k = 0xCA62C1D6;
        }
        int temp = Integer.rotateLeft(a, 5) + f + e + k + w[t & 15];
        e = d;
        d = c;
        c = Integer.rotateLeft(b, 30);
        b = a;
        a = temp;
      }
      h0 += a;
      h1 += b;
      h2 += c;
      h3 += d;
      h4 += e;
    }
    // Base64 of the 20 digest bytes: six groups of three, then two bytes and one '=' of padding.
    int[] h = {h0, h1, h2, h3, h4};
    int o = offset;
    for (int i = 0; i < 20; i += 3) {
      int b0 = digestByte(h, i);
      int b1 = digestByte(h, i + 1);
      int b2 = i + 2 < 20 ? digestByte(h, i + 2) : 0;
      dst[o++] = ALPHABET[b0 >>> 2];
      dst[o++] = ALPHABET[(b0 & 3) << 4 | b1 >>> 4];
      dst[o++] = ALPHABET[(b1 & 15) << 2 | b2 >>> 6];
      dst[o++] = i + 2 < 20 ? ALPHABET[b2 & 63] : (byte) '=';
    }
  }

  /** Byte {@code i} of the padded SHA-1 input: key, GUID, 0x80, zeros, bit length (big-endian). */
  private static int paddedByte(String key, long i, long length, long total) {
    if (i < key.length()) {
      char ch = key.charAt((int) i);
      return ch <= 0xFF ? ch : '?'; // as String.getBytes(ISO_8859_1) maps what it cannot encode
    }
    if (i < length) {
      return GUID.charAt((int) (i - key.length()));
    }
    if (i == length) {
      return 0x80;
    }
    if (i >= total - 8) {
      return (int) ((length * 8) >>> ((total - 1 - i) * 8)) & 0xFF;
    }
    return 0;
  }

  private static int digestByte(int[] h, int i) {
    return h[i >> 2] >>> (24 - (i & 3) * 8) & 0xFF;
  }

  /**
   * Makes a fresh key: 16 random bytes, base64 (RFC 6455 §4.1).
   *
   * @param random a cryptographically strong source, so that keys cannot be predicted
   * @return a 24-character key
   */
  public static String newKey(SecureRandom random) {
    byte[] nonce = new byte[KEY_BYTES];
    random.nextBytes(nonce);
    return Base64.getEncoder().encodeToString(nonce);
  }

  /**
   * Returns whether a key is the padded base64 of exactly 16 bytes (RFC 6455 §4.2.1, item 5).
   *
   * @param key the header value, already trimmed
   * @return true for 22 base64 characters followed by {@code ==}
   */
  public static boolean isValidKey(String key) {
    if (key == null || key.length() != KEY_CHARS) {
      return false;
    }
    for (int i = 0; i < KEY_CHARS - 2; i++) {
      char c = key.charAt(i);
      if (c >= 128 || !BASE64[c]) {
        return false;
      }
    }
    return key.charAt(KEY_CHARS - 2) == '=' && key.charAt(KEY_CHARS - 1) == '=';
  }
}
