package dev.wsjava.bench.e2e;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every value measured in a suite run, by scenario, target and metric (one value per run), and every
 * failure, so that a target that failed is shown failed and never silently dropped. Not
 * thread-safe.
 */
final class Results {
  /** One target's figures in one scenario. */
  static final class Cell {
    final Map<String, List<Double>> values = new LinkedHashMap<>();
    final Set<String> failures = new LinkedHashSet<>();
    final Set<String> notes = new LinkedHashSet<>();

    /**
     * Summarizes one metric.
     *
     * @param metric the metric's key
     * @return its stats, or {@code null} when never measured
     */
    Stats stats(String metric) {
      List<Double> v = values.get(metric);
      return v == null || v.isEmpty() ? null : Stats.of(v);
    }
  }

  private final Map<String, Map<String, Cell>> cells = new LinkedHashMap<>();

  Cell cell(String scenario, String target) {
    return cells.computeIfAbsent(scenario, s -> new LinkedHashMap<>())
        .computeIfAbsent(target, t -> new Cell());
  }

  void add(String scenario, String target, String metric, double value) {
    cell(scenario, target).values.computeIfAbsent(metric, m -> new ArrayList<>()).add(value);
  }

  void fail(String scenario, String target, String why) {
    cell(scenario, target).failures.add(why);
  }

  void note(String scenario, String target, String note) {
    cell(scenario, target).notes.add(note);
  }

  /**
   * Returns the targets that took part in a scenario, in the order they first appeared.
   *
   * @param scenario the scenario's id
   * @return target names
   */
  List<String> targets(String scenario) {
    return new ArrayList<>(cells.getOrDefault(scenario, Map.of()).keySet());
  }

  boolean has(String scenario) {
    return cells.containsKey(scenario);
  }
}
