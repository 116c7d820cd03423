package dev.wsjava.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.protocol.Opcode;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Frames encoded into lent buffers match heap-encoded frames, and every buffer comes back once. */
class OutboundQueueTest {

  /** Lends direct buffers of one small size and checks how they come back. */
  static final class Lender implements FrameBuffers {
    final int size;
    final Map<ByteBuffer, Boolean> out = new IdentityHashMap<>();
    int taken;
    int chunks;
    boolean discarding; // a discarded queue gives back buffers it never wrote

    Lender(int size) {
      this.size = size;
    }

    @Override
    public ByteBuffer take() {
      taken++;
      ByteBuffer b = ByteBuffer.allocateDirect(size);
      out.put(b, true);
      return b;
    }

    @Override
    public ByteBuffer takeChunk() {
      chunks++;
      ByteBuffer b = ByteBuffer.allocateDirect(OutboundQueue.CHUNK);
      out.put(b, true);
      return b;
    }

    @Override
    public void give(ByteBuffer b) {
      assertThat(out.remove(b)).as("given back once, and only what was lent").isTrue();
      assertThat(b.hasRemaining() && !discarding).as("given back only once written").isFalse();
    }
  }

  /** Queues the same random frames in both queues; returns nothing, fills them. */
  static void queueRandomFrames(SplittableRandom r, OutboundQueue a, OutboundQueue b) {
    int count = 2 + r.nextInt(11); // the first frame small, the second large, then either
    for (int i = 0; i < count; i++) {
      boolean small = i == 0 || (i > 1 && r.nextInt(4) == 0);
      int len = small ? r.nextInt(200) : 1000 + r.nextInt(9000);
      byte[] payload = new byte[len];
      r.nextBytes(payload);
      boolean masked = r.nextBoolean();
      int key = r.nextInt();
      boolean fin = r.nextBoolean();
      a.frame(fin, 0, Opcode.BINARY, ByteBuffer.wrap(payload), masked, key);
      b.frame(fin, 0, Opcode.BINARY, ByteBuffer.wrap(payload), masked, key);
      if (r.nextInt(6) == 0) {
        byte[] raw = new byte[1 + r.nextInt(3000)];
        r.nextBytes(raw);
        a.add(ByteBuffer.wrap(raw));
        b.add(ByteBuffer.wrap(raw.clone()));
      }
    }
  }

  /** Writes the queue out in random partial writes, as a socket taking what fits would. */
  static byte[] drainInPieces(SplittableRandom r, OutboundQueue q) {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    ByteBuffer[] gather = new ByteBuffer[4];
    while (!q.isEmpty()) {
      int n = q.gather(gather, 0);
      long budget = 1 + r.nextInt(5000);
      long wrote = 0;
      for (int i = 0; i < n && budget > 0; i++) {
        int k = (int) Math.min(budget, gather[i].remaining());
        byte[] part = new byte[k];
        gather[i].get(part);
        all.writeBytes(part);
        budget -= k;
        wrote += k;
      }
      q.written(wrote);
    }
    return all.toByteArray();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void framesInLentBuffersAreByteForByteTheHeapEncodingAndAllBuffersComeBack(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Lender lender = new Lender(4097 + r.nextInt(3000));
    OutboundQueue lent = new OutboundQueue();
    lent.lendFrom(lender);
    OutboundQueue heap = new OutboundQueue();
    for (int round = 0; round < 3; round++) {
      queueRandomFrames(r, lent, heap);
      assertThat(lent.queuedBytes()).isEqualTo(heap.queuedBytes());
      assertThat(drainInPieces(r, lent)).isEqualTo(drainInPieces(r, heap));
      assertThat(lender.out).as("buffers still lent after the queue drained").isEmpty();
      lent.trim(); // an idle queue drops its ring; the next round makes a new one
      heap.trim();
    }
    assertThat(lender.taken).as("large frames went into lent buffers").isPositive();
    assertThat(lender.chunks).as("small frames went into lent chunks").isPositive();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void aDiscardedQueueGivesEveryLentBufferBackWrittenInPartOrNot(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Lender lender = new Lender(4097 + r.nextInt(3000));
    OutboundQueue q = new OutboundQueue();
    q.lendFrom(lender);
    queueRandomFrames(r, q, new OutboundQueue());
    long total = q.enqueuedTotal();
    ByteBuffer[] gather = new ByteBuffer[4];
    int n = q.gather(gather, 0);
    long part = r.nextInt((int) Math.min(Integer.MAX_VALUE, gather[0].remaining() + 1L));
    gather[0].position(gather[0].position() + (int) part); // a socket took some, then closed
    q.written(part);
    lender.discarding = true;
    q.discard();
    assertThat(lender.out).as("buffers still lent after the socket closed").isEmpty();
    assertThat(q.isEmpty()).isTrue();
    assertThat(q.queuedBytes()).isZero();
    assertThat(q.enqueuedTotal()).isEqualTo(total);
    assertThat(n).isPositive();
  }
}
