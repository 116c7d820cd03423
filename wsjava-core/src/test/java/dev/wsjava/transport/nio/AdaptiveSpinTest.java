package dev.wsjava.transport.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The event loop's adaptive spin, turn by turn: no clock, no scheduler. */
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
  void aSpinThatFindsWorkRestoresTheWholeSpin() {
    AdaptiveSpin b = spin(64);
    b.foundNothing();
    b.foundNothing();
    assertThat(b.windowNanos()).isEqualTo(12_500L);
    b.found();
    assertThat(b.windowNanos()).isEqualTo(50 * US);
    // Steady hits (one message in flight, pipelined load): the window never moves.
    for (int i = 0; i < 100; i++) {
      b.found();
      assertThat(b.windowNanos()).isEqualTo(50 * US);
    }
  }

  @Test
  void aPeerThatKeepsMissingCostsTheFloorPerSpinNotTheWholeSpin() {
    AdaptiveSpin b = spin(64);
    long polled = 0;
    int spun = 0;
    for (int turn = 0; turn < 200; turn++) {
      if (b.maySpin()) {
        spun++;
        polled += b.windowNanos();
        b.foundNothing();
      }
    }
    // 9 spins of 50, 25, 12.5, 6.25, then 5 x 5 us: 118.75 us polled in 200 turns, not 9 x 50 us.
    assertThat(spun).isEqualTo(9);
    assertThat(polled).isEqualTo(50 * US + 25 * US + 12_500 + 6_250 + 5 * 5 * US);
  }

  @Test
  void aFloorAtTheSpinKeepsTheWindowFixed() {
    AdaptiveSpin fixed = new AdaptiveSpin(64, 50 * US, 50 * US);
    fixed.foundNothing();
    assertThat(fixed.windowNanos()).isEqualTo(50 * US);
    fixed.found();
    assertThat(fixed.windowNanos()).isEqualTo(50 * US);
    // A floor above the spin is the spin.
    assertThat(new AdaptiveSpin(64, 80 * US, 50 * US).windowNanos()).isEqualTo(50 * US);
  }
}
