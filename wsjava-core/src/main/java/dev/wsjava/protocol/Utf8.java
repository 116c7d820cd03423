package dev.wsjava.protocol;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * RFC 6455 §5.6: text sent on the wire is UTF-8. Encodes strictly: a lone surrogate is refused
 * rather than silently replaced with {@code ?}, so a message is never corrupted on its way out.
 */
public final class Utf8 {
  private Utf8() {}

  /**
   * Encodes text as UTF-8.
   *
   * @param text the text
   * @return a buffer ready to read
   * @throws IllegalArgumentException when the text holds an unpaired surrogate, naming its index
   */
  public static ByteBuffer encode(CharSequence text) {
    if (text instanceof String s && !hasSurrogate(s)) {
      // The common case: no surrogate, so nothing can be malformed; String.getBytes is intrinsic.
      return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
    CharsetEncoder encoder =
        StandardCharsets.UTF_8
            .newEncoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    CharBuffer chars = CharBuffer.wrap(text);
    try {
      return encoder.encode(chars);
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(
          "text holds an unpaired UTF-16 surrogate near index " + chars.position()
              + "; it cannot be sent as UTF-8 (RFC 6455 §5.6)",
          e);
    }
  }

  private static boolean hasSurrogate(String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      if (Character.isSurrogate(s.charAt(i))) {
        return true;
      }
    }
    return false;
  }
}
