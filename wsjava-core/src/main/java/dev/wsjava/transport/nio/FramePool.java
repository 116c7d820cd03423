package dev.wsjava.transport.nio;

import dev.wsjava.session.FrameBuffers;
import dev.wsjava.transport.Tuning;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The direct buffers a loop's connections encode outbound frames into (see {@link FrameBuffers}):
 * 4 KiB chunks that small frames are packed into, and 64 KiB buffers that large frames span. The
 * socket writes them straight from direct memory, with no copy by the JDK; they come back once
 * written, so a connection with nothing to send holds none, and steady traffic allocates none.
 * One per {@link EventLoop}; safe from any thread, since a frame is encoded by whichever thread
 * sends it. A bounded number of free buffers is kept: beyond that a buffer given back is left to
 * the collector, so a burst does not pin its peak memory for good.
 */
final class FramePool implements FrameBuffers {
  // The sizes, with their reasons, are in Tuning.
  static final int SIZE = Tuning.FRAME_BUFFER;
  static final int CHUNK = Tuning.FRAME_CHUNK;
  static final int MAX_KEPT = Tuning.FRAME_BUFFERS_KEPT;
  static final int MAX_KEPT_CHUNKS = Tuning.FRAME_CHUNKS_KEPT;

  private final ReentrantLock lock = new ReentrantLock();
  private final Free large = new Free(SIZE, MAX_KEPT);
  private final Free chunks = new Free(CHUNK, MAX_KEPT_CHUNKS);

  /** Free buffers of one capacity, a stack; guarded by the pool's lock. */
  private static final class Free {
    final int capacity;
    final ByteBuffer[] items;
    int count;

    Free(int capacity, int max) {
      this.capacity = capacity;
      this.items = new ByteBuffer[max];
    }
  }

  @Override
  public ByteBuffer take() {
    return take(large);
  }

  @Override
  public ByteBuffer takeChunk() {
    return take(chunks);
  }

  private ByteBuffer take(Free f) {
    ByteBuffer b = null;
    lock.lock();
    try {
      if (f.count > 0) {
        b = f.items[--f.count];
        f.items[f.count] = null;
      }
    } finally {
      lock.unlock();
    }
    return b != null ? b.clear() : ByteBuffer.allocateDirect(f.capacity);
  }

  @Override
  public void give(ByteBuffer buffer) {
    Free f = buffer.capacity() == CHUNK ? chunks : large;
    lock.lock();
    try {
      if (f.count < f.items.length) {
        f.items[f.count++] = buffer;
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns how many free buffers wait for reuse, chunks included (for tests).
   *
   * @return the count
   */
  int kept() {
    lock.lock();
    try {
      return large.count + chunks.count;
    } finally {
      lock.unlock();
    }
  }
}
