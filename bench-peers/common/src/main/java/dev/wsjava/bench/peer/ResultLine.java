package dev.wsjava.bench.peer;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The one line a measuring process prints per measured point, which the suite parses: {@code RESULT
 * workload=small msgs_per_s=123456.7 ...}, keys and values without spaces. A failure is a line of
 * its own: {@code ERROR workload=small what went wrong}.
 */
public final class ResultLine {
  /** The prefix of a result line. */
  public static final String RESULT = "RESULT";
  /** The prefix of a failure line. */
  public static final String ERROR = "ERROR";

  private final Map<String, String> fields = new LinkedHashMap<>();

  /**
   * Starts a line for a workload.
   *
   * @param workload the workload's id
   */
  public ResultLine(String workload) {
    fields.put("workload", workload);
  }

  /**
   * Adds a number.
   *
   * @param key the key, no spaces
   * @param value the value
   * @return this
   */
  public ResultLine put(String key, double value) {
    fields.put(key, String.format(Locale.ROOT, "%.3f", value));
    return this;
  }

  /**
   * Adds a count.
   *
   * @param key the key, no spaces
   * @param value the value
   * @return this
   */
  public ResultLine put(String key, long value) {
    fields.put(key, Long.toString(value));
    return this;
  }

  /**
   * Adds a word.
   *
   * @param key the key, no spaces
   * @param value the value, no spaces
   * @return this
   * @throws IllegalArgumentException when the value has a space or is empty
   */
  public ResultLine put(String key, String value) {
    if (value.isEmpty() || value.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("a result value is one word: \"" + value + "\"");
    }
    fields.put(key, value);
    return this;
  }

  /**
   * Formats the line.
   *
   * @return {@code RESULT k=v ...}
   */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(RESULT);
    fields.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
    return sb.toString();
  }

  /**
   * Prints the line and flushes.
   *
   * @param out where to
   */
  public void print(PrintStream out) {
    out.println(this);
    out.flush();
  }

  /**
   * Prints a failure line and flushes.
   *
   * @param out where to
   * @param workload the workload's id
   * @param why what went wrong, one line
   */
  public static void error(PrintStream out, String workload, String why) {
    out.println(ERROR + " workload=" + workload + " " + why.replace('\n', ' '));
    out.flush();
  }

  /**
   * Parses a result line.
   *
   * @param line a line starting with {@code RESULT}
   * @return its fields in order, or {@code null} when the line is no result line
   */
  public static Map<String, String> parse(String line) {
    if (!line.startsWith(RESULT + " ")) {
      return null;
    }
    Map<String, String> m = new LinkedHashMap<>();
    for (String token : line.substring(RESULT.length() + 1).trim().split("\\s+")) {
      int eq = token.indexOf('=');
      if (eq > 0) {
        m.put(token.substring(0, eq), token.substring(eq + 1));
      }
    }
    return m;
  }
}
