package dev.wsjava.conformance;

/**
 * RFC 3629 §4 (and Unicode's table of well-formed byte sequences): the suite's own UTF-8
 * checker, independent of the stack under test. It finds the first byte at which a byte string
 * stops being the start of well-formed UTF-8: that is where a strict peer fails a text message.
 */
final class Utf8Check {
  private Utf8Check() {}

  /**
   * Returns the index of the first byte that no well-formed UTF-8 string can have there.
   *
   * @param b the bytes
   * @return that index, or -1 when every byte fits (the string may still end inside a character)
   */
  static int firstInvalid(byte[] b) {
    int need = 0;
    int lo = 0x80;
    int hi = 0xBF;
    for (int i = 0; i < b.length; i++) {
      int c = b[i] & 0xFF;
      if (need > 0) {
        if (c < lo || c > hi) {
          return i;
        }
        need--;
        lo = 0x80;
        hi = 0xBF;
        continue;
      }
      if (c < 0x80) {
        continue;
      }
      if (c >= 0xC2 && c <= 0xDF) {
        need = 1;
      } else if (c >= 0xE0 && c <= 0xEF) {
        need = 2;
        lo = c == 0xE0 ? 0xA0 : 0x80; // no overlongs
        hi = c == 0xED ? 0x9F : 0xBF; // no surrogates
      } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3;
        lo = c == 0xF0 ? 0x90 : 0x80; // no overlongs
        hi = c == 0xF4 ? 0x8F : 0xBF; // nothing above U+10FFFF
      } else {
        return i; // 80-C1 (continuation or overlong lead) and F5-FF
      }
    }
    return -1;
  }

  /**
   * Returns whether the bytes are complete, well-formed UTF-8.
   *
   * @param b the bytes
   * @return true when valid
   */
  static boolean isValid(byte[] b) {
    return firstInvalid(b) < 0 && endsOnCharacter(b);
  }

  /** Whether the last character is complete, for a string without invalid bytes. */
  private static boolean endsOnCharacter(byte[] b) {
    for (int back = 1; back <= 4 && back <= b.length; back++) {
      int c = b[b.length - back] & 0xFF;
      if ((c & 0xC0) != 0x80) {
        int length = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        return length == back;
      }
    }
    return b.length == 0;
  }
}
