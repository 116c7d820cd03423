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
}
