package dev.wsjava.internal.deflate;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A small process-wide pool of scratch buffers for zlib output, so that an idle connection holds
 * none and a busy one allocates none.
 *
 * <p>A buffer is borrowed for one {@code encode} or {@code decode} call and given back at its end.
 * Slots are picked by thread id: an event-loop thread finds its own buffer again each time (one
 * atomic swap, no contention), virtual threads share a bounded number of slots. A borrower that
 * finds its slot empty (a second borrow on the same thread, for example a sink that compresses
 * another message while a chunk is in flight, or a slot taken by another thread) gets a fresh
 * buffer, and the surplus is dropped on return. So no buffer is ever in two hands, and the pool
 * never holds more than {@code SLOTS * SIZE} bytes.
 */
final class ScratchBuffers {
  /** Bytes per buffer, and so the largest chunk an extension hands to its sink. */
  static final int SIZE = 16 * 1024;

  private static final int SLOTS = slots(Runtime.getRuntime().availableProcessors());
  private static final AtomicReferenceArray<ByteBuffer> POOL = new AtomicReferenceArray<>(SLOTS);

  private ScratchBuffers() {}

  /** Two slots per processor, rounded up to a power of two, from 2 to 256. */
  private static int slots(int processors) {
    int wanted = Math.min(256, Math.max(2, 2 * processors));
    return Integer.highestOneBit(wanted - 1) << 1;
  }

  private static int slot() {
    return (int) Thread.currentThread().threadId() & (SLOTS - 1);
  }

  /**
   * Borrows a buffer of {@link #SIZE} bytes; its position and limit are unspecified.
   *
   * @return a heap buffer no one else holds until {@link #release}
   */
  static ByteBuffer acquire() {
    ByteBuffer b = POOL.getAndSet(slot(), null);
    return b != null ? b : ByteBuffer.allocate(SIZE);
  }

  /**
   * Gives a buffer back; the caller must not touch it afterwards.
   *
   * @param buffer a buffer from {@link #acquire}
   */
  static void release(ByteBuffer buffer) {
    POOL.compareAndSet(slot(), null, buffer);
  }
}
