package dev.wsjava.handshake;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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
  private static final byte[] GUID_BYTES = GUID.getBytes(StandardCharsets.US_ASCII);
  private static final MessageDigest SHA1;

  /** The length of a {@code Sec-WebSocket-Accept} value: base64 of a 20-byte SHA-1 digest. */
  static final int ACCEPT_CHARS = 28;

  static {
    try {
      SHA1 = MessageDigest.getInstance("SHA-1"); // every JDK has it (java.security.MessageDigest)
    } catch (NoSuchAlgorithmException e) {
      throw new ExceptionInInitializerError(e);
    }
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
   * straight into a response being built. The input hashed is the key's ISO-8859-1 bytes followed
   * by {@link #GUID}, as {@link #accept} hashes.
   *
   * @param secWebSocketKey the key as sent
   * @param dst where to write
   * @param offset the first index written
   */
  static void acceptInto(String secWebSocketKey, byte[] dst, int offset) {
    Scratch s = SCRATCH.take();
    if (s == null) {
      s = new Scratch();
    }
    for (int i = 0; i < secWebSocketKey.length(); i++) {
      char c = secWebSocketKey.charAt(i);
      s.sha1.update(c <= 0xFF ? (byte) c : (byte) '?'); // as ISO-8859-1 encodes it
    }
    s.sha1.update(GUID_BYTES);
    try {
      s.sha1.digest(s.digest, 0, s.digest.length); // also resets the digest for the next key
    } catch (java.security.DigestException e) {
      throw new IllegalStateException("SHA-1 digest does not fit 20 bytes", e);
    }
    Base64.getEncoder().encode(s.digest, s.base64);
    System.arraycopy(s.base64, 0, dst, offset, ACCEPT_CHARS);
    SCRATCH.give(s);
  }

  /**
   * What computing one accept value needs, kept in a {@link Stash} between handshakes: a fresh
   * digest for each (the JDK's SHA-1 state, its 80-word schedule and block buffer, the output
   * arrays) was the largest garbage of an upgrade, about 700 bytes. A new one is a clone of one JDK
   * instance, which spares the provider lookup.
   */
  private static final class Scratch {
    final MessageDigest sha1;
    final byte[] digest = new byte[20];
    final byte[] base64 = new byte[ACCEPT_CHARS];

    Scratch() {
      try {
        sha1 = (MessageDigest) SHA1.clone();
      } catch (CloneNotSupportedException e) {
        throw new IllegalStateException("the JDK's SHA-1 cannot be cloned", e);
      }
    }
  }

  private static final Stash<Scratch> SCRATCH = new Stash<>();

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
