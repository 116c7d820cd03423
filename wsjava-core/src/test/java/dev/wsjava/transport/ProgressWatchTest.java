package dev.wsjava.transport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The slow-trickle rule, on the caller's clock. */
class ProgressWatchTest {
  static final long S = 1_000_000_000L;

  final ProgressWatch watch = new ProgressWatch(30 * S, 30 * 1024);

  @Test
  void aByteEveryFewSecondsInsideAMessageIsTooSlowAfterOneWindow() {
    long t = 1_000;
    assertThat(watch.received(t, 14, true)).isNull(); // a 16 MiB header, and the message begins
    String reason = null;
    for (int i = 1; i <= 10 && reason == null; i++) {
      reason = watch.received(t + i * 5 * S, 1, true);
    }
    assertThat(reason).startsWith("too slow: 6 bytes in 30000 ms");
  }

  @Test
  void aPeerThatSendsNothingInsideAMessageIsCaughtByTheTimer() {
    watch.received(0, 100, true);
    assertThat(watch.check(30 * S - 1)).isNull();
    assertThat(watch.check(30 * S)).contains("too slow: 0 bytes");
  }

  @Test
  void enoughBytesPerWindowKeepItGoingWindowAfterWindow() {
    long t = 0;
    watch.received(t, 1, true);
    for (int w = 1; w <= 10; w++) {
      assertThat(watch.received(t + w * 30 * S, 30 * 1024, true)).isNull();
    }
  }

  @Test
  void betweenMessagesNothingIsRequired() {
    watch.received(0, 100, true);
    assertThat(watch.received(1, 100, false)).isNull(); // the message ended
    assertThat(watch.watching()).isFalse();
    assertThat(watch.check(3600 * S)).isNull();
  }

  @Test
  void timeThisEndDidNotReadIsNotHeldAgainstThePeer() {
    watch.received(0, 100, true);
    watch.restart(29 * S); // reading resumes after a pause
    assertThat(watch.check(58 * S)).isNull();
    assertThat(watch.check(59 * S)).isNotNull();
  }

  @Test
  void aZeroMinimumTurnsTheRuleOff() {
    ProgressWatch off = new ProgressWatch(30 * S, 0);
    off.received(0, 1, true);
    assertThat(off.received(3600 * S, 1, true)).isNull();
    assertThat(off.enabled()).isFalse();
  }
}
