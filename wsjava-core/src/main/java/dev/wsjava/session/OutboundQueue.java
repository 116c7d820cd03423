package dev.wsjava.session;

import dev.wsjava.protocol.FrameEncoder;
import dev.wsjava.protocol.Masking;
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
  private FrameBuffers lender; // where large frames are encoded, or null for heap buffers
  private ArrayDeque<ByteBuffer> lent; // buffers of the lender still queued, oldest first
  private long queuedBytes;
  private long enqueuedTotal;

  /** Creates an empty queue. */
  public OutboundQueue() {}

  /**
   * Encodes frames larger than a shared chunk into buffers from {@code lender} from now on.
   *
   * @param lender lends and takes back the buffers
   */
  void lendFrom(FrameBuffers lender) {
    this.lender = lender;
  }

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
    if (size > SMALL_FRAME && lender != null) {
      frameInLentBuffers(fin, rsv, opcode, payload, masked, maskKey);
      tail = null;
    } else if (size > SMALL_FRAME) {
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

  /** Encodes a large frame across lent buffers: the header, then the payload, masked as it goes. */
  private void frameInLentBuffers(
      boolean fin, int rsv, Opcode opcode, ByteBuffer payload, boolean masked, int maskKey) {
    if (lent == null) {
      lent = new ArrayDeque<>();
    }
    int length = payload.remaining();
    ByteBuffer out = lender.take();
    FrameEncoder.writeHeader(out, fin, rsv, opcode, length, masked, maskKey);
    int from = payload.position();
    int keyIndex = 0;
    while (true) {
      int n = Math.min(out.remaining(), length - (from - payload.position()));
      int at = out.position();
      out.put(at, payload, from, n);
      if (masked) {
        keyIndex = Masking.mask(out, at, n, maskKey, keyIndex);
      }
      out.position(at + n);
      from += n;
      buffers.addLast(out.flip());
      lent.addLast(out);
      if (from == payload.limit()) {
        return;
      }
      out = lender.take();
    }
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
      if (lent != null && lent.peekFirst() == head) {
        lender.give(lent.pollFirst());
      } else if (head == tail) {
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
