package dev.wsjava.conformance;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * RFC 6455 §4 / RFC 9112: the head of an HTTP/1.1 upgrade request or response, read by the suite
 * itself (leniently: the suite judges WebSocket peers, not their HTTP), and the accept key of
 * §4.2.2.
 *
 * @param startLine the request or status line
 * @param headers the header fields by lower-case name; repeated fields joined with ", "
 */
record HttpHead(String startLine, Map<String, String> headers) {
  private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  private static final int MAX_HEAD = 16 * 1024;

  /**
   * Reads a head up to its empty line, leaving what follows in {@code in}.
   *
   * @param in the stream, read byte by byte (buffer it)
   * @return the head
   * @throws IOException when the stream ends first or the head is longer than 16 KiB
   */
  static HttpHead read(InputStream in) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream(512);
    int state = 0; // how much of CR LF CR LF has been seen
    while (state < 4) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("the connection closed inside the HTTP head ("
            + buf.size() + " bytes read)");
      }
      buf.write(b);
      if (buf.size() > MAX_HEAD) {
        throw new IOException("HTTP head longer than " + MAX_HEAD + " bytes");
      }
      state = b == '\r' ? (state == 2 ? 3 : 1) : b == '\n' ? (state == 1 || state == 3 ? state + 1 : 0) : 0;
    }
    String[] lines = buf.toString(StandardCharsets.ISO_8859_1).split("\r\n");
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
        String value = lines[i].substring(colon + 1).trim();
        headers.merge(name, value, (a, b) -> a + ", " + b);
      }
    }
    return new HttpHead(lines[0], headers);
  }

  /**
   * Returns a header value.
   *
   * @param name the name, any case
   * @return the value, or the empty string
   */
  String header(String name) {
    return headers.getOrDefault(name.toLowerCase(Locale.ROOT), "");
  }

  /**
   * Returns whether a comma-separated header contains a token, ignoring case.
   *
   * @param name the header name
   * @param token the token
   * @return true when present
   */
  boolean hasToken(String name, String token) {
    for (String t : header(name).split(",")) {
      if (t.trim().equalsIgnoreCase(token)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Computes {@code Sec-WebSocket-Accept} for a key (§4.2.2): base64 of the SHA-1 of the key
   * and the GUID.
   *
   * @param key the client's {@code Sec-WebSocket-Key}
   * @return the accept value
   */
  static String accept(String key) {
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      return Base64.getEncoder().encodeToString(
          sha1.digest((key + GUID).getBytes(StandardCharsets.ISO_8859_1)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is required on every Java platform", e);
    }
  }
}
