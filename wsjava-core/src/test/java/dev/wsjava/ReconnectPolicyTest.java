package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReconnectPolicyTest {
  static final ReconnectPolicy EXACT =
      ReconnectPolicy.builder()
          .initialDelay(Duration.ofMillis(100))
          .maxDelay(Duration.ofMillis(1000))
          .jitter(0)
          .build();

  @Test
  void waitsGrowByTheMultiplierUpToTheMaximum() {
    assertThat(EXACT.delay(1, 0.7)).isEqualTo(Duration.ofMillis(100));
    assertThat(EXACT.delay(2, 0.7)).isEqualTo(Duration.ofMillis(200));
    assertThat(EXACT.delay(4, 0.7)).isEqualTo(Duration.ofMillis(800));
    assertThat(EXACT.delay(5, 0.7)).isEqualTo(Duration.ofMillis(1000));
    assertThat(EXACT.delay(Integer.MAX_VALUE, 0.7)).isEqualTo(Duration.ofMillis(1000));
    assertThat(EXACT.toBuilder().multiplier(1).build().delay(9, 0)).isEqualTo(Duration.ofMillis(100));
  }

  @Test
  void jitterTakesARandomFractionOffTheWait() {
    ReconnectPolicy full = EXACT.toBuilder().jitter(1).build();
    assertThat(full.delay(2, 0.0)).isEqualTo(Duration.ofMillis(200));
    assertThat(full.delay(2, 0.5)).isEqualTo(Duration.ofMillis(100));
    assertThat(full.delay(2, 0.999)).isLessThan(Duration.ofMillis(1));
    ReconnectPolicy half = EXACT.toBuilder().jitter(0.5).build();
    assertThat(half.delay(2, 0.999)).isBetween(Duration.ofMillis(100), Duration.ofMillis(101));
  }

  @Test
  void aPolicyEqualsAnotherWithTheSameSettingsAndComesBackFromItsBuilder() {
    assertThat(EXACT.toBuilder().build()).isEqualTo(EXACT).hasSameHashCodeAs(EXACT);
    assertThat(EXACT.toBuilder().maxAttempts(3).build()).isNotEqualTo(EXACT);
    assertThat(ReconnectPolicy.builder().build()).isEqualTo(ReconnectPolicy.defaults());
    assertThat(EXACT.toString()).contains("initialDelay=PT0.1S", "jitter=0.0");
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
    assertThatThrownBy(() -> EXACT.toBuilder().initialDelay(Duration.ZERO).build()).hasMessageContaining("initialDelay");
    assertThatThrownBy(() -> EXACT.toBuilder().maxDelay(Duration.ofMillis(50)).build()).hasMessageContaining("at least initialDelay");
    assertThatThrownBy(() -> EXACT.toBuilder().multiplier(0.5).build()).hasMessageContaining("multiplier");
    assertThatThrownBy(() -> EXACT.toBuilder().multiplier(Double.NaN).build()).hasMessageContaining("multiplier");
    assertThatThrownBy(() -> EXACT.toBuilder().jitter(1.5).build()).hasMessageContaining("jitter");
    assertThatThrownBy(() -> EXACT.toBuilder().maxAttempts(-1).build()).hasMessageContaining("maxAttempts");
    assertThatThrownBy(() -> EXACT.delay(0, 0)).hasMessageContaining("from 1");
  }
}
