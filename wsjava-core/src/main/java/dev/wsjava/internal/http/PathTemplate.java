package dev.wsjava.internal.http;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A route path with parameters: {@code /rooms/{room}/users/{user}}. A parameter is a whole segment
 * {@code {name}} and matches one non-empty segment of a request path; every other segment matches
 * itself exactly. Immutable and thread-safe.
 */
final class PathTemplate {
  private final String template;
  private final String[] segments;
  private final boolean[] parameter;

  PathTemplate(String template) {
    this.template = template;
    this.segments = template.split("/", -1);
    this.parameter = new boolean[segments.length];
    for (int i = 0; i < segments.length; i++) {
      String s = segments[i];
      if (s.indexOf('{') < 0 && s.indexOf('}') < 0) {
        continue;
      }
      if (!s.matches("\\{[A-Za-z_][A-Za-z0-9_]*}")) {
        throw new IllegalArgumentException(
            "a path parameter is a whole segment {name}, name a Java identifier: " + template);
      }
      segments[i] = s.substring(1, s.length() - 1);
      parameter[i] = true;
      for (int j = 0; j < i; j++) {
        if (parameter[j] && segments[j].equals(segments[i])) {
          throw new IllegalArgumentException("path parameter {" + segments[i] + "} twice: " + template);
        }
      }
    }
  }

  /** Whether a route path is a template (holds a parameter). */
  static boolean isTemplate(String path) {
    return path.indexOf('{') >= 0;
  }

  String template() {
    return template;
  }

  /** The template with its parameter names erased: two templates of one shape match the same paths. */
  String shape() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < segments.length; i++) {
      if (i > 0) {
        sb.append('/');
      }
      sb.append(parameter[i] ? "{}" : segments[i]);
    }
    return sb.toString();
  }

  /**
   * Matches a request path.
   *
   * @return the parameters, percent-decoded, in template order; null when the path does not match
   */
  Map<String, String> match(String path) {
    if (!matches(path)) {
      return null;
    }
    String[] parts = path.split("/", -1);
    Map<String, String> params = new LinkedHashMap<>();
    for (int i = 0; i < segments.length; i++) {
      if (parameter[i]) {
        params.put(segments[i], decode(parts[i]));
      }
    }
    return params;
  }

  /** Matches without making anything: walks the path's segments in place. */
  boolean matches(String path) {
    int at = 0;
    for (int i = 0; i < segments.length; i++) {
      int end = path.indexOf('/', at);
      if (end < 0) {
        end = path.length();
      }
      if (i == segments.length - 1 ? end != path.length() : end == path.length()) {
        return false; // more or fewer segments than the template
      }
      if (parameter[i]) {
        if (end == at) {
          return false; // a parameter matches a non-empty segment
        }
      } else if (end - at != segments[i].length() || !path.startsWith(segments[i], at)) {
        return false;
      }
      at = end + 1;
    }
    return true;
  }

  /**
   * Orders templates most specific first: at the first segment where one has a literal and the
   * other a parameter, the literal wins; then the one with more segments.
   */
  static int bySpecificity(PathTemplate a, PathTemplate b) {
    int n = Math.min(a.segments.length, b.segments.length);
    for (int i = 0; i < n; i++) {
      if (a.parameter[i] != b.parameter[i]) {
        return a.parameter[i] ? 1 : -1;
      }
    }
    return Integer.compare(b.segments.length, a.segments.length);
  }

  private static String decode(String segment) {
    if (segment.indexOf('%') < 0) {
      return segment;
    }
    try {
      return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return segment; // a malformed escape: keep what was sent
    }
  }

  @Override
  public String toString() {
    return template;
  }
}
