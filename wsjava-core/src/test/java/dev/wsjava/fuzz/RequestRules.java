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

  private static final String TOKEN = HeadRules.TOKEN;
  private static final String OWS = "[ \\t]*+";
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
    HeadRules.Outcome head = HeadRules.judge(s, 0, true, limits);
    if (head.head() == null) {
      return head.status() == 0 ? Answer.INCOMPLETE : Answer.of(head.status(), head.why());
    }
    return upgrade(head.head().method(), head.head().minor(), head.head().fields(), origins);
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
  static boolean isExtensionList(List<String> values) {
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
      anyElement |= v.chars().anyMatch(HeadRules::isTchar);
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
        String t = HeadRules.trimOws(e);
        if (!t.isEmpty()) {
          out.add(t);
        }
      }
    }
    return out;
  }
}
