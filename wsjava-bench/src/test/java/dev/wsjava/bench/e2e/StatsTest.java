package dev.wsjava.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatsTest {

  @Test
  void theMedianOfAnOddCountIsTheMiddleValueWhateverTheOrder() {
    Stats s = Stats.of(List.of(30.0, 10.0, 20.0));
    assertThat(s.median()).isEqualTo(20.0);
    assertThat(s.min()).isEqualTo(10.0);
    assertThat(s.max()).isEqualTo(30.0);
    assertThat(s.runs()).isEqualTo(3);
    assertThat(s.relativeSpread()).isEqualTo(1.0);
  }

  @Test
  void theMedianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
    assertThat(Stats.of(List.of(4.0, 1.0, 3.0, 2.0)).median()).isEqualTo(2.5);
  }

  @Test
  void oneRunIsItsOwnMedianWithNoSpread() {
    Stats s = Stats.of(List.of(7.0));
    assertThat(s).isEqualTo(new Stats(7.0, 7.0, 7.0, 1));
    assertThat(s.relativeSpread()).isZero();
  }

  @Test
  void noValueIsRefused() {
    assertThatThrownBy(() -> Stats.of(List.of())).isInstanceOf(IllegalArgumentException.class);
  }
}
