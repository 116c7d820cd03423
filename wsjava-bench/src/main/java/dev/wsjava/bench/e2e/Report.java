package dev.wsjava.bench.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes {@code RESULTS.md} and one SVG chart per scenario: the date, the machine, the method, per
 * scenario a table of target × metric (median and spread over the runs), the chart, and the ratios
 * of wsjava against the best JVM peer.
 */
final class Report {
  /**
   * What the report says about the run besides the figures.
   *
   * @param title the first line under the heading (for a quick run: that it is one)
   * @param chartNote the line under each chart's title
   * @param facts the machine and the settings, in order (name, value)
   * @param method the method, one bullet per entry
   * @param targets target name to its description (library, version, transport)
   */
  record Context(String title, String chartNote, List<Map.Entry<String, String>> facts, List<String> method,
      Map<String, String> targets) {}

  private Report() {}

  /**
   * Whether a target is one of wsjava's (shown in bold, compared in the ratios).
   *
   * @param target the target's name
   * @return true for {@code wsjava-*}
   */
  static boolean isWsjava(String target) {
    return target.startsWith("wsjava");
  }

  /**
   * Whether a target is a JVM peer (the ratios compare against the best of these).
   *
   * @param target the target's name
   * @return false for wsjava's own, Node and the raw reference client
   */
  static boolean isJvmPeer(String target) {
    return !isWsjava(target) && !target.startsWith("node") && !target.startsWith("raw");
  }

  /**
   * Writes the report and the charts.
   *
   * @param dir where ({@code docs/benchmarks})
   * @param ctx the run's description
   * @param results the figures
   * @return the files written
   * @throws IOException when writing fails
   */
  static List<Path> write(Path dir, Context ctx, Results results) throws IOException {
    Files.createDirectories(dir);
    List<Path> written = new ArrayList<>();
    StringBuilder md = new StringBuilder();
    md.append("# wsjava end-to-end benchmarks\n\n");
    md.append(ctx.title()).append("\n\n");
    md.append("## Machine and settings\n\n| | |\n|---|---|\n");
    for (Map.Entry<String, String> f : ctx.facts()) {
      md.append("| ").append(Format.cell(f.getKey())).append(" | ").append(Format.cell(f.getValue()))
          .append(" |\n");
    }
    md.append("\n## Method\n\n");
    for (String m : ctx.method()) {
      md.append("- ").append(m).append('\n');
    }
    md.append("\n## Targets\n\n| target | what |\n|---|---|\n");
    ctx.targets().forEach((name, what) -> md.append("| ").append(Format.cell(name)).append(" | ")
        .append(Format.cell(what)).append(" |\n"));
    for (Scenarios.Scenario s : Scenarios.ALL) {
      if (!results.has(s.id())) {
        continue;
      }
      md.append("\n## ").append(s.id()).append(". ").append(s.title()).append("\n\n");
      md.append(s.what()).append("\n\n");
      table(md, s, results);
      String svg = s.slug() + ".svg";
      Path chart = dir.resolve(svg);
      Files.writeString(chart, SvgChart.render(s, results, Report::isWsjava, ctx.chartNote()),
          StandardCharsets.UTF_8);
      written.add(chart);
      md.append("\n![").append(s.title()).append("](").append(svg).append(")\n");
      ratios(md, s, results);
    }
    Path file = dir.resolve("RESULTS.md");
    Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
    written.add(file);
    return written;
  }

  /**
   * Appends a scenario's table: one row per target, a column per metric, failures and notes last.
   *
   * @param md the report
   * @param s the scenario
   * @param results the figures
   */
  static void table(StringBuilder md, Scenarios.Scenario s, Results results) {
    md.append("| target |");
    for (Scenarios.Metric m : s.metrics()) {
      md.append(' ').append(m.label()).append(" (").append(m.unit()).append(") |");
    }
    md.append(" notes |\n|---|");
    md.append("---:|".repeat(s.metrics().size())).append("---|\n");
    for (String t : results.targets(s.id())) {
      Results.Cell c = results.cell(s.id(), t);
      md.append("| ").append(isWsjava(t) ? "**" + t + "**" : t).append(" |");
      for (Scenarios.Metric m : s.metrics()) {
        Stats st = c.stats(m.key());
        md.append(' ').append(st == null ? (c.failures.isEmpty() ? "–" : "**failed**")
            : Format.stats(st, m.decimals())).append(" |");
      }
      List<String> notes = new ArrayList<>();
      c.failures.forEach(f -> notes.add("failed: " + f));
      notes.addAll(c.notes);
      md.append(' ').append(Format.cell(String.join("; ", notes))).append(" |\n");
    }
  }

  /**
   * Appends the ratios of each wsjava target to the best JVM peer, metric by metric (medians).
   *
   * @param md the report
   * @param s the scenario
   * @param results the figures
   */
  static void ratios(StringBuilder md, Scenarios.Scenario s, Results results) {
    List<String> ours = results.targets(s.id()).stream().filter(Report::isWsjava).toList();
    if (ours.isEmpty()) {
      return;
    }
    StringBuilder rows = new StringBuilder();
    for (Scenarios.Metric m : s.metrics()) {
      String best = null;
      double bestValue = 0;
      for (String t : results.targets(s.id())) {
        Stats st = results.cell(s.id(), t).stats(m.key());
        if (!isJvmPeer(t) || st == null) {
          continue;
        }
        if (best == null || (m.higherIsBetter() ? st.median() > bestValue : st.median() < bestValue)) {
          best = t;
          bestValue = st.median();
        }
      }
      if (best == null) {
        continue;
      }
      rows.append("| ").append(m.label()).append(m.higherIsBetter() ? " ↑" : " ↓").append(" | ")
          .append(best).append(' ').append(Format.number(bestValue, m.decimals())).append(' ')
          .append(m.unit()).append(" |");
      for (String t : ours) {
        Stats st = results.cell(s.id(), t).stats(m.key());
        rows.append(' ').append(st == null || bestValue == 0 ? "–"
            : Format.number(st.median() / bestValue, 2) + "×" + perRun(s, m, t, results))
            .append(" |");
      }
      rows.append('\n');
    }
    if (rows.isEmpty()) {
      return;
    }
    md.append("\nwsjava ÷ best JVM peer (medians; ↑ higher is better, so above 1× is ahead; ↓ lower"
        + " is better, so below 1× is ahead). Then, over several runs, the same ratio taken in each"
        + " run against that run's best JVM peer: its median, its spread, and in how many runs"
        + " wsjava was even or ahead:\n\n| metric | best JVM peer |");
    for (String t : ours) {
      md.append(' ').append(t).append(" |");
    }
    md.append("\n|---|---|").append("---:|".repeat(ours.size())).append('\n').append(rows);
  }

  /**
   * Compares a wsjava target with the best JVM peer run by run: on a shared machine the load of
   * the neighbours drifts between runs, and a ratio within one run is paired (the targets of a run
   * ran minutes apart, those of different runs up to an hour).
   *
   * @param s the scenario
   * @param m the metric
   * @param ours the wsjava target
   * @param results the figures
   * @return " · per run", the ratios' median and spread, and in how many runs wsjava was even or
   *     ahead; empty for fewer than two runs with figures from both sides
   */
  static String perRun(Scenarios.Scenario s, Scenarios.Metric m, String ours, Results results) {
    Results.Cell cell = results.cell(s.id(), ours);
    List<Double> ratios = new ArrayList<>();
    int evenOrAhead = 0;
    for (int run : cell.values.getOrDefault(m.key(), Map.of()).keySet()) {
      Double best = null;
      for (String t : results.targets(s.id())) {
        Double v = isJvmPeer(t) ? results.cell(s.id(), t).value(m.key(), run) : null;
        if (v != null && (best == null || (m.higherIsBetter() ? v > best : v < best))) {
          best = v;
        }
      }
      if (best == null || best == 0) {
        continue;
      }
      double ratio = cell.value(m.key(), run) / best;
      ratios.add(ratio);
      double shown = Math.round(ratio * 100) / 100.0; // even as printed: 12.1 B against 12.1 B
      if (m.higherIsBetter() ? shown >= 1 : shown <= 1) {
        evenOrAhead++;
      }
    }
    if (ratios.size() < 2) {
      return "";
    }
    Stats st = Stats.of(ratios);
    return " · per run " + Format.number(st.median(), 2) + "× (" + Format.number(st.min(), 2) + "–"
        + Format.number(st.max(), 2) + "), even or ahead in " + evenOrAhead + " of " + ratios.size();
  }
}
