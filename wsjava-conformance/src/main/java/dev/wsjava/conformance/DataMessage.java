package dev.wsjava.conformance;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * RFC 6455 §5.6: a whole data message, sent or expected back, compared by content.
 *
 * @param text true for text, false for binary
 * @param payload the payload (after any decompression)
 */
public record DataMessage(boolean text, byte[] payload) {

  /**
   * A text message.
   *
   * @param s the text
   * @return the message
   */
  public static DataMessage text(String s) {
    return new DataMessage(true, Frame.utf8(s));
  }

  /**
   * A text message of raw bytes.
   *
   * @param payload the UTF-8 bytes
   * @return the message
   */
  public static DataMessage text(byte[] payload) {
    return new DataMessage(true, payload);
  }

  /**
   * A binary message.
   *
   * @param payload the bytes
   * @return the message
   */
  public static DataMessage binary(byte[] payload) {
    return new DataMessage(false, payload);
  }

  /**
   * Returns whether another message has the same type and bytes.
   *
   * @param o the other object
   * @return true when equal by content
   */
  @Override
  public boolean equals(Object o) {
    return o instanceof DataMessage m && m.text == text && Arrays.equals(m.payload, payload);
  }

  /**
   * Returns a hash of the type and bytes.
   *
   * @return the hash
   */
  @Override
  public int hashCode() {
    return Boolean.hashCode(text) * 31 + Arrays.hashCode(payload);
  }

  /**
   * Describes the message briefly: type, length and the first bytes.
   *
   * @return for example {@code text(5: 48656c6c6f)}
   */
  @Override
  public String toString() {
    return (text ? "text" : "binary") + "(" + payload.length + (payload.length == 0 ? "" : ": "
        + hexHead(payload, 16)) + ")";
  }

  static String hexHead(byte[] b, int max) {
    String hex = HexFormat.of().formatHex(b, 0, Math.min(b.length, max));
    return b.length > max ? hex + "..." : hex;
  }
}
