package dev.wsjava.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShrinkTest {

  @Test
  void aCaseThatHoldsPassesSilently() {
    assertThatCode(() -> Shrink.check(1, List.of(1, 2, 3), List::toString,
        p -> assertThat(p).doesNotContain(7))).doesNotThrowAnyException();
  }

  @Test
  void aFailingCaseIsReportedAsTheFewestPartsThatStillFailWithItsSeed() {
    // Fails when a 7 comes after a 3 somewhere: the smallest failing case is [3, 7].
    assertThatThrownBy(() -> Shrink.check(42, List.of(1, 3, 5, 8, 2, 7, 9, 4), List::toString,
        p -> assertThat(p.indexOf(3) >= 0 && p.lastIndexOf(7) > p.indexOf(3)).isFalse()))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("seed 42 (rerun with -Dwsjava.seed=42)")
        .hasMessageContaining("(2 of 8 parts): [3, 7]")
        .cause().isInstanceOf(AssertionError.class);
  }

  @Test
  void shrinkingTriesOnlyValidCases() {
    // Valid cases keep their first part; the property fails on any case holding a 5.
    assertThatThrownBy(() -> Shrink.check(7, List.of(0, 1, 5, 2), p -> p.contains(0),
        List::toString, p -> assertThat(p).doesNotContain(5)))
        .hasMessageContaining("(2 of 4 parts): [0, 5]");
  }

  @Test
  void anExceptionOfTheCodeUnderTestIsAFailureToo() {
    assertThatThrownBy(() -> Shrink.check(3, List.of("a", "boom", "c"), List::toString, p -> {
      if (p.contains("boom")) {
        throw new IllegalStateException("boom");
      }
    })).hasMessageContaining("(1 of 3 parts): [boom]").cause().hasMessage("boom");
  }
}
