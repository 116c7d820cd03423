package dev.wsjava.bench.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes {@code RESULTS.md} and one SVG chart per scenario: the date, the machine, the method, the
 * targets and how they ran, per scenario a table of target × metric (median and spread over the
 * runs), a table of each side's CPU time per unit of work, the chart, and the ratios of wsjava
 * against the best JVM peer and against the best native server, with a verdict that calls a
 * ratio inside the run-to-run spread even.
 */
final class Report {
  /**
   * A ratio this close to 1 is even whatever the spread: three runs on a shared machine
   * understate how far figures wander (the issue that asked for the band named 1.05× and 0.95×).
   */
  static final double PARITY = 0.05;

  /**
   * A table of the report's set-up part.
   *
   * @param title its heading
   * @param header the column headings
   * @param rows the rows, one cell per heading
   */
  record Table(String title, List<String> header, List<List<String>> rows) {}

  /**
   * What the report says about the run besides the figures.
   *
   * @param title the first line under the heading (for a quick run: that it is one)
   * @param chartNote the line under each chart's title
   * @param facts the machine and the settings, in order (name, value)
   * @param method the method, one bullet per entry
   * @param setup the targets and clients, how each ran and what the contract check found
   */
  record Context(String title, String chartNote, List<Map.Entry<String, String>> facts, List<String> method,
      List<Table> setup) {}

  private Report() {}

  /**
   * Whether a target is one of wsjava's (shown in bold, compared in the ratios).
   *
   * @param target the target's name
   * @return true for wsjava's targets and clients
   */
  static boolean isWsjava(String target) {
    return Peers.kind(target) == Peers.Kind.WSJAVA;
  }

  /**
   * Whether a target is a JVM peer (the ratios compare against the best of these).
   *
   * @param target the target's name
   * @return false for wsjava's own, the native servers, Node and the raw reference client
   */
  static boolean isJvmPeer(String target) {
    return Peers.kind(target) == Peers.Kind.JVM;
  }

  /**
   * Whether a target is a Jakarta container other than wsjava's (the Jakarta ratios compare
   * against the best of these).
   *
   * @param target the target's name
   * @return true for the Tomcat, Jetty and Tyrus Jakarta targets
   */
  static boolean isJakartaPeer(String target) {
    return Peers.kind(target) == Peers.Kind.JAKARTA;
  }

  /** wsjava's Jakarta target, compared with the Jakarta containers and with the core API. */
  static final String JAKARTA = "jakarta-wsjava";
  private static final String WHOLE = "-whole";
  /** The same with the whole-message endpoint, compared with the containers' {@code -whole}. */
  static final String JAKARTA_WHOLE = JAKARTA + WHOLE;
  /** The core API's target the Jakarta adapter is held to (within 10 %, issue 36). */
  static final String CORE = "wsjava-nio";

  /**
   * Whether a target is a native server (C++, Go): the second reference of the ratios.
   *
   * @param target the target's name
   * @return true for Beast and gorilla
   */
  static boolean isNative(String target) {
    return Peers.kind(target) == Peers.Kind.NATIVE;
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
    for (Table t : ctx.setup()) {
      md.append("\n## ").append(t.title()).append("\n\n|");
      t.header().forEach(h -> md.append(' ').append(Format.cell(h)).append(" |"));
      md.append("\n|").append("---|".repeat(t.header().size())).append('\n');
      for (List<String> row : t.rows()) {
        md.append('|');
        row.forEach(c -> md.append(' ').append(Format.cell(c)).append(" |"));
        md.append('\n');
      }
    }
    for (Scenarios.Scenario s : Scenarios.ALL) {
      if (!results.has(s.id())) {
        continue;
      }
      md.append("\n## ").append(s.id()).append(". ").append(s.title()).append("\n\n");
      md.append(s.what()).append("\n\n");
      table(md, s, results);
      cpuTable(md, s, results);
      String svg = s.slug() + ".svg";
      Path chart = dir.resolve(svg);
      Files.writeString(chart, SvgChart.render(s, results, Report::isWsjava, ctx.chartNote()),
          StandardCharsets.UTF_8);
      written.add(chart);
      md.append("\n![").append(s.title()).append("](").append(svg).append(")\n");
      ratios(md, s, results);
      jakartaRatios(md, s, results);
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
      md.append("| ").append(name(t)).append(" |");
      for (Scenarios.Metric m : s.metrics()) {
        md.append(' ').append(value(c, m)).append(" |");
      }
      List<String> notes = new ArrayList<>();
      c.failures.forEach(f -> notes.add("failed: " + f));
      notes.addAll(c.notes);
      md.append(' ').append(Format.cell(String.join("; ", notes))).append(" |\n");
    }
  }

  /**
   * Appends a scenario's CPU table: each side's CPU time (user + system, all threads) per unit of
   * work over the measured interval.
   *
   * @param md the report
   * @param s the scenario
   * @param results the figures
   */
  static void cpuTable(StringBuilder md, Scenarios.Scenario s, Results results) {
    if (s.cpu().isEmpty()) {
      return;
    }
    md.append("\nCPU time (user + system, all threads, /proc) per unit of work over the measured"
        + " interval:\n\n| target |");
    for (Scenarios.Metric m : s.cpu()) {
      md.append(' ').append(m.label()).append(" (").append(m.unit()).append(") |");
    }
    md.append("\n|---|").append("---:|".repeat(s.cpu().size())).append('\n');
    for (String t : results.targets(s.id())) {
      Results.Cell c = results.cell(s.id(), t);
      md.append("| ").append(name(t)).append(" |");
      for (Scenarios.Metric m : s.cpu()) {
        md.append(' ').append(value(c, m)).append(" |");
      }
      md.append('\n');
    }
  }

  private static String name(String t) {
    return isWsjava(t) ? "**" + t + "**" : t;
  }

  private static String value(Results.Cell c, Scenarios.Metric m) {
    Stats st = c.stats(m.key());
    return st == null ? (c.failures.isEmpty() ? "–" : "**failed**") : Format.stats(st, m.decimals());
  }

  /** The best target of a group on a metric (by median), or {@code null}. */
  private static String best(Scenarios.Scenario s, Scenarios.Metric m, Results results,
      java.util.function.Predicate<String> group) {
    String best = null;
    double bestValue = 0;
    for (String t : results.targets(s.id())) {
      Stats st = results.cell(s.id(), t).stats(m.key());
      if (!group.test(t) || st == null) {
        continue;
      }
      if (best == null || (m.higherIsBetter() ? st.median() > bestValue : st.median() < bestValue)) {
        best = t;
        bestValue = st.median();
      }
    }
    return best;
  }

  /**
   * Appends the ratios of each wsjava target to the best JVM peer and to the best native server,
   * metric by metric (medians), each with its verdict and, beside it, both sides' CPU time.
   *
   * @param md the report
   * @param s the scenario
   * @param results the figures
   */
  static void ratios(StringBuilder md, Scenarios.Scenario s, Results results) {
    List<String> ours = results.targets(s.id()).stream()
        .filter(t -> isWsjava(t) && !t.equals(JAKARTA) && !t.equals(JAKARTA_WHOLE)).toList();
    if (ours.isEmpty()) {
      return;
    }
    boolean natives = results.targets(s.id()).stream().anyMatch(Report::isNative);
    StringBuilder rows = new StringBuilder();
    List<Scenarios.Metric> metrics = new ArrayList<>(s.metrics());
    metrics.addAll(s.cpu());
    for (Scenarios.Metric m : metrics) {
      String jvm = best(s, m, results, Report::isJvmPeer);
      String nat = best(s, m, results, Report::isNative);
      if (jvm == null && nat == null) {
        continue;
      }
      rows.append("| ").append(m.label()).append(m.higherIsBetter() ? " ↑" : " ↓").append(" | ")
          .append(reference(s, m, jvm, results)).append(" |");
      for (String t : ours) {
        rows.append(' ').append(Format.cell(cell(s, m, t, jvm, results, Report::isJvmPeer))).append(" |");
      }
      if (natives) {
        rows.append(' ').append(reference(s, m, nat, results)).append(" |");
        for (String t : ours) {
          rows.append(' ').append(Format.cell(cell(s, m, t, nat, results, Report::isNative))).append(" |");
        }
      }
      rows.append('\n');
    }
    if (rows.isEmpty()) {
      return;
    }
    md.append("\nwsjava ÷ the best JVM peer").append(natives ? " and ÷ the best native server (C++, Go)" : "")
        .append(" (medians; ↑ higher is better, ↓ lower is better). A ratio is **even** when it is"
            + " within ±").append(Math.round(PARITY * 100)).append(" %, when the two targets'"
            + " run-to-run ranges overlap, or when the ratio taken run by run falls on both sides of"
            + " 1; else ahead or behind. Then, over several runs, the ratio taken in each run against"
            + " that run's best (median, spread, runs even or ahead), and both sides' CPU time per"
            + " unit for the two targets compared (wsjava first):\n\n| metric | best JVM peer |");
    for (String t : ours) {
      md.append(' ').append(t).append(" ÷ JVM |");
    }
    if (natives) {
      md.append(" best native |");
      for (String t : ours) {
        md.append(' ').append(t).append(" ÷ native |");
      }
    }
    int cols = ours.size() * (natives ? 2 : 1) + (natives ? 1 : 0);
    md.append("\n|---|---|").append("---:|".repeat(cols)).append('\n').append(rows);
  }

  /**
   * Appends the ratios of wsjava's Jakarta target to the best of the other Jakarta containers and
   * to wsjava's core API on the same scenario (issue 36: at least 1.5× the best container on 300 B
   * pipelined, within 10 % of the core API), metric by metric, with both sides' CPU beside.
   *
   * @param md the report
   * @param s the scenario
   * @param results the figures
   */
  static void jakartaRatios(StringBuilder md, Scenarios.Scenario s, Results results) {
    jakartaRatios(md, s, results, JAKARTA, t -> isJakartaPeer(t) && !t.endsWith(WHOLE));
    jakartaRatios(md, s, results, JAKARTA_WHOLE, t -> isJakartaPeer(t) && t.endsWith(WHOLE));
  }

  /** The Jakarta table of one endpoint form: wsjava's target and the containers of that form. */
  private static void jakartaRatios(StringBuilder md, Scenarios.Scenario s, Results results,
      String jakarta, java.util.function.Predicate<String> isPeer) {
    if (!results.targets(s.id()).contains(jakarta)) {
      return;
    }
    boolean core = results.targets(s.id()).contains(CORE);
    java.util.function.Predicate<String> isCore = CORE::equals;
    StringBuilder rows = new StringBuilder();
    List<Scenarios.Metric> metrics = new ArrayList<>(s.metrics());
    metrics.addAll(s.cpu());
    for (Scenarios.Metric m : metrics) {
      if (results.cell(s.id(), jakarta).stats(m.key()) == null) {
        continue;
      }
      String peer = best(s, m, results, isPeer);
      rows.append("| ").append(m.label()).append(m.higherIsBetter() ? " ↑" : " ↓").append(" | ")
          .append(reference(s, m, peer, results)).append(" | ")
          .append(Format.cell(cell(s, m, jakarta, peer, results, isPeer))).append(" |");
      if (core) {
        String c = results.cell(s.id(), CORE).stats(m.key()) == null ? null : CORE;
        rows.append(' ').append(reference(s, m, c, results)).append(" | ")
            .append(Format.cell(cell(s, m, jakarta, c, results, isCore))).append(" |");
      }
      rows.append('\n');
    }
    if (rows.isEmpty()) {
      return;
    }
    md.append("\nJakarta WebSocket: ").append(jakarta).append(" ÷ the best of the other Jakarta"
        + " containers (Tomcat, Jetty, Tyrus, the same annotated endpoint")
        .append(jakarta.equals(JAKARTA_WHOLE) ? ", whole messages)" : ")")
        .append(core ? " and ÷ wsjava's core API (" + CORE + ", the same scenario)" : "")
        .append(", read as the ratios above:\n\n| metric | best Jakarta container | ")
        .append(jakarta).append(" ÷ container |").append(core ? " core API | " + jakarta + " ÷ core |" : "")
        .append("\n|---|---|---:|").append(core ? "---|---:|" : "").append('\n').append(rows);
  }

  private static String reference(Scenarios.Scenario s, Scenarios.Metric m, String t, Results results) {
    if (t == null) {
      return "–";
    }
    return t + ' ' + Format.number(results.cell(s.id(), t).stats(m.key()).median(), m.decimals()) + ' '
        + m.unit();
  }

  /** One ratio cell: the ratio, its verdict, the per-run ratios, the CPU beside. */
  static String cell(Scenarios.Scenario s, Scenarios.Metric m, String ours, String ref, Results results,
      java.util.function.Predicate<String> group) {
    Stats o = results.cell(s.id(), ours).stats(m.key());
    if (ref == null || o == null) {
      return "–";
    }
    Stats r = results.cell(s.id(), ref).stats(m.key());
    if (r.median() == 0) {
      return "–";
    }
    double ratio = o.median() / r.median();
    List<Double> perRun = perRunRatios(s, m, ours, results, group);
    StringBuilder sb = new StringBuilder(Format.number(ratio, 2)).append("× ")
        .append(verdict(ratio, o, r, perRun, m.higherIsBetter()));
    sb.append(perRunText(perRun, m.higherIsBetter()));
    sb.append(cpuBeside(s, m, ours, ref, results));
    return sb.toString();
  }

  /**
   * Says whether a ratio is a lead: even inside {@link #PARITY}, when the run-to-run ranges of the
   * two targets overlap, or when the per-run ratios fall on both sides of 1.
   *
   * @param ratio ours ÷ the reference, medians
   * @param ours our figures
   * @param ref the reference's
   * @param perRun the ratio run by run (may be empty)
   * @param higherIsBetter the metric's direction
   * @return {@code **ahead**}, {@code even} or {@code behind}
   */
  static String verdict(double ratio, Stats ours, Stats ref, List<Double> perRun, boolean higherIsBetter) {
    boolean overlap = ours.runs() > 1 && ref.runs() > 1 && ours.min() <= ref.max() && ref.min() <= ours.max();
    boolean bothSides = perRun.stream().anyMatch(x -> x > 1) && perRun.stream().anyMatch(x -> x < 1);
    double shown = Math.round(ratio * 100) / 100.0; // as printed: 1.05× is within 5 %
    if (Math.abs(shown - 1) <= PARITY + 1e-9 || overlap || bothSides) {
      return "even";
    }
    return (ratio > 1) == higherIsBetter ? "**ahead**" : "behind";
  }

  /** The ratio of a wsjava target to the best of a group, run by run. */
  private static List<Double> perRunRatios(Scenarios.Scenario s, Scenarios.Metric m, String ours,
      Results results, java.util.function.Predicate<String> group) {
    Results.Cell cell = results.cell(s.id(), ours);
    List<Double> ratios = new ArrayList<>();
    for (int run : cell.values.getOrDefault(m.key(), Map.of()).keySet()) {
      Double best = null;
      for (String t : results.targets(s.id())) {
        Double v = group.test(t) ? results.cell(s.id(), t).value(m.key(), run) : null;
        if (v != null && (best == null || (m.higherIsBetter() ? v > best : v < best))) {
          best = v;
        }
      }
      if (best != null && best != 0) {
        ratios.add(cell.value(m.key(), run) / best);
      }
    }
    return ratios;
  }

  /**
   * Describes per-run ratios: {@code · per run MEDIAN× (MIN–MAX), even or ahead in K of N}.
   *
   * @param ratios one ratio per run
   * @param higherIsBetter the metric's direction
   * @return the text, empty for fewer than two runs
   */
  static String perRunText(List<Double> ratios, boolean higherIsBetter) {
    if (ratios.size() < 2) {
      return "";
    }
    int evenOrAhead = 0;
    for (double ratio : ratios) {
      double shown = Math.round(ratio * 100) / 100.0; // even as printed: 12.1 B against 12.1 B
      if (higherIsBetter ? shown >= 1 : shown <= 1) {
        evenOrAhead++;
      }
    }
    Stats st = Stats.of(ratios);
    return " · per run " + Format.number(st.median(), 2) + "× (" + Format.number(st.min(), 2) + "–"
        + Format.number(st.max(), 2) + "), even or ahead in " + evenOrAhead + " of " + ratios.size();
  }

  /** Both sides' CPU time per unit of the two targets compared, when the metric names them. */
  private static String cpuBeside(Scenarios.Scenario s, Scenarios.Metric m, String ours, String ref,
      Results results) {
    StringBuilder sb = new StringBuilder();
    for (String[] side : new String[][] {{"server", m.serverCpu()}, {"client", m.clientCpu()}}) {
      if (side[1] == null) {
        continue;
      }
      Stats a = results.cell(s.id(), ours).stats(side[1]);
      Stats b = results.cell(s.id(), ref).stats(side[1]);
      if (a == null || b == null) {
        continue;
      }
      Scenarios.Metric unit = s.cpu().stream().filter(c -> c.key().equals(side[1])).findFirst().orElse(null);
      String u = unit == null ? "" : " " + unit.unit();
      sb.append(sb.isEmpty() ? " · CPU " : ", ").append(side[0]).append(' ')
          .append(Format.number(a.median(), 2)).append(" vs ").append(Format.number(b.median(), 2)).append(u);
    }
    return sb.toString();
  }
}
