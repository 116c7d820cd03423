package dev.wsjava.transport.nio;

import dev.wsjava.transport.ConnectionConfig;
import dev.wsjava.transport.Tuning;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Direct buffers lent to connections while data flows, so an idle connection holds none. One pool
 * per {@link EventLoop}, used only on its thread: no locking. Buffers are kept by capacity; at most
 * {@link #MAX_KEPT} of each size wait for reuse, the rest are left to the collector.
 */
final class BufferPool {
  /** Buffers of one size kept for reuse: {@link Tuning#READ_BUFFERS_KEPT}. */
  static final int MAX_KEPT = Tuning.READ_BUFFERS_KEPT;

  private final Map<Integer, ArrayDeque<ByteBuffer>> free = new HashMap<>();
  // The size most asked for (the default read size) skips the map: no boxing, no lookup per read.
  private final int usualSize;
  private final ArrayDeque<ByteBuffer> usual = new ArrayDeque<>();
  private int lent;

  /** Creates a pool whose common size is the default read buffer size. */
  BufferPool() {
    this(ConnectionConfig.DEFAULT_READ_BUFFER_SIZE);
  }

  /**
   * Creates a pool.
   *
   * @param usualSize the capacity asked for most often
   */
  BufferPool(int usualSize) {
    this.usualSize = usualSize;
  }

  /**
   * Lends a cleared buffer.
   *
   * @param capacity its exact capacity
   * @return a buffer from the pool or a new one
   */
  ByteBuffer acquire(int capacity) {
    lent++;
    ArrayDeque<ByteBuffer> q = capacity == usualSize ? usual : free.get(capacity);
    ByteBuffer b = q == null ? null : q.pollFirst();
    return b != null ? b.clear() : ByteBuffer.allocateDirect(capacity);
  }

  /**
   * Takes a buffer back; its contents are dropped.
   *
   * @param b a buffer from {@link #acquire}; null and heap buffers are ignored
   */
  void release(ByteBuffer b) {
    if (b == null || !b.isDirect()) {
      return; // heap buffers grown past the pool's sizes are left to the collector
    }
    lent--;
    ArrayDeque<ByteBuffer> q =
        b.capacity() == usualSize
            ? usual
            : free.computeIfAbsent(b.capacity(), k -> new ArrayDeque<>());
    if (q.size() < MAX_KEPT) {
      q.addFirst(b.clear());
    }
  }

  /**
   * Returns how many buffers are lent out now (for tests: an idle loop lends none).
   *
   * @return acquired and not yet released
   */
  int lent() {
    return lent;
  }
}
