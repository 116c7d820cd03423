package dev.wsjava.bench.e2e;

import java.util.List;
import java.util.function.Predicate;

/**
 * A hand-written SVG chart of one scenario: one panel per group of series sharing a scale,
 * horizontal bars (the median) with a thin whisker for the spread (min–max), the value written
 * after each bar, failed targets written as such. Readable without the table.
 */
final class SvgChart {
  private static final int WIDTH = 820;
  private static final int LABEL = 180;
  private static final int BAR_MAX = 470;
  private static final int BAR_H = 14;
  private static final int GAP = 10;
  private static final String[] COLORS = {"#3b6fb6", "#e08a2c", "#5a9e4b", "#9b59b6"};

  private SvgChart() {}

  /**
   * Draws a scenario.
   *
   * @param scenario what to draw
   * @param results the figures
   * @param highlight which targets to write in bold (wsjava's)
   * @param subtitle a line under the title (for example that it was a quick run)
   * @return the SVG document
   */
  static String render(Scenarios.Scenario scenario, Results results, Predicate<String> highlight,
      String subtitle) {
    List<String> targets = results.targets(scenario.id());
    StringBuilder body = new StringBuilder();
    int y = 56;
    for (List<Scenarios.Metric> panel : scenario.charted()) {
      y = panel(body, y, panel, scenario.id(), targets, results, highlight);
      y += 18;
    }
    StringBuilder svg = new StringBuilder();
    svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH)
        .append("\" height=\"").append(y).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ')
        .append(y).append("\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n");
    svg.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    svg.append("<text x=\"16\" y=\"24\" font-size=\"17\" font-weight=\"bold\">")
        .append(Format.xml(scenario.id() + ". " + scenario.title())).append("</text>\n");
    svg.append("<text x=\"16\" y=\"42\" fill=\"#555\">").append(Format.xml(subtitle))
        .append("</text>\n");
    svg.append(body).append("</svg>\n");
    return svg.toString();
  }

  private static int panel(StringBuilder out, int y, List<Scenarios.Metric> series, String scenario,
      List<String> targets, Results results, Predicate<String> highlight) {
    Scenarios.Metric first = series.get(0);
    StringBuilder heading = new StringBuilder();
    for (Scenarios.Metric m : series) {
      heading.append(heading.isEmpty() ? "" : ", ").append(m.label());
    }
    heading.append(" (").append(first.unit()).append(") — ")
        .append(first.higherIsBetter() ? "higher is better" : "lower is better");
    y += 14;
    out.append("<text x=\"16\" y=\"").append(y).append("\" font-size=\"13\" font-weight=\"bold\">")
        .append(Format.xml(heading.toString())).append("</text>\n");
    if (series.size() > 1) {
      int lx = LABEL;
      for (int i = 0; i < series.size(); i++) {
        out.append("<rect x=\"").append(lx).append("\" y=\"").append(y + 6)
            .append("\" width=\"10\" height=\"10\" fill=\"").append(COLORS[i % COLORS.length])
            .append("\"/><text x=\"").append(lx + 14).append("\" y=\"").append(y + 15).append("\">")
            .append(Format.xml(series.get(i).label())).append("</text>\n");
        lx += 24 + 7 * series.get(i).label().length();
      }
      y += 18;
    }
    y += 10;
    double max = 0;
    for (String t : targets) {
      Results.Cell c = results.cell(scenario, t);
      for (Scenarios.Metric m : series) {
        Stats s = c.stats(m.key());
        if (s != null) {
          max = Math.max(max, s.max());
        }
      }
    }
    if (max <= 0) {
      max = 1;
    }
    for (String t : targets) {
      Results.Cell c = results.cell(scenario, t);
      int rowH = series.size() * (BAR_H + 2) + GAP;
      int mid = y + (series.size() * (BAR_H + 2)) / 2;
      out.append("<text x=\"").append(LABEL - 8).append("\" y=\"").append(mid + 4)
          .append("\" text-anchor=\"end\"").append(highlight.test(t) ? " font-weight=\"bold\"" : "")
          .append('>').append(Format.xml(t)).append("</text>\n");
      boolean any = false;
      for (int i = 0; i < series.size(); i++) {
        Scenarios.Metric m = series.get(i);
        Stats s = c.stats(m.key());
        int by = y + i * (BAR_H + 2);
        if (s == null) {
          continue;
        }
        any = true;
        double w = s.median() / max * BAR_MAX;
        double wMin = s.min() / max * BAR_MAX;
        double wMax = s.max() / max * BAR_MAX;
        out.append("<rect x=\"").append(LABEL).append("\" y=\"").append(by).append("\" width=\"")
            .append(Format.number(Math.max(w, 1), 1).replace(",", "")).append("\" height=\"")
            .append(BAR_H).append("\" fill=\"").append(COLORS[i % COLORS.length]).append("\"/>\n");
        if (s.runs() > 1) {
          int cy = by + BAR_H / 2;
          String x1 = Format.number(LABEL + wMin, 1).replace(",", "");
          String x2 = Format.number(LABEL + wMax, 1).replace(",", "");
          out.append("<path d=\"M").append(x1).append(' ').append(cy).append(" H").append(x2)
              .append(" M").append(x1).append(' ').append(cy - 4).append(" V").append(cy + 4)
              .append(" M").append(x2).append(' ').append(cy - 4).append(" V").append(cy + 4)
              .append("\" stroke=\"#222\" stroke-width=\"1\" fill=\"none\"/>\n");
        }
        double tx = LABEL + Math.max(w, wMax) + 6;
        out.append("<text x=\"").append(Format.number(tx, 1).replace(",", "")).append("\" y=\"")
            .append(by + BAR_H - 3).append("\">")
            .append(Format.xml(Format.number(s.median(), m.decimals()) + " " + m.unit()))
            .append("</text>\n");
      }
      if (!any) {
        String why = !c.failures.isEmpty() ? "failed: " + c.failures.iterator().next()
            : !c.notes.isEmpty() ? c.notes.iterator().next() : "no figure";
        if (why.length() > 90) {
          why = why.substring(0, 87) + "...";
        }
        out.append("<text x=\"").append(LABEL).append("\" y=\"").append(mid + 4).append("\" fill=\"")
            .append(c.failures.isEmpty() ? "#777" : "#b00020").append("\">").append(Format.xml(why))
            .append("</text>\n");
      }
      y += rowH;
    }
    return y;
  }
}
