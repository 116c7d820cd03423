package dev.wsjava.fuzz;

import dev.wsjava.handshake.HttpHeadLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HTTP/1.1 heads as RFC 7230 §3 frames and spells them, written apart from the parser they judge:
 * where a head ends (the first empty line; empty lines before a request line are skipped, §3.5),
 * the limits (a head longer than allowed is 414 while its request line is unfinished, else 431;
 * more fields than allowed is 431), and its grammar (400, or 505 for a major version other than
 * 1). Strict as the parser documents: lines end in CRLF (a bare LF is 400), no whitespace before
 * a field's colon, obs-fold refused in requests and unfolded in responses.
 */
final class HeadRules {
  /** A complete, well-formed head: where it ends, its start line's parts and its fields. */
  record Head(int end, String method, String minor, int status, List<String[]> fields) {}

  /** A head, or an error status with why, or neither when the head is incomplete. */
  record Outcome(Head head, int status, String why) {
    static final Outcome INCOMPLETE = new Outcome(null, 0, "the head is not complete");

    static Outcome error(int status, String why) {
      return new Outcome(null, status, why);
    }
  }

  static final String TCHAR = "!#$%&'*+.^_`|~0-9A-Za-z-";
  static final String TOKEN = "[" + TCHAR + "]++";
  private static final Pattern REQUEST_LINE =
      Pattern.compile("(" + TOKEN + ") ([\\x21-\\x7e]++) HTTP/([0-9])\\.([0-9])(.*)", Pattern.DOTALL);
  private static final Pattern STATUS_LINE =
      Pattern.compile("HTTP/([0-9])\\.([0-9])(.*)", Pattern.DOTALL);

  private HeadRules() {}

  /** Judges the head that starts at {@code from} in {@code s} (bytes as ISO-8859-1 chars). */
  static Outcome judge(String s, int from, boolean request, HttpHeadLimits limits) {
    int max = limits.maxHeadSize();
    int headStart = from;
    while (request && s.startsWith("\r\n", headStart)) {
      headStart += 2;
    }
    int end;
    if (s.startsWith("\r\n", headStart)) {
      end = headStart + 2; // a response whose first line is empty: a head with no start line
    } else {
      int blank = s.indexOf("\r\n\r\n", headStart);
      end = blank < 0 ? -1 : blank + 4;
    }
    int bareLf = -1;
    for (int i = from; i < s.length() && bareLf < 0; i++) {
      if (s.charAt(i) == '\n' && (i == from || s.charAt(i - 1) != '\r')) {
        bareLf = i;
      }
    }
    if (bareLf >= 0 && bareLf - from < max && (end < 0 || bareLf < end)) {
      return Outcome.error(400, "a line ends in a bare LF");
    }
    if (end < 0 || end - from > max) {
      if (s.length() - from <= max) {
        return Outcome.INCOMPLETE;
      }
      int firstLineEnd = s.indexOf("\r\n", headStart);
      boolean startLineInLimit = firstLineEnd >= 0 && firstLineEnd + 1 - from < max;
      return request && !startLineInLimit
          ? Outcome.error(414, "the request line is longer than " + max + " bytes")
          : Outcome.error(431, "the head is larger than " + max + " bytes");
    }
    String[] lines = s.substring(headStart, Math.max(headStart, end - 4)).split("\r\n", -1);
    String method = null;
    String minor;
    int status = 0;
    if (request) {
      Matcher m = REQUEST_LINE.matcher(lines[0]);
      if (!m.matches()) {
        return Outcome.error(400, "malformed request line");
      }
      if (!m.group(3).equals("1")) {
        return Outcome.error(505, "HTTP major version " + m.group(3));
      }
      if (!m.group(5).isEmpty()) {
        return Outcome.error(400, "the request line goes on after the version");
      }
      method = m.group(1);
      minor = m.group(4);
    } else {
      Matcher m = STATUS_LINE.matcher(lines[0]);
      if (!m.matches()) {
        return Outcome.error(400, "malformed status line");
      }
      if (!m.group(1).equals("1")) {
        return Outcome.error(505, "HTTP major version " + m.group(1));
      }
      minor = m.group(2);
      String rest = m.group(3);
      boolean shaped = rest.length() >= 4 && rest.charAt(0) == ' ' && rest.substring(1, 4)
          .chars().allMatch(c -> c >= '0' && c <= '9')
          && (rest.length() == 4 || rest.charAt(4) == ' ');
      if (!shaped) {
        return Outcome.error(400, "the status line is not version SP 3DIGIT [SP reason]");
      }
      status = Integer.parseInt(rest.substring(1, 4));
      if (status < 100 || status > 599) {
        return Outcome.error(400, "status " + status + " outside 100-599");
      }
      if (rest.length() > 4 && !valueBytesValid(rest.substring(5))) {
        return Outcome.error(400, "a control character in the reason phrase");
      }
    }
    List<String[]> fields = new ArrayList<>();
    for (int k = 1; k < lines.length; k++) {
      String line = lines[k];
      if (line.startsWith(" ") || line.startsWith("\t")) {
        if (request || fields.isEmpty()) {
          return Outcome.error(400, "a header line starts with whitespace");
        }
        String more = trimOws(line);
        if (!valueBytesValid(more)) {
          return Outcome.error(400, "a header value holds a control character");
        }
        String[] last = fields.get(fields.size() - 1);
        last[1] = last[1].isEmpty() ? more : more.isEmpty() ? last[1] : last[1] + " " + more;
        continue;
      }
      int colon = 0;
      while (colon < line.length() && isTchar(line.charAt(colon))) {
        colon++;
      }
      if (colon == 0 || colon == line.length() || line.charAt(colon) != ':') {
        return Outcome.error(400, "a header line is not name: value");
      }
      if (fields.size() == limits.maxHeaderCount()) {
        return Outcome.error(431, "more than " + limits.maxHeaderCount() + " header fields");
      }
      String value = trimOws(line.substring(colon + 1));
      if (!valueBytesValid(value)) {
        return Outcome.error(400, "a header value holds a control character");
      }
      fields.add(new String[] {line.substring(0, colon), value});
    }
    return new Outcome(new Head(end, method, minor, status, fields), 0, "a well-formed head");
  }

  /** RFC 7230 §3.2: field content is HTAB, SP, VCHAR or obs-text. */
  private static boolean valueBytesValid(String v) {
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c != '\t' && (c < 0x20 || c == 0x7f)) {
        return false;
      }
    }
    return true;
  }

  /** RFC 7230 §3.2.6 tchar. */
  static boolean isTchar(int c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
        || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
  }

  static String trimOws(String s) {
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
