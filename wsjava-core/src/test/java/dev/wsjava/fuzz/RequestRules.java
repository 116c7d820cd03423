package dev.wsjava.fuzz;

import dev.wsjava.handshake.HttpHeadLimits;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a WebSocket server must answer to a request, written from the RFCs apart from the handshake
 * it judges: the head's framing and limits (RFC 7230 §3, 414 and 431), its grammar (RFC 7230 §3.1,
 * §3.2; 505 for a version other than 1.x), then the upgrade rules of RFC 6455 §4.2.1 and §4.2.2 in
 * the order {@code ServerHandshake} documents, each with its status and, where the RFC names one,
 * the header field that tells the client what to do.
 */
final class RequestRules {
  /** The answer: a status (101, an error, or 0 while the head is incomplete) and a field it needs. */
  record Answer(int status, String field, String why) {
    static final Answer INCOMPLETE = new Answer(0, null, "the head is not complete");
    static final Answer ACCEPT = new Answer(101, null, "a valid upgrade");

    static Answer of(int status, String why) {
      return new Answer(status, null, why);
    }
  }

  private static final String TCHAR = "!#$%&'*+.^_`|~0-9A-Za-z-";
  private static final String TOKEN = "[" + TCHAR + "]++";
  private static final String OWS = "[ \\t]*+";
  private static final Pattern START_LINE =
      Pattern.compile("(" + TOKEN + ") ([\\x21-\\x7e]++) HTTP/([0-9])\\.([0-9])(.*)", Pattern.DOTALL);
  private static final String QUOTED = "\"(?:[^\"\\\\]|\\\\.)*+\"";
  private static final String ELEMENT = TOKEN + "(?:" + OWS + ";" + OWS + TOKEN
      + "(?:" + OWS + "=" + OWS + "(?:" + TOKEN + "|" + QUOTED + "))?)*+";
  private static final Pattern EXTENSION_LIST = Pattern.compile(
      OWS + "(?:" + ELEMENT + ")?(?:" + OWS + "," + OWS + "(?:" + ELEMENT + ")?)*+" + OWS,
      Pattern.DOTALL);
  private static final Pattern QUOTED_VALUE = Pattern.compile(QUOTED, Pattern.DOTALL);

  private RequestRules() {}

  /** Judges {@code data[from, data.length)}, the bytes a client sent. */
  static Answer judge(byte[] data, int from, HttpHeadLimits limits, Predicate<String> origins) {
    String s = new String(data, from, data.length - from, StandardCharsets.ISO_8859_1);
    int max = limits.maxHeadSize();
    int headStart = 0;
    while (s.startsWith("\r\n", headStart)) {
      headStart += 2; // empty lines before a request line are ignored (RFC 7230 §3.5)
    }
    int blank = s.indexOf("\r\n\r\n", headStart);
    int end = blank < 0 ? -1 : blank + 4;
    int bareLf = -1;
    for (int i = 0; i < s.length() && bareLf < 0; i++) {
      if (s.charAt(i) == '\n' && (i == 0 || s.charAt(i - 1) != '\r')) {
        bareLf = i;
      }
    }
    if (bareLf >= 0 && bareLf < max && (end < 0 || bareLf < end)) {
      return Answer.of(400, "a line ends in a bare LF");
    }
    if (end < 0 || end > max) {
      if (s.length() <= max) {
        return Answer.INCOMPLETE;
      }
      int firstLineEnd = s.indexOf("\r\n", headStart);
      boolean startLineInLimit = firstLineEnd >= 0 && firstLineEnd + 1 < max;
      return startLineInLimit
          ? Answer.of(431, "the head is larger than " + max + " bytes")
          : Answer.of(414, "the request line is longer than " + max + " bytes");
    }
    String[] lines = s.substring(headStart, end - 4).split("\r\n", -1);
    Matcher start = START_LINE.matcher(lines[0]);
    if (!start.matches()) {
      return Answer.of(400, "malformed request line");
    }
    if (!start.group(3).equals("1")) {
      return Answer.of(505, "HTTP major version " + start.group(3));
    }
    if (!start.group(5).isEmpty()) {
      return Answer.of(400, "request line goes on after the version");
    }
    List<String[]> fields = new ArrayList<>();
    for (int k = 1; k < lines.length; k++) {
      String line = lines[k];
      if (line.startsWith(" ") || line.startsWith("\t")) {
        return Answer.of(400, "a header line starts with whitespace (obs-fold)");
      }
      int colon = 0;
      while (colon < line.length() && isTchar(line.charAt(colon))) {
        colon++;
      }
      if (colon == 0 || colon == line.length() || line.charAt(colon) != ':') {
        return Answer.of(400, "a header line is not name: value");
      }
      if (fields.size() == limits.maxHeaderCount()) {
        return Answer.of(431, "more than " + limits.maxHeaderCount() + " header fields");
      }
      String value = trimOws(line.substring(colon + 1));
      for (int i = 0; i < value.length(); i++) {
        char c = value.charAt(i);
        if (c != '\t' && (c < 0x20 || c == 0x7f)) {
          return Answer.of(400, "a header value holds a control character");
        }
      }
      fields.add(new String[] {line.substring(0, colon), value});
    }
    return upgrade(start.group(1), start.group(4), fields, origins);
  }

  /** RFC 7230 §3.2.6 tchar. */
  private static boolean isTchar(int c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
        || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
  }

  /** RFC 6455 §4.2.1 and §4.2.2 on a well-formed head. */
  private static Answer upgrade(
      String method, String minor, List<String[]> fields, Predicate<String> origins) {
    if (!method.equals("GET")) {
      return new Answer(405, "Allow: GET", "method " + method);
    }
    if (values(fields, "Upgrade").isEmpty()) {
      return new Answer(426, "Upgrade: websocket", "no Upgrade field");
    }
    if (minor.equals("0")) {
      return Answer.of(400, "HTTP/1.0");
    }
    if (values(fields, "Host").size() != 1) {
      return Answer.of(400, "not exactly one Host");
    }
    if (elements(fields, "Upgrade").stream().noneMatch(e -> e.equalsIgnoreCase("websocket"))) {
      return Answer.of(400, "Upgrade does not name websocket");
    }
    if (elements(fields, "Connection").stream().noneMatch(e -> e.equalsIgnoreCase("upgrade"))) {
      return Answer.of(400, "Connection does not name upgrade");
    }
    if (!values(fields, "Transfer-Encoding").isEmpty()
        || (!values(fields, "Content-Length").isEmpty()
            && !elements(fields, "Content-Length").equals(List.of("0")))) {
      return Answer.of(400, "a body");
    }
    if (!elements(fields, "Sec-WebSocket-Version").equals(List.of("13"))) {
      return new Answer(426, "Sec-WebSocket-Version: 13", "version is not 13");
    }
    List<String> keys = values(fields, "Sec-WebSocket-Key");
    if (keys.size() != 1 || !isKey(keys.get(0))) {
      return Answer.of(400, "not exactly one key of 16 bytes in base64");
    }
    List<String> originValues = values(fields, "Origin");
    if (originValues.size() > 1) {
      return Answer.of(400, "more than one Origin");
    }
    if (!origins.test(originValues.isEmpty() ? null : originValues.get(0))) {
      return Answer.of(403, "origin refused");
    }
    if (elements(fields, "Sec-WebSocket-Protocol").stream().anyMatch(e -> !isToken(e))) {
      return Answer.of(400, "a subprotocol is not a token");
    }
    List<String> extensions = values(fields, "Sec-WebSocket-Extensions");
    if (!extensions.isEmpty() && !isExtensionList(extensions)) {
      return Answer.of(400, "malformed Sec-WebSocket-Extensions");
    }
    return Answer.ACCEPT;
  }

  /** RFC 6455 §9.1 across all lines: at least one element, quoted values tokens once unquoted. */
  private static boolean isExtensionList(List<String> values) {
    boolean anyElement = false;
    for (String v : values) {
      if (!EXTENSION_LIST.matcher(v).matches()) {
        return false;
      }
      Matcher q = QUOTED_VALUE.matcher(v);
      while (q.find()) {
        String quoted = q.group();
        if (!isToken(quoted.substring(1, quoted.length() - 1).replaceAll("\\\\(.)", "$1"))) {
          return false;
        }
      }
      anyElement |= v.chars().anyMatch(RequestRules::isTchar);
    }
    return anyElement;
  }

  private static boolean isKey(String key) {
    try {
      return key.length() == 24 && Base64.getDecoder().decode(key).length == 16;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean isToken(String s) {
    return s.matches(TOKEN);
  }

  private static List<String> values(List<String[]> fields, String name) {
    List<String> out = new ArrayList<>();
    for (String[] f : fields) {
      if (f[0].toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        out.add(f[1]);
      }
    }
    return out;
  }

  /** The non-empty elements of a comma-separated list field, over all its lines (RFC 7230 §7). */
  private static List<String> elements(List<String[]> fields, String name) {
    List<String> out = new ArrayList<>();
    for (String v : values(fields, name)) {
      for (String e : v.split(",", -1)) {
        String t = trimOws(e);
        if (!t.isEmpty()) {
          out.add(t);
        }
      }
    }
    return out;
  }

  private static String trimOws(String s) {
    int a = 0;
    int b = s.length();
    while (a < b && (s.charAt(a) == ' ' || s.charAt(a) == '\t')) {
      a++;
    }
    while (b > a && (s.charAt(b - 1) == ' ' || s.charAt(b - 1) == '\t')) {
      b--;
    }
    return s.substring(a, b);
  }
}
