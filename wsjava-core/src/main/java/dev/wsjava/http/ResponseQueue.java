package dev.wsjava.http;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Response bytes waiting to be written, in order (RFC 9112 §9.3.2: pipelined requests are answered
 * in the order they came). Every buffer's bytes to write are between its position and its limit; a
 * writer advances positions and then calls {@link #written(long)}. Not thread-safe: owned by one
 * {@link HttpConnection}.
 */
final class ResponseQueue {
  private final ArrayDeque<ByteBuffer> buffers = new ArrayDeque<>();
  private long queuedBytes;
  private long queuedTotal;

  /** Adds a buffer, which the queue now owns, to the end; an empty one is dropped. */
  void add(ByteBuffer b) {
    if (b.hasRemaining()) {
      buffers.addLast(b);
      queuedBytes += b.remaining();
      queuedTotal += b.remaining();
    }
  }

  boolean isEmpty() {
    return buffers.isEmpty();
  }

  /** Returns the bytes queued and not yet reported written. */
  long queuedBytes() {
    return queuedBytes;
  }

  /** Returns the bytes ever queued. */
  long queuedTotal() {
    return queuedTotal;
  }

  /** Puts the buffers, oldest first, into {@code dst} from {@code offset}; returns how many. */
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
    }
  }
}
