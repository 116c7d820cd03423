package dev.wsjava.bench.e2e;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The summary of one measured point over its runs: median, and the spread as minimum and maximum.
 *
 * @param median the middle value (the mean of the two middle ones for an even count)
 * @param min the smallest
 * @param max the largest
 * @param runs how many values
 */
record Stats(double median, double min, double max, int runs) {

  /**
   * Summarizes values.
   *
   * @param values one per run, at least one
   * @return the summary
   */
  static Stats of(List<Double> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no values");
    }
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    return new Stats(median, sorted.get(0), sorted.get(n - 1), n);
  }

  /**
   * Returns the spread relative to the median.
   *
   * @return (max - min) / median, 0 for a median of 0
   */
  double relativeSpread() {
    return median == 0 ? 0 : (max - min) / Math.abs(median);
  }
}
