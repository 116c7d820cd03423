package dev.wsjava.jakarta.internal;

import jakarta.websocket.DeploymentException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A server endpoint's path (Jakarta WebSocket 2.2 §3.1.1, RFC 6570 level 1): literal segments and
 * {@code {name}} segments that each match one whole, non-empty segment. Of several templates that
 * match a path, an exact path wins, then the one whose first differing segment is a literal
 * ({@code /a/{x}} beats {@code /{y}/b} for {@code /a/b}). Immutable.
 */
public final class UriTemplate {
  private final String path;
  private final String[] segments; // a literal, or null for a variable
  private final String[] names; // the variable's name, or null for a literal

  private UriTemplate(String path, String[] segments, String[] names) {
    this.path = path;
    this.segments = segments;
    this.names = names;
  }

  /**
   * Parses a template.
   *
   * @param path for example {@code /rooms/{room}}
   * @return the template
   * @throws DeploymentException when it is not a relative URI starting with '/', a variable is
   *     malformed or repeated, or a segment mixes literal text and a variable
   */
  public static UriTemplate parse(String path) throws DeploymentException {
    if (path == null || !path.startsWith("/")) {
      throw new DeploymentException("an endpoint path must start with '/': " + path);
    }
    if (path.contains("?") || path.contains("#")) {
      throw new DeploymentException("an endpoint path has no query or fragment: " + path);
    }
    if (path.equals("/")) {
      return new UriTemplate(path, new String[0], new String[0]);
    }
    String[] parts = path.substring(1).split("/", -1);
    String[] segments = new String[parts.length];
    String[] names = new String[parts.length];
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i];
      if (p.startsWith("{") && p.endsWith("}") && p.length() > 2) {
        String name = p.substring(1, p.length() - 1);
        if (!name.matches("[A-Za-z0-9_.~%-]+")) {
          throw new DeploymentException("malformed variable '" + p + "' in " + path);
        }
        if (!seen.add(name)) {
          throw new DeploymentException("variable '" + name + "' appears twice in " + path);
        }
        names[i] = name;
      } else if (p.contains("{") || p.contains("}")) {
        throw new DeploymentException(
            "a segment is either a literal or one whole {variable}: '" + p + "' in " + path);
      } else if (p.isEmpty() && i < parts.length - 1) {
        throw new DeploymentException("an endpoint path has no empty segment: " + path);
      } else {
        segments[i] = p;
      }
    }
    return new UriTemplate(path, segments, names);
  }

  /**
   * Returns the template as written.
   *
   * @return the path
   */
  public String path() {
    return path;
  }

  /**
   * Returns whether the template has no variable.
   *
   * @return true for an exact path
   */
  public boolean isExact() {
    for (String n : names) {
      if (n != null) {
        return false;
      }
    }
    return true;
  }

  /**
   * Returns the variables' names in order.
   *
   * @return the names
   */
  public List<String> variables() {
    List<String> out = new ArrayList<>();
    for (String n : names) {
      if (n != null) {
        out.add(n);
      }
    }
    return out;
  }

  /**
   * Matches a request path (without its query).
   *
   * @param requestPath as sent, percent-encoding included
   * @return the variables' values, percent-decoded, in order; null when the path does not match
   */
  public Map<String, String> match(String requestPath) {
    if (requestPath == null || !requestPath.startsWith("/")) {
      return null;
    }
    if (segments.length == 0) {
      return requestPath.equals("/") ? Map.of() : null;
    }
    String[] parts = requestPath.substring(1).split("/", -1);
    if (parts.length != segments.length) {
      return null;
    }
    Map<String, String> values = null;
    for (int i = 0; i < parts.length; i++) {
      if (names[i] == null) {
        if (!segments[i].equals(parts[i])) {
          return null;
        }
      } else {
        if (parts[i].isEmpty()) {
          return null;
        }
        if (values == null) {
          values = new LinkedHashMap<>();
        }
        values.put(names[i], decode(parts[i]));
      }
    }
    return values == null ? Map.of() : values;
  }

  private static String decode(String segment) {
    if (segment.indexOf('%') < 0) {
      return segment;
    }
    try {
      return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return segment;
    }
  }

  /**
   * Orders templates by the precedence of §3.1.1: the most specific first.
   *
   * @param a one template
   * @param b another
   * @return negative when {@code a} is tried first
   */
  public static int byPrecedence(UriTemplate a, UriTemplate b) {
    boolean ea = a.isExact();
    boolean eb = b.isExact();
    if (ea != eb) {
      return ea ? -1 : 1;
    }
    int n = Math.min(a.segments.length, b.segments.length);
    for (int i = 0; i < n; i++) {
      boolean la = a.names[i] == null;
      boolean lb = b.names[i] == null;
      if (la != lb) {
        return la ? -1 : 1;
      }
    }
    return Integer.compare(b.segments.length, a.segments.length);
  }

  /**
   * Returns whether two templates match the same paths (same segments, variables in the same
   * places): deploying both is an error.
   *
   * @param other another template
   * @return true when they clash
   */
  public boolean sameShape(UriTemplate other) {
    if (segments.length != other.segments.length) {
      return false;
    }
    for (int i = 0; i < segments.length; i++) {
      if ((names[i] == null) != (other.names[i] == null)) {
        return false;
      }
      if (names[i] == null && !segments[i].equals(other.segments[i])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return path;
  }
}
