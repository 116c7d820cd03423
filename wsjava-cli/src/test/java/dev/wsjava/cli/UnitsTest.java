package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class UnitsTest {

  @ParameterizedTest
  @CsvSource({
    "0, 0", "125, 125", "64k, 65536", "64K, 65536", "16m, 16777216", "16MiB, 16777216",
    "1g, 1073741824", "2kb, 2048", "' 3 k ', 3072"
  })
  void sizesAreBytesOrPowersOf1024(String text, long bytes) {
    assertThat(Units.size(text)).isEqualTo(bytes);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "k", "-1", "1.5m", "12q", "1t", "99999999999999999999", "9000000000g"})
  void whatIsNotASizeIsRefusedWithAnExample(String text) {
    assertThatThrownBy(() -> Units.size(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + text + "'");
  }

  @Test
  void durationsTakeMillisecondsSecondsMinutesAndHoursAndBareSeconds() {
    assertThat(Units.duration("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Units.duration("10s")).isEqualTo(Duration.ofSeconds(10));
    assertThat(Units.duration("10")).isEqualTo(Duration.ofSeconds(10));
    assertThat(Units.duration("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(Units.duration("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(Units.duration("0")).isEqualTo(Duration.ZERO);
    assertThatThrownBy(() -> Units.duration("10 sec")).hasMessageContaining("not a duration");
  }

  @Test
  void formattedSizesReadBackTheSame() {
    for (long n : new long[] {0, 1, 1000, 1024, 65536, 16L << 20, 3L << 30, 1025}) {
      assertThat(Units.size(Units.formatSize(n))).isEqualTo(n);
    }
    assertThat(Units.formatSize(16L << 20)).isEqualTo("16m");
  }
}
