package dev.wsjava.bench.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class CpuTimeTest {
  @Test
  void addsUserAndSystemTicksCountingFieldsAfterTheCommandName() {
    // A command name with spaces and a parenthesis must not shift the fields.
    String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 5000 0 0 0 1234 56 0 0 20 0 30 0"
        + " 100 3000000000 5000 18446744073709551615 1 1 0 0 0 0 0 4096 17663 0 0 0 17 0 0 0 0 0 0";
    assertThat(CpuTime.parseMicros(stat)).isEqualTo((1234 + 56) * 10_000L);
    assertThat(CpuTime.parseName(stat)).isEqualTo("java (x) y");
  }

  @Test
  void readsThisProcessAndGrowsWithWork() {
    long before = CpuTime.self();
    assertThat(before).isPositive();
    long x = 0;
    long end = System.nanoTime() + 200_000_000L;
    while (System.nanoTime() < end) {
      x += Long.numberOfTrailingZeros(x + System.nanoTime());
    }
    assertThat(CpuTime.self()).as("after 200 ms of spinning (%d)", x).isGreaterThan(before);
  }

  @Test
  void readsEveryThreadOfThisProcessUnderItsKernelName() throws Exception {
    Thread t = Thread.ofPlatform().name("cpu-probe-7").start(() -> {
      long end = System.nanoTime() + 100_000_000L;
      while (System.nanoTime() < end) {
        Thread.onSpinWait();
      }
    });
    t.join();
    // The thread has ended: its entry is gone, but the running ones are listed by their names.
    Map<Long, CpuTime.ThreadCpu> threads = CpuTime.threads(ProcessHandle.current().pid());
    assertThat(threads).isNotEmpty();
    assertThat(threads.values()).anyMatch(c -> c.name().equals("main") || c.name().startsWith("surefire"));
  }

  @Test
  void busyThreadsAreGroupedByNameWithoutNumbersAndTheIdleLeftOut() {
    Map<Long, CpuTime.ThreadCpu> before = Map.of(
        1L, new CpuTime.ThreadCpu("epollEventLoopG-3-1", 1000),
        2L, new CpuTime.ThreadCpu("epollEventLoopG-3-2", 1000),
        3L, new CpuTime.ThreadCpu("GC Thread#0", 0),
        4L, new CpuTime.ThreadCpu("C2 CompilerThre", 0));
    Map<Long, CpuTime.ThreadCpu> after = Map.of(
        1L, new CpuTime.ThreadCpu("epollEventLoopG-3-1", 61_000),
        2L, new CpuTime.ThreadCpu("epollEventLoopG-3-2", 31_000),
        3L, new CpuTime.ThreadCpu("GC Thread#0", 500), // 0.5 %: below the 2 % share
        4L, new CpuTime.ThreadCpu("C2 CompilerThre", 8_500));
    Map<String, long[]> busy = CpuTime.busyThreads(before, after, 0.02);
    assertThat(busy.keySet()).containsExactly("epollEventLoopG", "C2 CompilerThre");
    assertThat(busy.get("epollEventLoopG")).containsExactly(2, 90_000);
    assertThat(CpuTime.formatBusy(busy, 99_000)).isEqualTo("epollEventLoopG*2:91,C2_CompilerThre*1:9");
  }

  @Test
  void theCompilerShareCountsBothCompilerTiersAndThreadsThatStartedMeanwhile() {
    Map<Long, CpuTime.ThreadCpu> before = Map.of(
        1L, new CpuTime.ThreadCpu("wsjava-nio-1", 10_000),
        2L, new CpuTime.ThreadCpu("C2 CompilerThre", 5_000));
    Map<Long, CpuTime.ThreadCpu> after = Map.of(
        1L, new CpuTime.ThreadCpu("wsjava-nio-1", 70_000), // 60 ms of work
        2L, new CpuTime.ThreadCpu("C2 CompilerThre", 35_000), // 30 ms
        3L, new CpuTime.ThreadCpu("C1 CompilerThre", 10_000)); // new: all 10 ms in the interval
    assertThat(CpuTime.compilerShare(before, after)).isEqualTo(0.4);
    // A native server has no compiler threads, and an idle interval has no share.
    assertThat(CpuTime.compilerShare(Map.of(1L, new CpuTime.ThreadCpu("beast-echo", 0)),
        Map.of(1L, new CpuTime.ThreadCpu("beast-echo", 50_000)))).isZero();
    assertThat(CpuTime.compilerShare(after, after)).isZero();
  }

  @Test
  void aMissingProcessReadsAsUnknown() {
    assertThat(CpuTime.micros(Long.MAX_VALUE)).isEqualTo(-1);
    assertThat(CpuTime.threads(Long.MAX_VALUE)).isEmpty();
  }
}
