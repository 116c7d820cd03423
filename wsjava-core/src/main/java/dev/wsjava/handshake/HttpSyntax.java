package dev.wsjava.handshake;

/**
 * RFC 7230 §3.2.6 character classes as byte lookups: {@code tchar}, field-value octets and OWS.
 * ASCII only; bytes above 0x7F are never token characters.
 */
public final class HttpSyntax {
  private static final boolean[] TCHAR = new boolean[256];

  static {
    for (int c = '0'; c <= '9'; c++) {
      TCHAR[c] = true;
    }
    for (int c = 'A'; c <= 'Z'; c++) {
      TCHAR[c] = true;
      TCHAR[c + ('a' - 'A')] = true;
    }
    for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
      TCHAR[c] = true;
    }
  }

  private HttpSyntax() {}

  /** Returns whether the byte (any sign) is a {@code tchar}. */
  static boolean isTchar(int b) {
    return TCHAR[b & 0xFF];
  }

  /** Returns whether the character is a {@code tchar}. */
  static boolean isTchar(char c) {
    return c < 256 && TCHAR[c];
  }

  /**
   * Returns whether the string is a non-empty {@code token} (RFC 9110 §5.6.2).
   *
   * @param s the string, or null
   * @return true for a token
   */
  public static boolean isToken(String s) {
    if (s == null || s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (!isTchar(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** Returns whether the byte may appear inside a field value: HTAB, SP, VCHAR or obs-text. */
  static boolean isFieldValueByte(int b) {
    int u = b & 0xFF;
    return u == '\t' || (u >= 0x20 && u != 0x7F);
  }

  /**
   * Returns whether the byte is optional whitespace (SP or HTAB).
   *
   * @param b the byte or character
   * @return true for SP and HTAB
   */
  public static boolean isOws(int b) {
    return b == ' ' || b == '\t';
  }

  /**
   * Returns the index of the first character of a field value that is not HTAB, SP, VCHAR or
   * obs-text (so a CR, LF, NUL or a character above U+00FF), or -1 when there is none.
   *
   * @param value the field value
   * @return the index, or -1
   */
  public static int firstInvalidValueChar(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c > 0xFF || !isFieldValueByte(c)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Removes leading and trailing SP and HTAB.
   *
   * @param s the string
   * @return it without them
   */
  public static String trimOws(String s) {
    int from = 0;
    int to = s.length();
    while (from < to && isOws(s.charAt(from))) {
      from++;
    }
    while (to > from && isOws(s.charAt(to - 1))) {
      to--;
    }
    return s.substring(from, to);
  }

  /** Describes a byte for an error message: the character when printable, else its hex. */
  static String describe(int b) {
    int u = b & 0xFF;
    return u > 0x20 && u < 0x7F ? "'" + (char) u + "'" : String.format("0x%02X", u);
  }
}
