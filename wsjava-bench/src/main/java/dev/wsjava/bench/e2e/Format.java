package dev.wsjava.bench.e2e;

import java.util.Locale;

/** Number and text formatting shared by the Markdown report and the SVG charts. */
final class Format {
  private Format() {}

  /**
   * Formats a number with thousands separators and a fixed number of decimals.
   *
   * @param v the value
   * @param decimals digits after the point
   * @return for example {@code 123,456.7}
   */
  static String number(double v, int decimals) {
    return String.format(Locale.ROOT, "%,." + decimals + "f", v);
  }

  /**
   * Formats a median with its spread.
   *
   * @param s the stats
   * @param decimals digits after the point
   * @return {@code median (min–max)}, or just the value for a single run
   */
  static String stats(Stats s, int decimals) {
    if (s.runs() == 1) {
      return number(s.median(), decimals);
    }
    return number(s.median(), decimals) + " (" + number(s.min(), decimals) + "–"
        + number(s.max(), decimals) + ")";
  }

  /**
   * Escapes text for XML.
   *
   * @param s the text
   * @return the escaped text
   */
  static String xml(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  /**
   * Makes text safe in a Markdown table cell.
   *
   * @param s the text
   * @return the text with pipes escaped and line breaks removed
   */
  static String cell(String s) {
    return s.replace("|", "\\|").replace('\n', ' ');
  }

  /**
   * Formats the busy threads of a result line ({@code name*count:percent,...}) for the report.
   *
   * @param busy the result line's value, or {@code null}
   * @return for example {@code 1 × epollEventLoopG (97 %)}, or "–"
   */
  static String threads(String busy) {
    if (busy == null || busy.equals("none")) {
      return "–";
    }
    java.util.List<String> parts = new java.util.ArrayList<>();
    for (String g : busy.split(",")) {
      int star = g.lastIndexOf('*');
      int colon = g.lastIndexOf(':');
      parts.add(g.substring(star + 1, colon) + " × " + g.substring(0, star).replace('_', ' ') + " ("
          + g.substring(colon + 1) + " %)");
    }
    return String.join(", ", parts);
  }
}
