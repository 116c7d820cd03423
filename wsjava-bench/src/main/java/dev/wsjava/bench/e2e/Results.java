package dev.wsjava.bench.e2e;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every value measured in a suite run, by scenario, target, metric and run, and every failure, so
 * that a target that failed is shown failed and never silently dropped. Values are filed under the
 * run that measured them, so targets can also be compared run by run. Not thread-safe.
 */
final class Results {
  /** One target's figures in one scenario. */
  static final class Cell {
    /** Metric to its values by run, in the order they were measured. */
    final Map<String, Map<Integer, Double>> values = new LinkedHashMap<>();
    final Set<String> failures = new LinkedHashSet<>();
    final Set<String> notes = new LinkedHashSet<>();

    /**
     * Summarizes one metric.
     *
     * @param metric the metric's key
     * @return its stats, or {@code null} when never measured
     */
    Stats stats(String metric) {
      Map<Integer, Double> v = values.get(metric);
      return v == null || v.isEmpty() ? null : Stats.of(new ArrayList<>(v.values()));
    }

    /**
     * Returns one run's value of a metric.
     *
     * @param metric the metric's key
     * @param run the run, from 1
     * @return the value, or {@code null} when that run did not measure it
     */
    Double value(String metric, int run) {
      return values.getOrDefault(metric, Map.of()).get(run);
    }
  }

  private final Map<String, Map<String, Cell>> cells = new LinkedHashMap<>();
  private int run = 1;

  /**
   * Files the values added from now on under a run.
   *
   * @param run the run, from 1
   */
  void startRun(int run) {
    this.run = run;
  }

  /**
   * Returns the run values are filed under now.
   *
   * @return the run, from 1
   */
  int run() {
    return run;
  }

  Cell cell(String scenario, String target) {
    return cells.computeIfAbsent(scenario, s -> new LinkedHashMap<>())
        .computeIfAbsent(target, t -> new Cell());
  }

  void add(String scenario, String target, String metric, double value) {
    Double before = cell(scenario, target).values.computeIfAbsent(metric, m -> new LinkedHashMap<>())
        .putIfAbsent(run, value);
    if (before != null) {
      throw new IllegalStateException(
          "run " + run + " measured " + target + " " + metric + " in scenario " + scenario + " twice");
    }
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
