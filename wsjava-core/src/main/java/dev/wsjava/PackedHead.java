package dev.wsjava;

import dev.wsjava.handshake.HttpHead;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * An upgrade request head packed into one byte array, for the thousands of open connections that
 * keep theirs for {@link WebSocket#request()} and never read it: the parsed head (a record, a
 * header list, two arrays and a string per unusual field) takes about 370 bytes for a plain
 * upgrade, this about 80. Unpacked again, field by field, whenever it is read.
 *
 * <p>Layout: the method, the target, the version, the field count, then each field's name and
 * value. A string is one byte {@code 0x80 + i} when it is {@link #KNOWN}{@code [i]}; {@link #KEY}
 * and 16 bytes when it is the canonical base64 of 16 bytes (a {@code Sec-WebSocket-Key}); else
 * its length (below {@link #KEY} in one byte; else {@link #LONG} and four bytes) and its Latin-1
 * bytes. The field count is one byte below 255, else 255 and four bytes. A field that is one of
 * {@link #FIELDS} (name and value as sent) is the one byte {@code 0xC0 + j}, in the place of its
 * name. Heads with a character beyond Latin-1 are not packed.
 */
final class PackedHead {
  /** Strings every upgrade request repeats: methods, versions, field names and values. */
  private static final String[] KNOWN = {
    "GET", "HTTP/1.1", "HTTP/1.0", "/",
    "Host", "Upgrade", "Connection", "Sec-WebSocket-Key", "Sec-WebSocket-Version",
    "Sec-WebSocket-Extensions", "Sec-WebSocket-Protocol", "Origin", "User-Agent", "Accept",
    "Accept-Encoding", "Accept-Language", "Cache-Control", "Pragma", "Cookie", "Authorization",
    "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version",
    "sec-websocket-extensions", "sec-websocket-protocol", "origin", "user-agent",
    "websocket", "13", "keep-alive, Upgrade", "no-cache", "gzip, deflate, br", "gzip, deflate",
    "permessage-deflate; client_max_window_bits", "permessage-deflate"
  };

  /**
   * Whole fields every upgrade repeats, name and value as browsers and libraries send them: one
   * byte each. (The {@link #KNOWN} codes end below {@code 0xC0}.)
   */
  private static final String[][] FIELDS = {
    {"Upgrade", "websocket"}, {"Connection", "Upgrade"}, {"Sec-WebSocket-Version", "13"},
    {"upgrade", "websocket"}, {"connection", "Upgrade"}, {"sec-websocket-version", "13"},
    {"Connection", "keep-alive, Upgrade"}, {"connection", "upgrade"}
  };

  private static final int FIELD = 0xC0;

  /** Marks 16 bytes written as 24 base64 characters. */
  private static final int KEY = 0x7E;

  private static final int LONG = 0x7F;

  private PackedHead() {}

  /**
   * Packs a head.
   *
   * @param head the parsed head
   * @return its packed bytes, or null when a string holds a character beyond Latin-1
   */
  static byte[] pack(HttpHead.Request head) {
    Headers h = head.headers();
    long size = (h.size() < 0xFF ? 1L : 5L) + length(head.method()) + length(head.target()) + length(head.version());
    for (int i = 0; i < h.size(); i++) {
      size += field(h.name(i), h.value(i)) >= 0 ? 1 : length(h.name(i)) + length(h.value(i));
    }
    if (size < 0 || size > Integer.MAX_VALUE) {
      return null; // a character beyond Latin-1
    }
    byte[] out = new byte[(int) size];
    int p = put(out, 0, head.method());
    p = put(out, p, head.target());
    p = put(out, p, head.version());
    p = putCount(out, p, h.size());
    for (int i = 0; i < h.size(); i++) {
      int f = field(h.name(i), h.value(i));
      if (f >= 0) {
        out[p++] = (byte) (FIELD + f);
      } else {
        p = put(out, p, h.name(i));
        p = put(out, p, h.value(i));
      }
    }
    return out;
  }

  /** The method of a packed head. */
  static String method(byte[] packed) {
    return string(packed, 0);
  }

  /** The target of a packed head. */
  static String target(byte[] packed) {
    return string(packed, skip(packed, 0));
  }

  /** The version of a packed head. */
  static String version(byte[] packed) {
    return string(packed, skip(packed, skip(packed, 0)));
  }

  /** The header fields of a packed head, a new list at each call. */
  static Headers headers(byte[] packed) {
    int p = skip(packed, skip(packed, skip(packed, 0)));
    int n = packed[p] & 0xFF;
    if (n == 0xFF) {
      n = getInt(packed, p + 1);
      p += 4;
    }
    p++;
    if (n == 0) {
      return Headers.empty();
    }
    String[] names = new String[n];
    String[] values = new String[n];
    for (int i = 0; i < n; i++) {
      int b = packed[p] & 0xFF;
      if (b >= FIELD) {
        names[i] = FIELDS[b - FIELD][0];
        values[i] = FIELDS[b - FIELD][1];
        p++;
        continue;
      }
      names[i] = string(packed, p);
      p = skip(packed, p);
      values[i] = string(packed, p);
      p = skip(packed, p);
    }
    return new Headers(names, values, n);
  }

  /** The packed length of {@code s}; hugely negative when it cannot be packed. */
  private static long length(String s) {
    if (known(s) >= 0) {
      return 1;
    }
    if (key(s) != null) {
      return 17;
    }
    int n = s.length();
    for (int i = 0; i < n; i++) {
      if (s.charAt(i) > 0xFF) {
        return Integer.MIN_VALUE;
      }
    }
    return (n < KEY ? 1 : 5) + n;
  }

  /** The index of the field {@code name: value} in {@link #FIELDS}, or -1. */
  private static int field(String name, String value) {
    for (int j = 0; j < FIELDS.length; j++) {
      if (FIELDS[j][0].equals(name) && FIELDS[j][1].equals(value)) {
        return j;
      }
    }
    return -1;
  }

  private static int known(String s) {
    for (int i = 0; i < KNOWN.length; i++) {
      if (KNOWN[i].equals(s)) {
        return i;
      }
    }
    return -1;
  }

  private static int put(byte[] out, int p, String s) {
    int k = known(s);
    if (k >= 0) {
      out[p] = (byte) (0x80 + k);
      return p + 1;
    }
    byte[] key = key(s);
    if (key != null) {
      out[p] = KEY;
      System.arraycopy(key, 0, out, p + 1, 16);
      return p + 17;
    }
    int n = s.length();
    if (n < KEY) {
      out[p++] = (byte) n;
    } else {
      out[p++] = LONG;
      p = putInt(out, p, n);
    }
    for (int i = 0; i < n; i++) {
      out[p + i] = (byte) s.charAt(i); // Latin-1, checked by length()
    }
    return p + n;
  }

  /** The 16 bytes {@code s} is the canonical base64 of, or null. */
  private static byte[] key(String s) {
    if (s.length() != 24 || !s.endsWith("==")) {
      return null;
    }
    try {
      byte[] b = Base64.getDecoder().decode(s);
      return b.length == 16 && Base64.getEncoder().encodeToString(b).equals(s) ? b : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static int putCount(byte[] out, int p, int n) {
    if (n < 0xFF) {
      out[p] = (byte) n;
      return p + 1;
    }
    out[p] = (byte) 0xFF;
    return putInt(out, p + 1, n);
  }

  private static int putInt(byte[] out, int p, int v) {
    out[p] = (byte) (v >>> 24);
    out[p + 1] = (byte) (v >>> 16);
    out[p + 2] = (byte) (v >>> 8);
    out[p + 3] = (byte) v;
    return p + 4;
  }

  private static int getInt(byte[] a, int p) {
    return (a[p] & 0xFF) << 24 | (a[p + 1] & 0xFF) << 16 | (a[p + 2] & 0xFF) << 8 | a[p + 3] & 0xFF;
  }

  /** The string that starts at {@code p}. */
  private static String string(byte[] a, int p) {
    int b = a[p] & 0xFF;
    if (b >= 0x80) {
      return KNOWN[b - 0x80];
    }
    if (b < KEY) {
      return new String(a, p + 1, b, StandardCharsets.ISO_8859_1);
    }
    if (b == KEY) {
      return Base64.getEncoder().encodeToString(Arrays.copyOfRange(a, p + 1, p + 17));
    }
    return new String(a, p + 5, getInt(a, p + 1), StandardCharsets.ISO_8859_1);
  }

  /** The offset after the string that starts at {@code p}. */
  private static int skip(byte[] a, int p) {
    int b = a[p] & 0xFF;
    if (b >= 0x80) {
      return p + 1;
    }
    return b < KEY ? p + 1 + b : b == KEY ? p + 17 : p + 5 + getInt(a, p + 1);
  }
}
