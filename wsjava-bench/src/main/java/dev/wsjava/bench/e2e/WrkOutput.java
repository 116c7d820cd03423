package dev.wsjava.bench.e2e;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What scenario 7 reads from wrk's report: requests per second, mean latency, and whether every
 * response was a 2xx/3xx without socket errors.
 *
 * @param requestsPerSecond the {@code Requests/sec} line
 * @param latencyAvgMicros the mean of the {@code Latency} line, in microseconds
 * @param requests the total of the {@code N requests in} line
 * @param non2xx the {@code Non-2xx or 3xx responses} count (0 when absent)
 * @param socketErrors connect + read + write + timeout errors (0 when absent)
 */
record WrkOutput(
    double requestsPerSecond, double latencyAvgMicros, long requests, long non2xx, long socketErrors) {

  private static final Pattern RPS = Pattern.compile("(?m)^Requests/sec:\\s+([0-9.]+)");
  private static final Pattern LATENCY =
      Pattern.compile("(?m)^\\s+Latency\\s+([0-9.]+)(us|ms|s|m)\\b");
  private static final Pattern REQUESTS = Pattern.compile("(?m)^\\s+(\\d+) requests in ");
  private static final Pattern NON_2XX = Pattern.compile("(?m)^\\s+Non-2xx or 3xx responses:\\s+(\\d+)");
  private static final Pattern ERRORS = Pattern.compile(
      "(?m)^\\s+Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");

  /**
   * Parses wrk's standard report.
   *
   * @param text wrk's standard output
   * @return the figures
   * @throws IllegalArgumentException when the text has no {@code Requests/sec} or latency line
   */
  static WrkOutput parse(String text) {
    Matcher rps = RPS.matcher(text);
    Matcher lat = LATENCY.matcher(text);
    if (!rps.find() || !lat.find()) {
      throw new IllegalArgumentException("not a wrk report: " + text.strip().lines().findFirst().orElse(""));
    }
    double value = Double.parseDouble(lat.group(1));
    double micros = switch (lat.group(2)) {
      case "us" -> value;
      case "ms" -> value * 1e3;
      case "s" -> value * 1e6;
      default -> value * 60e6;
    };
    Matcher req = REQUESTS.matcher(text);
    long requests = req.find() ? Long.parseLong(req.group(1)) : 0;
    Matcher non = NON_2XX.matcher(text);
    long non2xx = non.find() ? Long.parseLong(non.group(1)) : 0;
    Matcher err = ERRORS.matcher(text);
    long errors = 0;
    if (err.find()) {
      for (int i = 1; i <= 4; i++) {
        errors += Long.parseLong(err.group(i));
      }
    }
    return new WrkOutput(Double.parseDouble(rps.group(1)), micros, requests, non2xx, errors);
  }

  /**
   * Says why the run does not count, if it does not: no request done, or a response not 2xx/3xx.
   *
   * @return a reason, or {@code null} when every request succeeded
   */
  String problem() {
    if (requests == 0) {
      return "wrk completed no request";
    }
    if (non2xx > 0) {
      return non2xx + " of " + requests + " responses were not 2xx/3xx";
    }
    return null; // socket errors (often read errors as wrk stops) are reported, not disqualifying
  }
}
