package dev.wsjava.jakarta.internal;

/** Where UTF-8 text may be cut without splitting a character. */
final class Utf8 {
  private Utf8() {}

  /**
   * Returns the length of the longest prefix of {@code bytes[0, length)} that ends on a character
   * boundary: an incomplete sequence at the end (at most 3 bytes) is left out.
   */
  static int boundary(byte[] bytes, int length) {
    int i = length - 1;
    int back = 0;
    while (i >= 0 && back < 3 && (bytes[i] & 0xC0) == 0x80) {
      i--;
      back++;
    }
    if (i < 0) {
      return length;
    }
    int lead = bytes[i] & 0xFF;
    int need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    return length - i >= need ? length : i;
  }
}
