package dev.wsjava.transport.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The event loop's spin back-off, turn by turn: no clock, no scheduler. */
class SpinBackoffTest {

  /** The turns (1-based) that spin when every spin finds nothing. */
  static List<Integer> spinningTurns(SpinBackoff b, int turns) {
    List<Integer> spun = new ArrayList<>();
    for (int turn = 1; turn <= turns; turn++) {
      if (b.maySpin()) {
        spun.add(turn);
        b.foundNothing();
      }
    }
    return spun;
  }

  @Test
  void fruitlessSpinsSkipOneTurnThenTwiceAsManyEachTimeUpToTheCap() {
    // Skips of 1, 2, 4, 8, 16, 32, then 64, 64: a quiet loop spins on 8 turns of 200, not 200.
    assertThat(spinningTurns(new SpinBackoff(64), 200))
        .containsExactly(1, 3, 6, 11, 20, 37, 70, 135, 200);
  }

  @Test
  void theCapIsTheMostTurnsInARowThatSkip() {
    assertThat(spinningTurns(new SpinBackoff(3), 20)).containsExactly(1, 3, 6, 10, 14, 18);
    assertThat(spinningTurns(new SpinBackoff(0), 5)).containsExactly(1, 2, 3, 4, 5);
  }

  @Test
  void aSpinThatFindsWorkStartsOver() {
    SpinBackoff b = new SpinBackoff(64);
    assertThat(spinningTurns(b, 37)).endsWith(20, 37); // skipping 32 turns next
    assertThat(b.maySpin()).isFalse();
    // Steady load: each spin finds work, so every turn spins.
    SpinBackoff busy = new SpinBackoff(64);
    for (int turn = 0; turn < 100; turn++) {
      assertThat(busy.maySpin()).as("turn " + turn).isTrue();
      busy.found();
    }
    // One fruitful spin after fruitless ones: the next fruitless one skips a single turn again.
    busy.foundNothing();
    busy.foundNothing();
    busy.found();
    assertThat(busy.maySpin()).isTrue();
    busy.foundNothing();
    assertThat(busy.maySpin()).isFalse();
    assertThat(busy.maySpin()).isTrue();
  }
}
