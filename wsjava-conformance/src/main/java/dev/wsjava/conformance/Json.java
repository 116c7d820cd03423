package dev.wsjava.conformance;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A small streaming JSON writer (RFC 8259), so the module needs no library. Escapes quotes,
 * backslashes and control characters, and also {@code <}, {@code >}, {@code &}, U+2028 and U+2029
 * and lone surrogates, so that the output can sit inside an HTML {@code <script>} element.
 * Not thread-safe.
 */
final class Json {
  private final StringBuilder out = new StringBuilder();
  private final Deque<Boolean> first = new ArrayDeque<>();
  private boolean afterName;

  Json beginObject() {
    comma();
    out.append('{');
    first.push(true);
    return this;
  }

  Json endObject() {
    first.pop();
    out.append('}');
    return this;
  }

  Json beginArray() {
    comma();
    out.append('[');
    first.push(true);
    return this;
  }

  Json endArray() {
    first.pop();
    out.append(']');
    return this;
  }

  Json name(String name) {
    comma();
    quote(name);
    out.append(':');
    afterName = true;
    return this;
  }

  Json value(String v) {
    comma();
    if (v == null) {
      out.append("null");
    } else {
      quote(v);
    }
    return this;
  }

  Json value(Number v) {
    comma();
    out.append(v == null ? "null" : v.toString());
    return this;
  }

  Json value(boolean v) {
    comma();
    out.append(v);
    return this;
  }

  Json field(String name, String v) {
    return name(name).value(v);
  }

  Json field(String name, Number v) {
    return name(name).value(v);
  }

  Json field(String name, boolean v) {
    return name(name).value(v);
  }

  private void comma() {
    if (afterName) {
      afterName = false;
      return;
    }
    if (!first.isEmpty()) {
      if (!first.peek()) {
        out.append(',');
      }
      first.pop();
      first.push(false);
    }
  }

  private void quote(String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          boolean lone = Character.isSurrogate(c) && !(Character.isHighSurrogate(c)
              && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1)))
              && !(Character.isLowSurrogate(c) && i > 0
                  && Character.isHighSurrogate(s.charAt(i - 1)));
          if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029'
              || lone) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
