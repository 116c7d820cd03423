package dev.wsjava;

import dev.wsjava.handshake.HeadersAccess;
import dev.wsjava.handshake.HttpSyntax;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The header fields of an HTTP/1.1 head (RFC 7230 §3.2): an immutable multimap in wire order whose
 * names compare case-insensitively. Values are kept as ISO-8859-1 strings with leading and trailing
 * whitespace removed, so obs-text octets survive unchanged.
 *
 * <p>Lookups scan the fields in order; a received head carries at most 100 of them (the server's
 * and the client's head limit), so no index is built. Immutable and thread-safe.
 */
public final class Headers {
  static {
    HeadersAccess.install(
        new HeadersAccess.Access() {
          @Override
          public Headers make(String[] names, String[] values, int size) {
            return new Headers(names, values, size);
          }

          @Override
          public void appendTo(Headers headers, StringBuilder out) {
            headers.appendTo(out);
          }

          @Override
          public boolean isOnlyToken(Headers headers, String name, String only) {
            return headers.isOnlyToken(name, only);
          }
        });
  }

  private static final String[] NONE = new String[0];
  private static final Headers EMPTY = new Headers(NONE, NONE, 0);

  // The visitors capture nothing (what they compare with comes as an argument), so they are made
  // once: a handshake asks these questions on every connection, and lists and lambdas cost garbage.
  private static final ElementVisitor ANY = (v, from, to, arg) -> true;
  private static final ElementVisitor SAME =
      (v, from, to, arg) -> to - from == arg.length() && v.startsWith(arg, from);
  private static final ElementVisitor SAME_IGNORING_CASE =
      (v, from, to, arg) ->
          to - from == arg.length() && v.regionMatches(true, from, arg, 0, to - from);

  private final String[] names;
  private final String[] values;
  private final int size;

  /** Wraps arrays the caller gives up; the first {@code size} entries are the fields. */
  Headers(String[] names, String[] values, int size) {
    this.names = names;
    this.values = values;
    this.size = size;
  }

  /**
   * Returns the empty header list.
   *
   * @return a shared instance with no fields
   */
  public static Headers empty() {
    return EMPTY;
  }

  /**
   * Starts an empty builder.
   *
   * @return a builder that validates each field it is given
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts a builder holding these fields, to add more.
   *
   * @return a builder with a copy of the fields
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    for (int i = 0; i < size; i++) {
      b.append(names[i], values[i]);
    }
    return b;
  }

  /**
   * Returns the number of field lines.
   *
   * @return zero or more
   */
  public int size() {
    return size;
  }

  /**
   * Returns whether there are no fields.
   *
   * @return true when {@link #size()} is 0
   */
  public boolean isEmpty() {
    return size == 0;
  }

  /**
   * Returns the name of a field as it was received or added.
   *
   * @param index from 0 to {@code size() - 1}
   * @return the field name
   */
  public String name(int index) {
    Objects.checkIndex(index, size);
    return names[index];
  }

  /**
   * Returns the value of a field.
   *
   * @param index from 0 to {@code size() - 1}
   * @return the field value, without leading or trailing whitespace
   */
  public String value(int index) {
    Objects.checkIndex(index, size);
    return values[index];
  }

  /**
   * Returns whether a field with this name is present.
   *
   * @param name the field name, any case
   * @return true when at least one line has it
   */
  public boolean contains(String name) {
    return indexOf(name, 0) >= 0;
  }

  /**
   * Counts the lines with this name.
   *
   * @param name the field name, any case
   * @return zero or more
   */
  public int count(String name) {
    int n = 0;
    for (int i = indexOf(name, 0); i >= 0; i = indexOf(name, i + 1)) {
      n++;
    }
    return n;
  }

  /**
   * Returns the value of the first line with this name.
   *
   * @param name the field name, any case
   * @return the value, or {@code null} when absent
   */
  public String first(String name) {
    int i = indexOf(name, 0);
    return i < 0 ? null : values[i];
  }

  /**
   * Returns the values of every line with this name, in order.
   *
   * @param name the field name, any case
   * @return an unmodifiable list, empty when absent
   */
  public List<String> all(String name) {
    int i = indexOf(name, 0);
    if (i < 0) {
      return List.of();
    }
    List<String> out = new ArrayList<>(2);
    for (; i >= 0; i = indexOf(name, i + 1)) {
      out.add(values[i]);
    }
    return List.copyOf(out);
  }

  /**
   * Splits a comma-separated list field (RFC 7230 §7) across all its lines: each element is trimmed
   * of whitespace and empty elements are dropped. Meant for token lists such as {@code Connection},
   * {@code Upgrade} or {@code Sec-WebSocket-Protocol}; it does not understand quoted strings.
   *
   * @param name the field name, any case
   * @return the elements in order, unmodifiable; empty when the field is absent
   */
  public List<String> tokens(String name) {
    if (!contains(name)) {
      return List.of();
    }
    List<String> out = new ArrayList<>(4);
    countElements(
        name,
        null,
        (v, from, to, unused) -> {
          out.add(v.substring(from, to));
          return false;
        });
    return List.copyOf(out);
  }

  /**
   * Returns whether a comma-separated list field holds a token, compared case-insensitively (for
   * example {@code Connection: keep-alive, Upgrade} holds {@code upgrade}).
   *
   * @param name the field name, any case
   * @param token the token to look for, any case
   * @return true when some element of some line matches
   */
  public boolean containsToken(String name, String token) {
    return countElements(name, token, SAME_IGNORING_CASE) > 0;
  }

  /**
   * Returns whether a comma-separated list field, across all its lines, is exactly one element
   * equal to {@code only} (case-sensitive): {@code tokens(name).equals(List.of(only))} without
   * making either list.
   *
   * @param name the field name, any case
   * @param only the element expected
   * @return true when the field is that one element
   */
  boolean isOnlyToken(String name, String only) {
    return countElements(name, null, ANY) == 1 && countElements(name, only, SAME) == 1;
  }

  /** Sees one list element: {@code value} from {@code from} to {@code to}; true counts it. */
  @FunctionalInterface
  private interface ElementVisitor {
    boolean visit(String value, int from, int to, String arg);
  }

  /**
   * Walks the elements of a list field across all its lines, trimmed of whitespace, skipping empty
   * ones, and counts those the visitor accepts; {@code arg} is handed to the visitor.
   *
   * @return how many elements the visitor accepted
   */
  private int countElements(String name, String arg, ElementVisitor visitor) {
    int n = 0;
    for (int i = indexOf(name, 0); i >= 0; i = indexOf(name, i + 1)) {
      String v = values[i];
      int start = 0;
      while (start <= v.length()) {
        int comma = v.indexOf(',', start);
        int end = comma < 0 ? v.length() : comma;
        int from = start;
        int to = end;
        while (from < to && HttpSyntax.isOws(v.charAt(from))) {
          from++;
        }
        while (to > from && HttpSyntax.isOws(v.charAt(to - 1))) {
          to--;
        }
        if (to > from && visitor.visit(v, from, to, arg)) {
          n++;
        }
        start = end + 1;
      }
    }
    return n;
  }

  private int indexOf(String name, int from) {
    for (int i = from; i < size; i++) {
      if (names[i].equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  /** Writes each field as {@code name: value CRLF}. */
  void appendTo(StringBuilder out) {
    for (int i = 0; i < size; i++) {
      out.append(names[i]).append(": ").append(values[i]).append("\r\n");
    }
  }

  /**
   * Compares fields in order, names case-insensitively and values exactly.
   *
   * @param o another object
   * @return true for the same fields in the same order
   */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Headers other) || other.size != size) {
      return false;
    }
    for (int i = 0; i < size; i++) {
      if (!names[i].equalsIgnoreCase(other.names[i]) || !values[i].equals(other.values[i])) {
        return false;
      }
    }
    return true;
  }

  /**
   * Hashes the fields consistently with {@link #equals(Object)}.
   *
   * @return the hash
   */
  @Override
  public int hashCode() {
    int h = 1;
    for (int i = 0; i < size; i++) {
      h = 31 * h + names[i].toLowerCase(Locale.ROOT).hashCode();
      h = 31 * h + values[i].hashCode();
    }
    return h;
  }

  /**
   * Lists the fields for logs.
   *
   * @return for example {@code [Host: a.example, Upgrade: websocket]}
   */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < size; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(names[i]).append(": ").append(values[i]);
    }
    return sb.append(']').toString();
  }

  /**
   * Collects header fields to send, checking each against RFC 7230 §3.2: the name must be a token
   * and the value may hold only HTAB, SP, visible ASCII and obs-text (so no CR, LF or NUL that
   * could split the head). Not thread-safe.
   */
  public static final class Builder {
    private String[] names = new String[8];
    private String[] values = new String[8];
    private int size;

    private Builder() {}

    /**
     * Appends a field line.
     *
     * @param name a token, for example {@code Cookie}
     * @param value the value; leading and trailing whitespace are removed
     * @return this builder
     * @throws IllegalArgumentException when the name is not a token or the value holds a character
     *     a field value may not carry
     */
    public Builder add(String name, String value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      if (!HttpSyntax.isToken(name)) {
        throw new IllegalArgumentException(
            "header name \"" + name + "\" is not a token (RFC 7230 §3.2.6)");
      }
      int bad = HttpSyntax.firstInvalidValueChar(value);
      if (bad >= 0) {
        throw new IllegalArgumentException(
            String.format(
                "value of header %s holds U+%04X at index %d: field values may not carry CR, LF,"
                    + " NUL or other controls (RFC 7230 §3.2)",
                name, (int) value.charAt(bad), bad));
      }
      return append(name, HttpSyntax.trimOws(value));
    }

    private Builder append(String name, String value) {
      if (size == names.length) {
        names = Arrays.copyOf(names, size * 2);
        values = Arrays.copyOf(values, size * 2);
      }
      names[size] = name;
      values[size] = value;
      size++;
      return this;
    }

    /**
     * Returns the fields added so far; the builder may go on being used.
     *
     * @return an immutable header list
     */
    public Headers build() {
      return size == 0
          ? EMPTY
          : new Headers(Arrays.copyOf(names, size), Arrays.copyOf(values, size), size);
    }
  }
}
