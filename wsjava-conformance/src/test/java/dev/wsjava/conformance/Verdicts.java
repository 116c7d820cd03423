package dev.wsjava.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Test helper: checks that a run played exactly the cases of the catalogue it selected, prints its
 * verdict counts (and which cases were NON-STRICT or INFORMATIONAL), then asserts that no case
 * FAILED, naming each failure and its reason.
 */
final class Verdicts {
  private Verdicts() {}

  /** The patterns of {@code -Dconformance.cases}, or none (every case). */
  static List<String> selected() {
    String only = System.getProperty("conformance.cases");
    return only == null ? List.of() : List.of(only.split(","));
  }

  /** The run holds one result per case the catalogue selects, in catalogue order, and no other. */
  static void assertRanTheCatalogue(List<Result> results, boolean full) {
    List<String> expected =
        Catalogue.select(Catalogue.all(full), selected(), List.of()).stream().map(Case::id).toList();
    assertThat(expected).isNotEmpty();
    assertThat(results).extracting(Result::id).containsExactlyElementsOf(expected);
  }

  static void assertNoneFailed(String peer, List<Result> results) {
    System.out.println(peer + ": " + Report.summary(results));
    for (Verdict v : List.of(Verdict.NON_STRICT, Verdict.INFORMATIONAL)) {
      List<Result> these = results.stream().filter(r -> r.verdict() == v).toList();
      if (!these.isEmpty()) {
        System.out.println("  " + v.label() + ": " + these.stream().map(Result::id)
            .collect(Collectors.joining(", ")));
        these.stream().map(Result::reason).distinct().limit(3)
            .forEach(reason -> System.out.println("    for example: " + reason));
      }
    }
    String failed = results.stream()
        .filter(r -> r.verdict() == Verdict.FAILED)
        .map(r -> r.id() + ": " + r.reason())
        .collect(Collectors.joining("\n  "));
    assertThat(failed).as(peer + " FAILED these cases:\n  " + failed).isEmpty();
  }

  /** Asserts that every case of a group that ran is OK: not UNIMPLEMENTED, not NON-STRICT. */
  static void assertGroupAllOk(String peer, List<Result> results, int group) {
    String notOk = results.stream()
        .filter(r -> r.id().startsWith(group + ".") && r.verdict() != Verdict.OK)
        .map(r -> r.id() + " " + r.verdict().label() + ": " + r.reason())
        .collect(Collectors.joining("\n  "));
    assertThat(notOk).as(peer + ", group " + group + " not OK:\n  " + notOk).isEmpty();
  }
}
