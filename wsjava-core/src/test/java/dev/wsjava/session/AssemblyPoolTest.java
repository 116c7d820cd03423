package dev.wsjava.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.protocol.Opcode;
import dev.wsjava.protocol.Role;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The pool of large assembly arrays: what it keeps and how much, that an array is never lent twice
 * at once, and that a session gives its array back after each message but never while its listener
 * may still read it.
 */
class AssemblyPoolTest {
  static final int K = 1024;
  static final int M = 1024 * 1024;

  @Test
  void sizesRoundUpToAKeptPowerOfTwoOnlyWhenThatCostsLessThanDouble() {
    assertThat(AssemblyPool.sizeFor(M)).isEqualTo(M);
    assertThat(AssemblyPool.sizeFor(65_550)).isEqualTo(128 * K);
    assertThat(AssemblyPool.sizeFor(20_000)).isEqualTo(32 * K);
    assertThat(AssemblyPool.sizeFor(M + 1)).isEqualTo(2 * M);
    assertThat(AssemblyPool.sizeFor(16 * K)).as("small: exact").isEqualTo(16 * K);
    assertThat(AssemblyPool.sizeFor(256)).isEqualTo(256);
    assertThat(AssemblyPool.sizeFor(4 * M + 1)).as("above the kept sizes: exact").isEqualTo(4 * M + 1);
  }

  @Test
  void aGivenArrayIsLentAgainOnceAndOnlyOnce() {
    AssemblyPool pool = new AssemblyPool();
    byte[] a = new byte[M];
    pool.give(a);
    assertThat(pool.keptBytes()).isEqualTo(M);
    assertThat(pool.take(M)).isSameAs(a);
    assertThat(pool.keptBytes()).isZero();
    assertThat(pool.take(M)).isNotSameAs(a).hasSize(M);
    assertThat(pool.take(2 * M)).as("another size is another slot").hasSize(2 * M);
  }

  @Test
  void whatIsKeptIsBoundedPerSizeAndSizesThatAreNotKeptGoToTheGc() {
    AssemblyPool pool = new AssemblyPool();
    for (int i = 0; i < 6; i++) {
      pool.give(new byte[M]);
      pool.give(new byte[2 * M]);
      pool.give(new byte[4 * M]);
      pool.give(new byte[32 * K]);
    }
    assertThat(pool.keptBytes())
        .isEqualTo(AssemblyPool.SLOTS * (long) M + 2L * (2 * M) + 4L * M + AssemblyPool.SLOTS * 32L * K);
    long before = pool.keptBytes();
    pool.give(new byte[48 * K]); // not a power of two
    pool.give(new byte[8 * M]); // above the largest kept size
    pool.give(new byte[16 * K]); // small arrays stay with their connection, not here
    pool.give(new byte[0]);
    assertThat(pool.keptBytes()).isEqualTo(before);
  }

  @Test
  void noArrayIsLentToTwoThreadsAtOnce() throws Exception {
    AssemblyPool pool = new AssemblyPool();
    int threads = 4;
    ExecutorService exec = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        byte mark = (byte) (t + 1);
        done.add(
            exec.submit(
                () -> {
                  int clashes = 0;
                  for (int i = 0; i < 5_000; i++) {
                    byte[] a = pool.take(64 * K);
                    Arrays.fill(a, mark);
                    Thread.onSpinWait();
                    for (byte b : a) {
                      if (b != mark) {
                        clashes++;
                        break;
                      }
                    }
                    pool.give(a);
                  }
                  return clashes;
                }));
      }
      for (Future<Integer> f : done) {
        assertThat(f.get()).isZero();
      }
    } finally {
      exec.shutdownNow();
    }
    assertThat(pool.keptBytes()).isLessThanOrEqualTo(AssemblyPool.SLOTS * 64L * K);
  }

  /**
   * Feeds a client's one-frame binary message to {@code s} in two reads, the first of 100 KiB: the
   * frame announces its length, so the session takes one array for it (512 KiB for 300 KiB).
   */
  static void feed(Session s, byte[] message, SessionListener listener) {
    byte[] wire = SessionMemoryTest.fragmented(message, message.length, List.of());
    s.receive(ByteBuffer.wrap(wire, 0, 100 * K), listener);
    s.receive(ByteBuffer.wrap(wire, 100 * K, wire.length - 100 * K), listener);
  }

  static Session server(AssemblyPool pool) {
    Session s = new Session(Role.SERVER, SessionConfig.DEFAULTS, List.of());
    s.assemblies(pool);
    return s;
  }

  @Test
  void aSessionReusesItsArrayForTheNextLargeMessageAndHoldsNoneBetween() {
    AssemblyPool pool = new AssemblyPool();
    MemoryBudget budget =
        new MemoryBudget(64L * M, java.time.Duration.ofSeconds(10), System::nanoTime);
    Session s = server(pool);
    s.chargeMemoryTo(budget.open());
    List<byte[]> arrays = new ArrayList<>();
    List<byte[]> messages = new ArrayList<>();
    SessionListener keep =
        new SessionListener() {
          @Override
          public void onMessage(Opcode type, ByteBuffer payload) {
            arrays.add(payload.array());
            byte[] copy = new byte[payload.remaining()];
            payload.get(copy);
            messages.add(copy);
          }
        };
    byte[] first = SessionMemoryTest.random(300 * K, 1);
    byte[] second = SessionMemoryTest.random(280 * K, 2); // shorter: stale bytes must not show
    feed(s, first, keep);
    assertThat(pool.keptBytes()).as("given back after its message").isEqualTo(512 * K);
    assertThat(budget.reserved()).as("and no longer charged").isZero();
    feed(s, second, keep);
    assertThat(messages).hasSize(2);
    assertThat(messages.get(0)).isEqualTo(first);
    assertThat(messages.get(1)).isEqualTo(second);
    assertThat(arrays.get(1)).as("the same array, not a new one").isSameAs(arrays.get(0));
    assertThat(pool.keptBytes()).isEqualTo(512 * K);
    assertThat(budget.reserved()).isZero();
  }

  @Test
  void anArrayTheListenerStillReadsIsNotGivenBackWhenTheSessionClosesDuringTheCall() {
    AssemblyPool pool = new AssemblyPool();
    Session s = server(pool);
    byte[] message = SessionMemoryTest.random(300 * K, 3);
    List<Long> keptDuringCall = new ArrayList<>();
    List<byte[]> seen = new ArrayList<>();
    SessionListener closing =
        new SessionListener() {
          @Override
          public void onMessage(Opcode type, ByteBuffer payload) {
            // The connection is closed (e.g. evicted by another thread) while this call reads.
            s.fail(1008, "evicted", new SessionListener() {});
            keptDuringCall.add(pool.keptBytes());
            byte[] copy = new byte[payload.remaining()];
            payload.get(copy);
            seen.add(copy);
          }
        };
    feed(s, message, closing);
    assertThat(keptDuringCall).containsExactly(0L);
    assertThat(seen).singleElement().isEqualTo(message);
    assertThat(pool.keptBytes()).as("dropped, not pooled").isZero();
  }

  @Test
  void closingInTheMiddleOfAMessageGivesItsArrayBack() {
    AssemblyPool pool = new AssemblyPool();
    Session s = server(pool);
    byte[] message = SessionMemoryTest.random(300 * K, 4);
    byte[] wire = SessionMemoryTest.fragmented(message, message.length, List.of());
    s.receive(ByteBuffer.wrap(wire, 0, 100 * K), new SessionListener() {});
    assertThat(pool.keptBytes()).isZero();
    s.fail(1008, "evicted", new SessionListener() {});
    assertThat(pool.keptBytes()).isEqualTo(512 * K);
  }
}
