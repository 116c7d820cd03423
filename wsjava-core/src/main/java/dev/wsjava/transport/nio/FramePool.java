package dev.wsjava.transport.nio;

import dev.wsjava.session.FrameBuffers;
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
  /** The capacity of a large frame's buffers: as much as one read takes. */
  static final int SIZE = 64 * 1024;
  /** The capacity of a chunk of small frames. */
  static final int CHUNK = 4 * 1024;
  /** Free large buffers kept: 4 MiB, four 1 MiB messages in flight. */
  static final int MAX_KEPT = 64;
  /** Free chunks kept: 1 MiB. */
  static final int MAX_KEPT_CHUNKS = 256;

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
