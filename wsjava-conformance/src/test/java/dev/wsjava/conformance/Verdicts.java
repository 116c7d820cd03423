package dev.wsjava.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;

/** Test helper: asserts a run has no FAILED case, naming each failure and its reason. */
final class Verdicts {
  private Verdicts() {}

  static void assertNoneFailed(String peer, List<Result> results) {
    System.out.println(peer + ": " + Report.summary(results));
    results.stream()
        .filter(r -> r.verdict() == Verdict.NON_STRICT || r.verdict() == Verdict.INFORMATIONAL)
        .forEach(r -> System.out.println("  " + r.line()));
    String failed = results.stream()
        .filter(r -> r.verdict() == Verdict.FAILED)
        .map(r -> r.id() + ": " + r.reason())
        .collect(Collectors.joining("\n  "));
    assertThat(failed).as(peer + " FAILED these cases:\n  " + failed).isEmpty();
  }
}
