package dev.wsjava.session;

import dev.wsjava.protocol.FrameEncoder;
import dev.wsjava.protocol.Masking;
import dev.wsjava.protocol.Opcode;
import java.nio.ByteBuffer;

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

  /** Ring slots a drained queue keeps: 72 bytes, what a burst of small frames fills. */
  static final int KEPT_RING = 8;

  private static final ByteBuffer[] NONE = new ByteBuffer[0];
  private static final boolean[] NOT_LENT = new boolean[0];

  // The queue: a ring, made on first use so an idle connection holds no array.
  private ByteBuffer[] ring = NONE;
  private boolean[] lentAt = NOT_LENT; // whether ring[i] came from the lender
  private int head;
  private int count;
  private ByteBuffer tail; // the last shared chunk, while it is still queued
  private ByteBuffer spare; // a drained chunk kept for reuse (without a lender)
  private FrameBuffers lender; // where frames are encoded, or null for heap buffers
  private long queuedBytes;
  private long enqueuedTotal;

  /** Creates an empty queue. */
  public OutboundQueue() {}

  /**
   * Encodes frames into buffers from {@code lender} from now on: small frames share its chunks,
   * large ones span its large buffers; each goes back once written.
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
      addLast(b, false);
      tail = null; // later frames go after this buffer, never into an earlier chunk
      queuedBytes += n;
      enqueuedTotal += n;
    }
  }

  private void addLast(ByteBuffer b, boolean lent) {
    if (count == ring.length) {
      grow();
    }
    int i = (head + count) & (ring.length - 1);
    ring[i] = b;
    lentAt[i] = lent;
    count++;
  }

  private void grow() {
    int n = Math.max(4, ring.length * 2);
    ByteBuffer[] r = new ByteBuffer[n];
    boolean[] l = new boolean[n];
    for (int k = 0; k < count; k++) {
      int i = (head + k) & (ring.length - 1);
      r[k] = ring[i];
      l[k] = lentAt[i];
    }
    ring = r;
    lentAt = l;
    head = 0;
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
      addLast(own.flip(), false);
      tail = null;
    } else {
      if (tail == null || tail.capacity() - tail.limit() < size) {
        if (lender != null) {
          tail = lender.takeChunk().limit(0);
        } else {
          tail = spare != null ? spare.clear().limit(0) : ByteBuffer.allocate(CHUNK).limit(0);
          spare = null;
        }
        addLast(tail, lender != null);
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
      addLast(out.flip(), true);
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
    return count == 0;
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
    int n = Math.min(count, dst.length - offset);
    for (int k = 0; k < n; k++) {
      dst[offset + k] = ring[(head + k) & (ring.length - 1)];
    }
    return n;
  }

  /**
   * Accounts for bytes a writer wrote and drops the buffers it drained; lent buffers go back.
   *
   * @param bytes how many were written
   */
  public void written(long bytes) {
    queuedBytes -= bytes;
    while (count > 0 && !ring[head].hasRemaining()) {
      ByteBuffer b = ring[head];
      boolean lent = lentAt[head];
      ring[head] = null;
      head = (head + 1) & (ring.length - 1);
      count--;
      if (b == tail) {
        tail = null;
        if (!lent) {
          spare = b;
        }
      }
      if (lent) {
        lender.give(b);
      }
    }
  }

  /**
   * Drops every byte still waiting, for a connection whose socket closed: lent buffers go back to
   * their lender at once, so what a peer made this end queue (a large echo it never read, say) is
   * free the moment the connection is, not whenever the collector finds the connection
   * unreachable. The running total stays; the queue is empty after, as trim() leaves it.
   */
  public void discard() {
    for (int k = 0; k < count; k++) {
      int i = (head + k) & (ring.length - 1);
      if (lentAt[i]) {
        lender.give(ring[i]);
      }
      ring[i] = null;
    }
    count = 0;
    head = 0;
    tail = null;
    queuedBytes = 0;
    trim();
  }

  /**
   * Drops the spare chunk and an empty ring of more than {@link #KEPT_RING} slots: an idle
   * connection holds no buffer.
   */
  public void trim() {
    spare = null;
    // A ring of a few slots stays: a connection that answers batches of small frames would make
    // it again after every write (a batch of 64 echoes of 300 bytes fills five chunks).
    if (count == 0 && ring.length > KEPT_RING) {
      ring = NONE;
      lentAt = NOT_LENT;
      head = 0;
    }
  }
}
