package dev.wsjava.conformance;

import static dev.wsjava.conformance.Cases.concat;
import static dev.wsjava.conformance.Cases.hex;
import static dev.wsjava.conformance.Cases.utf8;

import java.util.List;

/**
 * RFC 3629 and Unicode's table of well-formed UTF-8: byte strings by class, valid and invalid,
 * for group 6. Each class becomes one subgroup of cases.
 */
final class Utf8Vectors {
  private Utf8Vectors() {}

  /**
   * One byte string.
   *
   * @param name what it is
   * @param bytes the bytes
   */
  record Vector(String name, byte[] bytes) {
    boolean valid() {
      return Utf8Check.isValid(bytes);
    }
  }

  /**
   * A class of vectors.
   *
   * @param title the subgroup's title
   * @param vectors its vectors
   */
  record Family(String title, List<Vector> vectors) {}

  private static Vector v(String name, String hex) {
    return new Vector(name, hex(hex));
  }

  private static Vector s(String name, String text) {
    return new Vector(name, utf8(text));
  }

  private static Vector around(String name, String hex) {
    return new Vector(name + " between ASCII letters", concat(utf8("ab"), hex(hex), utf8("cd")));
  }

  static final List<Family> FAMILIES = List.of(
      new Family("valid code points at the edges of each length and class", List.of(
          v("U+0000, the smallest", "00"),
          v("U+007F, the last one-byte code point", "7f"),
          v("U+0080, the first two-byte code point", "c2 80"),
          v("U+07FF, the last two-byte code point", "df bf"),
          v("U+0800, the first three-byte code point", "e0 a0 80"),
          v("U+D7FF, just below the surrogates", "ed 9f bf"),
          v("U+E000, just above the surrogates", "ee 80 80"),
          v("U+FEFF, the byte order mark", "ef bb bf"),
          v("U+FFFD, the replacement character", "ef bf bd"),
          v("U+FDD0, a noncharacter (valid UTF-8)", "ef b7 90"),
          v("U+FFFE, a noncharacter (valid UTF-8)", "ef bf be"),
          v("U+FFFF, a noncharacter (valid UTF-8)", "ef bf bf"),
          v("U+10000, the first four-byte code point", "f0 90 80 80"),
          v("U+1F600, an emoji", "f0 9f 98 80"),
          v("U+1FFFF, a noncharacter (valid UTF-8)", "f0 9f bf bf"),
          v("U+10FFFF, the last code point", "f4 8f bf bf"),
          s("one character of each length", "a\u00a2\u20ac\ud800\udf48"),
          s("Greek text", "\u039a\u03b1\u03bb\u03b7\u03bc\u03ad\u03c1\u03b1 \u03ba\u03cc\u03c3\u03bc\u03b5"),
          s("Japanese text", "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8"))),
      new Family("overlong encodings", List.of(
          v("U+0000 as two bytes", "c0 80"),
          v("'/' as two bytes", "c0 af"),
          v("U+007F as two bytes, the largest two-byte overlong", "c1 bf"),
          v("U+0000 as three bytes", "e0 80 80"),
          v("'/' as three bytes", "e0 80 af"),
          v("U+07FF as three bytes, the largest three-byte overlong", "e0 9f bf"),
          v("U+0000 as four bytes", "f0 80 80 80"),
          v("'/' as four bytes", "f0 80 80 af"),
          v("U+FFFF as four bytes, the largest four-byte overlong", "f0 8f bf bf"),
          v("'/' as five bytes", "f8 80 80 80 af"),
          v("'/' as six bytes", "fc 80 80 80 80 af"),
          around("'/' as two bytes", "c0 af"))),
      new Family("UTF-16 surrogates", List.of(
          v("U+D800, the first high surrogate", "ed a0 80"),
          v("U+DB7F", "ed ad bf"),
          v("U+DB80, a high private-use surrogate", "ed ae 80"),
          v("U+DBFF, the last high surrogate", "ed af bf"),
          v("U+DC00, the first low surrogate", "ed b0 80"),
          v("U+DF80", "ed be 80"),
          v("U+DFFF, the last low surrogate", "ed bf bf"),
          v("a surrogate pair U+D800 U+DC00 encoded separately (CESU-8)", "ed a0 80 ed b0 80"),
          v("a surrogate pair U+DBFF U+DFFF encoded separately", "ed af bf ed bf bf"),
          around("U+D800", "ed a0 80"))),
      new Family("code points beyond U+10FFFF and impossible lead bytes", List.of(
          v("U+110000, the first beyond the range", "f4 90 80 80"),
          v("U+13FFFF", "f4 bf bf bf"),
          v("lead byte F5", "f5 80 80 80"),
          v("U+1FFFFF, the largest four-byte form", "f7 bf bf bf"),
          v("a five-byte sequence", "f8 88 80 80 80"),
          v("the largest five-byte sequence", "fb bf bf bf bf"),
          v("a six-byte sequence", "fc 84 80 80 80 80"),
          v("the largest six-byte sequence", "fd bf bf bf bf bf"),
          v("byte FE", "fe"),
          v("byte FF", "ff"),
          v("bytes FE FE FF FF", "fe fe ff ff"),
          around("byte FF", "ff"))),
      new Family("sequences cut short", List.of(
          v("a two-byte lead alone", "c2"),
          v("the last two-byte lead alone", "df"),
          v("a three-byte sequence missing its last byte", "e0 a0"),
          v("U+20AC missing its last byte", "e2 82"),
          v("U+FFFF missing its last byte", "ef bf"),
          v("a four-byte sequence missing its last byte", "f0 90 80"),
          v("U+10FFFF missing its last byte", "f4 8f bf"),
          v("a four-byte sequence missing two bytes", "f1 80"),
          v("text ending in half a character", "61 62 63 e2 82"),
          around("a two-byte lead", "c2"),
          around("a three-byte sequence missing its last byte", "e2 82"),
          around("a four-byte sequence missing its last byte", "f0 9f 98"),
          v("every length cut short, one after the other", "c2 e2 82 f0 9f 98"))),
      new Family("unexpected continuation bytes", List.of(
          v("the first continuation byte alone", "80"),
          v("the last continuation byte alone", "bf"),
          v("two continuation bytes", "80 bf"),
          v("three continuation bytes", "80 bf 80"),
          v("a continuation byte after a complete character", "c2 a2 a2"),
          v("a continuation byte after a complete four-byte character", "f0 9f 98 80 80"),
          around("a continuation byte", "80"),
          new Vector("all 64 continuation bytes", allContinuations()))),
      new Family("lead bytes followed by something else", List.of(
          v("C0 (never valid) followed by a space", "c0 20"),
          v("C2 followed by a space", "c2 20"),
          v("DF followed by a space", "df 20"),
          v("E0 followed by a space", "e0 20"),
          v("E0 A0 followed by a space", "e0 a0 20"),
          v("EF followed by a space", "ef 20"),
          v("F0 followed by a space", "f0 20"),
          v("F0 90 80 followed by a space", "f0 90 80 20"),
          v("F4 followed by a space", "f4 20"),
          v("a two-byte lead followed by a lead", "c2 c2 a2"),
          v("a three-byte lead followed by a two-byte character", "e2 c2 a2"))));

  private static byte[] allContinuations() {
    byte[] b = new byte[64];
    for (int i = 0; i < 64; i++) {
      b[i] = (byte) (0x80 + i);
    }
    return b;
  }
}
