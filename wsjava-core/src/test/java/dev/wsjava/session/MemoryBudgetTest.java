package dev.wsjava.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The shared budget: grants, stalls and wake-ups, and which holder is evicted, on a fake clock. */
class MemoryBudgetTest {
  static final int G = MemoryBudget.GRANT;

  final AtomicLong now = new AtomicLong(1_000);
  final MemoryBudget budget = new MemoryBudget(4L * G, Duration.ofSeconds(10), now::get);

  @Test
  void chargesTakeWholeGrantsAndAnIdleAccountHoldsNone() {
    MemoryBudget.Account a = budget.open();
    assertThat(a.charge(100)).isTrue();
    assertThat(a.held()).isEqualTo(G);
    assertThat(a.charge(G)).isTrue();
    assertThat(a.held()).isEqualTo(2L * G);
    assertThat(budget.reserved()).isEqualTo(2L * G);
    a.release(G + 100);
    assertThat(a.held()).isZero();
    assertThat(budget.reserved()).isZero();
  }

  @Test
  void aChargePastTheBudgetIsRefusedAndChargesNothing() {
    MemoryBudget.Account a = budget.open();
    MemoryBudget.Account b = budget.open();
    assertThat(a.charge(3L * G)).isTrue();
    assertThat(b.charge(2L * G)).isFalse();
    assertThat(b.used()).isZero();
    assertThat(b.held()).isZero();
    assertThat(b.charge(G)).isTrue();
  }

  @Test
  void anOverdraftIsTakenButReported() {
    MemoryBudget.Account a = budget.open();
    assertThat(a.charge(4L * G)).isTrue();
    MemoryBudget.Account b = budget.open();
    assertThat(b.chargeOver(10)).isFalse();
    assertThat(budget.reserved()).isEqualTo(5L * G);
    b.releaseAll();
    assertThat(budget.reserved()).isEqualTo(4L * G);
  }

  @Test
  void aStalledAccountIsWokenWhenAnotherGivesBackEnough() {
    MemoryBudget.Account big = budget.open();
    big.charge(4L * G);
    MemoryBudget.Account waiting = budget.open();
    List<String> woken = new ArrayList<>();
    waiting.stall(2L * G, () -> woken.add("room"), () -> woken.add("evict"));
    assertThat(waiting.isStalled()).isTrue();
    big.release(2L * G); // one grant comes back (the account keeps one spare): not enough
    assertThat(budget.reserved()).isEqualTo(3L * G);
    assertThat(woken).isEmpty();
    big.release(G);
    assertThat(woken).containsExactly("room");
    assertThat(waiting.isStalled()).isFalse();
  }

  @Test
  void aStallWithRoomAlreadyFreeWakesAtOnce() {
    List<String> woken = new ArrayList<>();
    budget.open().stall(G, () -> woken.add("room"), () -> woken.add("evict"));
    assertThat(woken).containsExactly("room");
  }

  @Test
  void nothingIsEvictedBeforeTheStallTimeout() {
    MemoryBudget.Account a = budget.open();
    a.charge(4L * G);
    a.stall(G, () -> {}, () -> {});
    now.addAndGet(Duration.ofSeconds(10).toNanos() - 1);
    assertThat(budget.evictIfStuck()).isNull();
    now.addAndGet(1);
    assertThat(budget.evictIfStuck()).isSameAs(a);
    assertThat(a.evicted()).isTrue();
  }

  @Test
  void theLargestStalledHolderIsEvictedFirstNotTheLongestWaiting() {
    MemoryBudget.Account small = budget.open();
    small.charge(G);
    MemoryBudget.Account large = budget.open();
    large.charge(3L * G);
    List<String> evicted = new ArrayList<>();
    small.stall(G, () -> {}, () -> evicted.add("small"));
    now.addAndGet(Duration.ofSeconds(5).toNanos());
    large.stall(G, () -> {}, () -> evicted.add("large"));
    now.addAndGet(Duration.ofSeconds(5).toNanos()); // small has waited 10 s, large 5 s
    assertThat(budget.evictIfStuck()).isSameAs(large);
    assertThat(evicted).containsExactly("large");
    assertThat(budget.evictIfStuck()).isNull(); // not at once: the freed memory may be enough
    now.addAndGet(Duration.ofMillis(2500).toNanos());
    assertThat(budget.evictIfStuck()).isSameAs(small); // then the next largest, still stuck
    assertThat(evicted).containsExactly("large", "small");
  }

  @Test
  void aHolderStuckOnItsPeerIsEvictedOnlyOnceSomeoneHasWaitedForMemory() {
    MemoryBudget.Account stuck = budget.open();
    stuck.charge(3L * G);
    List<String> evicted = new ArrayList<>();
    stuck.stuck(() -> evicted.add("stuck"));
    now.addAndGet(Duration.ofSeconds(60).toNanos());
    assertThat(budget.evictIfStuck()).isNull(); // nobody needs its memory
    MemoryBudget.Account waiting = budget.open();
    waiting.charge(G);
    waiting.stall(G, () -> evicted.add("room"), () -> evicted.add("waiting"));
    now.addAndGet(Duration.ofSeconds(10).toNanos());
    assertThat(budget.evictIfStuck()).isSameAs(stuck);
    assertThat(evicted).containsExactly("stuck");
    stuck.releaseAll();
    assertThat(evicted).containsExactly("stuck", "room");
  }

  @Test
  void progressStartsTheStallClockAgain() {
    MemoryBudget.Account a = budget.open();
    a.charge(4L * G);
    a.stall(G, () -> {}, () -> {});
    now.addAndGet(Duration.ofSeconds(9).toNanos());
    a.progressed();
    a.stall(G, () -> {}, () -> {});
    now.addAndGet(Duration.ofSeconds(9).toNanos());
    assertThat(budget.evictIfStuck()).isNull();
  }

  @Test
  void aBudgetSmallerThanOneGrantIsRefused() {
    assertThatThrownBy(() -> new MemoryBudget(G - 1, Duration.ofSeconds(1), System::nanoTime))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least");
  }
}
