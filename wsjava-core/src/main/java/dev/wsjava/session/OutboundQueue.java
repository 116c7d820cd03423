package dev.wsjava.session;

import dev.wsjava.protocol.FrameEncoder;
import dev.wsjava.protocol.Opcode;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Bytes waiting to be written, in order: encoded frames (for a {@link Session}) or whole buffers
 * (for the HTTP front). Small frames are packed into shared chunks so a
 * burst of them goes out in few buffers; a large frame gets a buffer of its own. Each frame is
 * encoded in one pass straight into its place in the queue. Every buffer's bytes to write are
 * between its position and its limit; a writer advances positions and then calls {@link
 * #written(long)}.
 *
 * <p>Not thread-safe: owned by one connection.
 */
public final class OutboundQueue {
  /** Frames up to this size share chunks. */
  static final int SMALL_FRAME = 1024;
  /** The size of a shared chunk. */
  static final int CHUNK = 4096;

  private final ArrayDeque<ByteBuffer> buffers = new ArrayDeque<>();
  private ByteBuffer tail; // the last shared chunk, while it is still queued
  private ByteBuffer spare; // a drained chunk kept for reuse, so steady traffic allocates nothing
  private long queuedBytes;
  private long enqueuedTotal;

  /** Creates an empty queue. */
  public OutboundQueue() {}

  /**
   * Queues a buffer as it is (it must not change until written). Empty buffers are skipped.
   *
   * @param b bytes from position to limit
   */
  public void add(ByteBuffer b) {
    int n = b.remaining();
    if (n > 0) {
      buffers.addLast(b);
      tail = null; // later frames go after this buffer, never into an earlier chunk
      queuedBytes += n;
      enqueuedTotal += n;
    }
  }

  /** Encodes a frame onto the end of the queue. */
  void frame(boolean fin, int rsv, Opcode opcode, ByteBuffer payload, boolean masked, int maskKey) {
    int size = FrameEncoder.headerLength(payload.remaining(), masked) + payload.remaining();
    if (size > SMALL_FRAME) {
      ByteBuffer own = ByteBuffer.allocate(size);
      FrameEncoder.encode(own, fin, rsv, opcode, payload, masked, maskKey);
      buffers.addLast(own.flip());
      tail = null;
    } else {
      if (tail == null || tail.capacity() - tail.limit() < size) {
        tail = spare != null ? spare.clear().limit(0) : ByteBuffer.allocate(CHUNK).limit(0);
        spare = null;
        buffers.addLast(tail);
      }
      // Append past the chunk's limit; its position (how far a writer got) stays where it is.
      int pos = tail.position();
      int end = tail.limit();
      tail.limit(tail.capacity()).position(end);
      FrameEncoder.encode(tail, fin, rsv, opcode, payload, masked, maskKey);
      tail.limit(tail.position()).position(pos);
    }
    queuedBytes += size;
    enqueuedTotal += size;
  }

  /**
   * Returns whether nothing waits.
   *
   * @return true when empty
   */
  public boolean isEmpty() {
    return buffers.isEmpty();
  }

  /**
   * Returns the bytes waiting.
   *
   * @return queued bytes not yet reported written
   */
  public long queuedBytes() {
    return queuedBytes;
  }

  /**
   * Returns every byte ever queued.
   *
   * @return the running total
   */
  public long enqueuedTotal() {
    return enqueuedTotal;
  }

  /**
   * Puts the queued buffers, oldest first, into {@code dst}.
   *
   * @param dst where to put them
   * @param offset the first index to fill
   * @return how many were put
   */
  public int gather(ByteBuffer[] dst, int offset) {
    int i = offset;
    for (ByteBuffer b : buffers) {
      if (i == dst.length) {
        break;
      }
      dst[i++] = b;
    }
    return i - offset;
  }

  /**
   * Accounts for bytes a writer wrote and drops the buffers it drained.
   *
   * @param bytes how many were written
   */
  public void written(long bytes) {
    queuedBytes -= bytes;
    ByteBuffer head;
    while ((head = buffers.peekFirst()) != null && !head.hasRemaining()) {
      buffers.pollFirst();
      if (head == tail) {
        tail = null;
        spare = head;
      }
    }
  }

  /** Drops the spare chunk, so an idle connection holds no buffer. */
  public void trim() {
    spare = null;
  }
}
