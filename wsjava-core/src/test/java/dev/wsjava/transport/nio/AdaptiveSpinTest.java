package dev.wsjava.transport.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The event loop's adaptive spin, turn by turn: the waits are passed in, no clock, no scheduler. */
class AdaptiveSpinTest {
  private static final long US = 1_000;

  /** The turns (1-based) that spin when every spin finds nothing. */
  static List<Integer> spinningTurns(AdaptiveSpin b, int turns) {
    List<Integer> spun = new ArrayList<>();
    for (int turn = 1; turn <= turns; turn++) {
      if (b.maySpin()) {
        spun.add(turn);
        b.foundNothing();
      }
    }
    return spun;
  }

  private static AdaptiveSpin spin(int maxSkips) {
    return new AdaptiveSpin(maxSkips, 5 * US, 50 * US);
  }

  @Test
  void fruitlessSpinsSkipOneTurnThenTwiceAsManyEachTimeUpToTheCap() {
    // Skips of 1, 2, 4, 8, 16, 32, then 64, 64: a quiet loop spins on 8 turns of 200, not 200.
    assertThat(spinningTurns(spin(64), 200)).containsExactly(1, 3, 6, 11, 20, 37, 70, 135, 200);
  }

  @Test
  void theCapIsTheMostTurnsInARowThatSkip() {
    assertThat(spinningTurns(spin(3), 20)).containsExactly(1, 3, 6, 10, 14, 18);
    assertThat(spinningTurns(spin(0), 5)).containsExactly(1, 2, 3, 4, 5);
  }

  @Test
  void aSpinThatFindsWorkStartsOver() {
    AdaptiveSpin b = spin(64);
    assertThat(spinningTurns(b, 37)).endsWith(20, 37); // skipping 32 turns next
    assertThat(b.maySpin()).isFalse();
    // Steady load: each spin finds work, so every turn spins.
    AdaptiveSpin busy = spin(64);
    for (int turn = 0; turn < 100; turn++) {
      assertThat(busy.maySpin()).as("turn " + turn).isTrue();
      busy.found(10 * US);
    }
    // One fruitful spin after fruitless ones: the next fruitless one skips a single turn again.
    busy.foundNothing();
    busy.foundNothing();
    busy.found(10 * US);
    assertThat(busy.maySpin()).isTrue();
    busy.foundNothing();
    assertThat(busy.maySpin()).isFalse();
    assertThat(busy.maySpin()).isTrue();
  }

  @Test
  void theWindowStartsAtTheConfiguredSpin() {
    assertThat(spin(64).windowNanos()).isEqualTo(50 * US);
  }

  @Test
  void fruitlessSpinsHalveTheWindowDownToTheFloor() {
    AdaptiveSpin b = spin(64);
    List<Long> windows = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      b.foundNothing();
      windows.add(b.windowNanos());
    }
    assertThat(windows).containsExactly(25 * US, 12_500L, 6_250L, 5 * US, 5 * US, 5 * US);
  }

  @Test
  void aPeerThatAnswersSoonPullsTheWindowToFourTimesItsWait() {
    AdaptiveSpin b = spin(64);
    // Each step moves a sixteenth of the way from the window towards 4 x 8 us = 32 us.
    b.found(8 * US);
    assertThat(b.windowNanos()).isEqualTo(50 * US - (18 * US >> 4));
    for (int i = 0; i < 400; i++) {
      b.found(8 * US);
    }
    // Integer steps stop within 16 ns of the target.
    assertThat(b.windowNanos()).isBetween(32 * US, 32 * US + 16);
  }

  @Test
  void aPeerThatAnswersWithinAQuarterOfTheSpinKeepsAllOfIt() {
    AdaptiveSpin b = spin(64);
    for (int i = 0; i < 400; i++) {
      b.found(15 * US); // 4 x 15 us is more than the spin
    }
    assertThat(b.windowNanos()).isEqualTo(50 * US);
  }

  @Test
  void workFoundInTheWindowsUpperHalfDoublesIt() {
    AdaptiveSpin b = spin(64);
    for (int i = 0; i < 400; i++) {
      b.found(2 * US); // towards 8 us
    }
    assertThat(b.windowNanos()).isBetween(8 * US, 8 * US + 16);
    b.found(5 * US); // 5 of about 8: late, so the window was tight
    assertThat(b.windowNanos()).isBetween(16 * US, 16 * US + 32);
    b.found(9 * US);
    assertThat(b.windowNanos()).isBetween(32 * US, 32 * US + 64);
    b.found(20 * US);
    assertThat(b.windowNanos()).as("bounded by the configured spin").isEqualTo(50 * US);
  }

  @Test
  void theWindowNeverLeavesItsBounds() {
    AdaptiveSpin b = spin(64);
    for (int i = 0; i < 400; i++) {
      b.found(0);
    }
    assertThat(b.windowNanos()).isEqualTo(5 * US);
    for (int i = 0; i < 10; i++) {
      b.found(Long.MAX_VALUE / 4);
    }
    assertThat(b.windowNanos()).isEqualTo(50 * US);
    b.found(-1); // a clock that went backwards counts as no wait
    assertThat(b.windowNanos()).isLessThan(50 * US);
  }

  @Test
  void aFloorAtTheSpinKeepsTheWindowFixed() {
    AdaptiveSpin fixed = new AdaptiveSpin(64, 50 * US, 50 * US);
    fixed.found(1 * US);
    fixed.foundNothing();
    fixed.found(40 * US);
    assertThat(fixed.windowNanos()).isEqualTo(50 * US);
    // A floor above the spin is the spin.
    assertThat(new AdaptiveSpin(64, 80 * US, 50 * US).windowNanos()).isEqualTo(50 * US);
  }
}
