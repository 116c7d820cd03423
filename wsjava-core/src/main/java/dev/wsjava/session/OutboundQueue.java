package dev.wsjava.session;

import dev.wsjava.protocol.FrameEncoder;
import dev.wsjava.protocol.Opcode;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Encoded frames waiting to be written, in order. Small frames are packed into shared chunks so a
 * burst of them goes out in few buffers; a large frame gets a buffer of its own. Each frame is
 * encoded in one pass straight into its place in the queue. Every buffer's bytes to write are
 * between its position and its limit; a writer advances positions and then calls {@link
 * #written(long)}.
 *
 * <p>Not thread-safe: owned by one {@link Session}.
 */
final class OutboundQueue {
  /** Frames up to this size share chunks. */
  static final int SMALL_FRAME = 1024;
  /** The size of a shared chunk. */
  static final int CHUNK = 4096;

  private final ArrayDeque<ByteBuffer> buffers = new ArrayDeque<>();
  private ByteBuffer tail; // the last shared chunk, while it is still queued
  private ByteBuffer spare; // a drained chunk kept for reuse, so steady traffic allocates nothing
  private long queuedBytes;
  private long enqueuedTotal;

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

  boolean isEmpty() {
    return buffers.isEmpty();
  }

  long queuedBytes() {
    return queuedBytes;
  }

  long enqueuedTotal() {
    return enqueuedTotal;
  }

  int gather(ByteBuffer[] dst, int offset) {
    int i = offset;
    for (ByteBuffer b : buffers) {
      if (i == dst.length) {
        break;
      }
      dst[i++] = b;
    }
    return i - offset;
  }

  /** Accounts for bytes a writer wrote and drops the buffers it drained. */
  void written(long bytes) {
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
  void trim() {
    spare = null;
  }
}
