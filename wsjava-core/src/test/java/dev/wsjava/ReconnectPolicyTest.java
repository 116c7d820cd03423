package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReconnectPolicyTest {
  static final ReconnectPolicy EXACT =
      ReconnectPolicy.defaults()
          .withInitialDelay(Duration.ofMillis(100))
          .withMaxDelay(Duration.ofMillis(1000))
          .withJitter(0);

  @Test
  void waitsGrowByTheMultiplierUpToTheMaximum() {
    assertThat(EXACT.delay(1, 0.7)).isEqualTo(Duration.ofMillis(100));
    assertThat(EXACT.delay(2, 0.7)).isEqualTo(Duration.ofMillis(200));
    assertThat(EXACT.delay(4, 0.7)).isEqualTo(Duration.ofMillis(800));
    assertThat(EXACT.delay(5, 0.7)).isEqualTo(Duration.ofMillis(1000));
    assertThat(EXACT.delay(Integer.MAX_VALUE, 0.7)).isEqualTo(Duration.ofMillis(1000));
    assertThat(EXACT.withMultiplier(1).delay(9, 0)).isEqualTo(Duration.ofMillis(100));
  }

  @Test
  void jitterTakesARandomFractionOffTheWait() {
    ReconnectPolicy full = EXACT.withJitter(1);
    assertThat(full.delay(2, 0.0)).isEqualTo(Duration.ofMillis(200));
    assertThat(full.delay(2, 0.5)).isEqualTo(Duration.ofMillis(100));
    assertThat(full.delay(2, 0.999)).isLessThan(Duration.ofMillis(1));
    ReconnectPolicy half = EXACT.withJitter(0.5);
    assertThat(half.delay(2, 0.999)).isBetween(Duration.ofMillis(100), Duration.ofMillis(101));
  }

  @Test
  void theDefaultsAreDocumented() {
    ReconnectPolicy d = ReconnectPolicy.defaults();
    assertThat(d.initialDelay()).isEqualTo(Duration.ofMillis(500));
    assertThat(d.maxDelay()).isEqualTo(Duration.ofSeconds(30));
    assertThat(d.multiplier()).isEqualTo(2.0);
    assertThat(d.jitter()).isEqualTo(0.5);
    assertThat(d.maxAttempts()).isZero();
  }

  @Test
  void refusesValuesThatMakeNoSense() {
    assertThatThrownBy(() -> EXACT.withInitialDelay(Duration.ZERO)).hasMessageContaining("initialDelay");
    assertThatThrownBy(() -> EXACT.withMaxDelay(Duration.ofMillis(50))).hasMessageContaining("at least initialDelay");
    assertThatThrownBy(() -> EXACT.withMultiplier(0.5)).hasMessageContaining("multiplier");
    assertThatThrownBy(() -> EXACT.withMultiplier(Double.NaN)).hasMessageContaining("multiplier");
    assertThatThrownBy(() -> EXACT.withJitter(1.5)).hasMessageContaining("jitter");
    assertThatThrownBy(() -> EXACT.withMaxAttempts(-1)).hasMessageContaining("maxAttempts");
    assertThatThrownBy(() -> EXACT.delay(0, 0)).hasMessageContaining("from 1");
  }
}
