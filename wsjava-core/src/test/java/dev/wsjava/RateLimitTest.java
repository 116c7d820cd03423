package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RateLimitTest {
  static final long S = 1_000_000_000L;

  @Test
  void aBurstOfCountPassesThenTheNextWaitsOneInterval() {
    RateLimit rate = RateLimit.of(4, Duration.ofSeconds(2)); // one per 0.5 s
    RateLimit.Bucket b = new RateLimit.Bucket();
    long t = -7 * S; // nanoTime may be negative
    for (int i = 0; i < 4; i++) {
      assertThat(b.take(rate, t)).as("event %d of the burst", i).isZero();
    }
    assertThat(b.take(rate, t)).isEqualTo(S / 2);
    assertThat(b.take(rate, t + S / 2 - 1)).isEqualTo(1);
    assertThat(b.take(rate, t + S / 2)).isZero();
    assertThat(b.take(rate, t + S / 2)).isEqualTo(S / 2);
  }

  @Test
  void aSteadyRateAtTheLimitAlwaysPassesAndAnIdleBucketRefills() {
    RateLimit rate = RateLimit.of(10, Duration.ofSeconds(1));
    RateLimit.Bucket b = new RateLimit.Bucket();
    for (long t = 0; t < 5 * S; t += S / 10) {
      assertThat(b.take(rate, t)).isZero();
    }
    assertThat(b.idle(5 * S)).isTrue();
    for (int i = 0; i < 10; i++) {
      assertThat(b.take(rate, 7 * S)).isZero();
    }
    assertThat(b.idle(7 * S)).isFalse();
    assertThat(b.take(rate, 7 * S)).isPositive();
  }

  @Test
  void aRateNeedsAnEventAndAWindow() {
    assertThatThrownBy(() -> RateLimit.of(0, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RateLimit.of(1, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
