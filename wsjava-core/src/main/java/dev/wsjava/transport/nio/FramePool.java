package dev.wsjava.transport.nio;

import dev.wsjava.session.FrameBuffers;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The direct buffers a loop's connections encode large outbound frames into (see {@link
 * FrameBuffers}): written by the socket straight from direct memory, with no copy by the JDK, and
 * reused. One per {@link EventLoop}; safe from any thread, since a frame is encoded by whichever
 * thread sends it. At most {@link #MAX_KEPT} free buffers are kept: beyond that a buffer given back
 * is left to the collector, so a burst does not pin its peak memory for good.
 */
final class FramePool implements FrameBuffers {
  /** The capacity of each buffer: as much as one read takes, so a frame is a few buffers. */
  static final int SIZE = 64 * 1024;
  /** Free buffers kept: 4 MiB, four 1 MiB messages in flight. */
  static final int MAX_KEPT = 64;

  private final ReentrantLock lock = new ReentrantLock();
  private final ByteBuffer[] free = new ByteBuffer[MAX_KEPT];
  private int count;

  @Override
  public ByteBuffer take() {
    ByteBuffer b = null;
    lock.lock();
    try {
      if (count > 0) {
        b = free[--count];
        free[count] = null;
      }
    } finally {
      lock.unlock();
    }
    return b != null ? b.clear() : ByteBuffer.allocateDirect(SIZE);
  }

  @Override
  public void give(ByteBuffer buffer) {
    lock.lock();
    try {
      if (count < MAX_KEPT) {
        free[count++] = buffer;
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns how many free buffers wait for reuse (for tests).
   *
   * @return the count
   */
  int kept() {
    lock.lock();
    try {
      return count;
    } finally {
      lock.unlock();
    }
  }
}
