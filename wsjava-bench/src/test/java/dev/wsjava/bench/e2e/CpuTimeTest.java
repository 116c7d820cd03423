package dev.wsjava.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CpuTimeTest {
  @Test
  void addsUserAndSystemTicksCountingFieldsAfterTheCommandName() {
    // A command name with spaces and a parenthesis must not shift the fields.
    String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 5000 0 0 0 1234 56 0 0 20 0 30 0"
        + " 100 3000000000 5000 18446744073709551615 1 1 0 0 0 0 0 4096 17663 0 0 0 17 0 0 0 0 0 0";
    assertThat(CpuTime.parseMicros(stat)).isEqualTo((1234 + 56) * 10_000L);
  }

  @Test
  void readsThisProcessAndGrowsWithWork() {
    long pid = ProcessHandle.current().pid();
    long before = CpuTime.micros(pid);
    assertThat(before).isPositive();
    long x = 0;
    long end = System.nanoTime() + 200_000_000L;
    while (System.nanoTime() < end) {
      x += Long.numberOfTrailingZeros(x + System.nanoTime());
    }
    assertThat(CpuTime.micros(pid)).as("after 200 ms of spinning (%d)", x).isGreaterThan(before);
  }

  @Test
  void aMissingProcessReadsAsUnknown() {
    assertThat(CpuTime.micros(Long.MAX_VALUE)).isEqualTo(-1);
  }
}
