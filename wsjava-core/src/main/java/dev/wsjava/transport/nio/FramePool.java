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
  private final ByteBuffer[] free = new ByteBuffer[MAX_KEPT];
  private final ByteBuffer[] chunks = new ByteBuffer[MAX_KEPT_CHUNKS];
  private int freeCount;
  private int chunkCount;

  @Override
  public ByteBuffer take() {
    ByteBuffer b = null;
    lock.lock();
    try {
      if (freeCount > 0) {
        b = free[--freeCount];
        free[freeCount] = null;
      }
    } finally {
      lock.unlock();
    }
    return b != null ? b.clear() : ByteBuffer.allocateDirect(SIZE);
  }

  @Override
  public ByteBuffer takeChunk() {
    ByteBuffer b = null;
    lock.lock();
    try {
      if (chunkCount > 0) {
        b = chunks[--chunkCount];
        chunks[chunkCount] = null;
      }
    } finally {
      lock.unlock();
    }
    return b != null ? b.clear() : ByteBuffer.allocateDirect(CHUNK);
  }

  @Override
  public void give(ByteBuffer buffer) {
    lock.lock();
    try {
      if (buffer.capacity() == CHUNK) {
        if (chunkCount < MAX_KEPT_CHUNKS) {
          chunks[chunkCount++] = buffer;
        }
      } else if (freeCount < MAX_KEPT) {
        free[freeCount++] = buffer;
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
      return freeCount + chunkCount;
    } finally {
      lock.unlock();
    }
  }
}
