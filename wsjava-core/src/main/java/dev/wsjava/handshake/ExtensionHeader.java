package dev.wsjava.handshake;

import dev.wsjava.extension.ExtensionNegotiationException;
import dev.wsjava.extension.ExtensionOffer;
import java.util.ArrayList;
import java.util.List;

/**
 * RFC 6455 §9.1: the syntax of the {@code Sec-WebSocket-Extensions} header, parsed into {@link
 * ExtensionOffer}s and written back.
 *
 * <pre>
 * extension-list = 1#extension
 * extension      = extension-token *( ";" extension-param )
 * extension-param = token [ "=" (token | quoted-string) ]
 * </pre>
 *
 * <p>Optional whitespace is allowed around {@code ;}, {@code ,} and {@code =} (the "implied *LWS"
 * of RFC 2616 that §9.1 refers to). A field may come as several lines or as one comma-separated
 * line; both give the same list. Empty list elements ({@code a, , b}) are skipped as RFC 7230 §7
 * asks, but a field with no element at all is malformed. A quoted value is unescaped and must then
 * be a token, as §9.1 requires. Stateless and thread-safe.
 */
public final class ExtensionHeader {
  private static final int MAX_QUOTED_IN_MESSAGE = 80;
  private ExtensionHeader() {}

  /**
   * Parses the values of every {@code Sec-WebSocket-Extensions} line of a head, in order.
   *
   * @param headerValues the field values, one per header line (an absent field is an empty list)
   * @return the elements in order, with quoted values unquoted; unmodifiable
   * @throws ExtensionNegotiationException naming what is malformed and where: an empty name, a
   *     character that is not a token character, an unterminated quoted string, {@code =} without a
   *     value, a quoted value that is not a token, or a field with no element
   */
  public static List<ExtensionOffer> parse(List<String> headerValues)
      throws ExtensionNegotiationException {
    if (headerValues.isEmpty()) {
      return List.of();
    }
    List<ExtensionOffer> out = new ArrayList<>(2);
    for (String value : headerValues) {
      new Scanner(value).elements(out);
    }
    if (out.isEmpty()) {
      throw new ExtensionNegotiationException(
          "Sec-WebSocket-Extensions names no extension: the field must hold at least one"
              + " (RFC 6455 §9.1)");
    }
    return List.copyOf(out);
  }

  /**
   * Writes offers as one header value: {@code name; param; param=value, name2}. A value is bare
   * when it is a token and quoted otherwise (with {@code \} before {@code "} and {@code \}),
   * although §9.1 lets a peer refuse a quoted value that is not a token once unquoted.
   *
   * @param offers the elements in order
   * @return the header value, empty when there is no offer
   * @throws IllegalArgumentException when a name is not a token, or a value holds a character a
   *     quoted-string cannot carry (a control other than HTAB, or one above U+00FF)
   */
  public static String format(List<ExtensionOffer> offers) {
    StringBuilder sb = new StringBuilder(64);
    for (ExtensionOffer offer : offers) {
      if (!sb.isEmpty()) {
        sb.append(", ");
      }
      sb.append(requireToken(offer.name(), "extension name"));
      for (ExtensionOffer.Param p : offer.params()) {
        sb.append("; ").append(requireToken(p.name(), "parameter name"));
        if (p.value() != null) {
          sb.append('=');
          if (isToken(p.value())) {
            sb.append(p.value());
          } else {
            appendQuoted(sb, p.value());
          }
        }
      }
    }
    return sb.toString();
  }

  private static String requireToken(String s, String what) {
    if (!isToken(s)) {
      throw new IllegalArgumentException(what + " \"" + s + "\" is not a token (RFC 7230 §3.2.6)");
    }
    return s;
  }

  private static void appendQuoted(StringBuilder sb, String value) {
    sb.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c > 0xFF || (c < 0x20 && c != '\t') || c == 0x7F) {
        throw new IllegalArgumentException(
            String.format(
                "parameter value holds U+%04X, which a quoted-string cannot carry (RFC 7230"
                    + " §3.2.6)",
                (int) c));
      }
      if (c == '"' || c == '\\') {
        sb.append('\\');
      }
      sb.append(c);
    }
    sb.append('"');
  }

  private static boolean isTchar(char c) {
    return HttpSyntax.isTchar(c);
  }

  private static boolean isToken(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (!isTchar(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** Reads one header line. */
  private static final class Scanner {
    private final String s;
    private int i;

    Scanner(String s) {
      this.s = s;
    }

    void elements(List<ExtensionOffer> out) throws ExtensionNegotiationException {
      while (true) {
        skipOws();
        if (i == s.length()) {
          return;
        }
        if (s.charAt(i) == ',') {
          i++; // an empty list element
          continue;
        }
        out.add(element());
        skipOws();
        if (i == s.length()) {
          return;
        }
        if (s.charAt(i) != ',') {
          throw fail("expected ';' or ',' after an extension or parameter");
        }
        i++;
      }
    }

    private ExtensionOffer element() throws ExtensionNegotiationException {
      String name = token("expected an extension name");
      List<ExtensionOffer.Param> params = List.of();
      skipOws();
      while (i < s.length() && s.charAt(i) == ';') {
        i++;
        skipOws();
        String param = token("expected a parameter name after ';'");
        String value = null;
        skipOws();
        if (i < s.length() && s.charAt(i) == '=') {
          i++;
          skipOws();
          if (i < s.length() && s.charAt(i) == '"') {
            value = quoted(param);
          } else {
            value = token("parameter " + param + " has '=' but no token value");
          }
          skipOws();
        }
        if (params.isEmpty()) {
          params = new ArrayList<>(4);
        }
        params.add(new ExtensionOffer.Param(param, value));
      }
      return new ExtensionOffer(name, params);
    }

    private String token(String expected) throws ExtensionNegotiationException {
      int start = i;
      while (i < s.length() && isTchar(s.charAt(i))) {
        i++;
      }
      if (i == start) {
        throw fail(expected);
      }
      return s.substring(start, i);
    }

    /** Reads a quoted-string starting at the opening quote; returns it unescaped. */
    private String quoted(String param) throws ExtensionNegotiationException {
      int open = i++;
      StringBuilder sb = new StringBuilder();
      while (true) {
        if (i == s.length()) {
          i = open;
          throw fail("unterminated quoted string in parameter " + param);
        }
        char c = s.charAt(i++);
        if (c == '"') {
          break;
        }
        if (c == '\\') {
          if (i == s.length()) {
            i = open;
            throw fail("unterminated quoted string in parameter " + param);
          }
          c = s.charAt(i++);
        }
        if (c > 0xFF || (c < 0x20 && c != '\t') || c == 0x7F) {
          i--;
          throw fail("control character in quoted string");
        }
        sb.append(c);
      }
      String value = sb.toString();
      if (!isToken(value)) {
        i = open;
        throw fail(
            "quoted value of parameter "
                + param
                + " must be a token once unquoted"
                + " (RFC 6455 §9.1)");
      }
      return value;
    }

    private void skipOws() {
      while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
        i++;
      }
    }

    private ExtensionNegotiationException fail(String what) {
      String found =
          i < s.length()
              ? (s.charAt(i) > 0x20 && s.charAt(i) < 0x7F
                  ? "'" + s.charAt(i) + "'"
                  : String.format("U+%04X", (int) s.charAt(i)))
              : "end of value";
      String shown =
          s.length() <= MAX_QUOTED_IN_MESSAGE ? s : s.substring(0, MAX_QUOTED_IN_MESSAGE) + "...";
      return new ExtensionNegotiationException(
          "malformed Sec-WebSocket-Extensions: "
              + what
              + ", found "
              + found
              + " at index "
              + i
              + " of \""
              + shown
              + "\" (RFC 6455 §9.1)");
    }
  }
}
