package dev.wsjava.internal.http;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;

/**
 * A request body as it arrives (RFC 9112 §6), held whole for the handler. It grows as bytes come
 * instead of trusting an announced length, so a head that claims a large body pins no memory before
 * the body is sent. Its memory is charged to the connection's share of the memory budget: a body of
 * announced length ({@code Content-Length}) is charged that length, whole, before its first byte is
 * taken, so two bodies that together pass the budget never hold half of it each and wait for each
 * other for good (the second waits, unread, until the first is done); a chunked body is charged as
 * it grows. When the budget has no room, it takes only what fits and waits. Not thread-safe.
 */
final class BodyBuffer {
  private static final int INITIAL = 4 * 1024;
  private static final byte[] NONE = new byte[0];

  private final int max;
  /** Whether {@link #max} is the announced length, charged whole before the first byte. */
  private final boolean chargeWhole;
  /** Bytes charged to the budget. */
  private long charged;
  /** Charges the memory budget (false when it has no room), or null: not counted. */
  private final LongPredicate charge;
  /** Gives back to the memory budget. */
  private final LongConsumer release;
  private byte[] bytes = NONE;
  private int length;
  private long wanted;

  /**
   * Starts an empty body whose memory is not counted.
   *
   * @param max the most bytes it may hold
   */
  BodyBuffer(int max) {
    this(max, false, null, null);
  }

  /**
   * Starts an empty body.
   *
   * @param max the most bytes it may hold
   * @param chargeWhole whether {@code max} is the announced length, to be charged whole at once
   * @param charge charges the memory budget with what the body holds (its capacity), false when
   *     it has no room; null when nothing is counted
   * @param release gives charged bytes back
   */
  BodyBuffer(int max, boolean chargeWhole, LongPredicate charge, LongConsumer release) {
    this.max = max;
    this.chargeWhole = chargeWhole;
    this.charge = charge;
    this.release = release;
  }

  /** Returns how many bytes it holds. */
  int length() {
    return length;
  }

  /** Returns how many more bytes it may take. */
  int room() {
    return max - length;
  }

  /**
   * Returns how many bytes of memory the last {@link #take} waited for: it took fewer bytes than
   * asked because the budget had no room to grow the body.
   *
   * @return bytes wanted, 0 when the last take took all
   */
  long wanted() {
    return wanted;
  }

  /**
   * Moves up to {@code n} bytes from {@code in} to the end of the body: all of them, unless the
   * memory budget has no room to grow it (then as many as fit, and {@link #wanted()} says how
   * much memory it waits for).
   *
   * @return the bytes taken
   * @throws IllegalArgumentException when that would pass the maximum (callers check {@link #room})
   */
  int take(ByteBuffer in, int n) {
    if (n > room()) {
      throw new IllegalArgumentException("body would pass its limit of " + max + " bytes");
    }
    wanted = 0;
    if (charge != null && chargeWhole && charged == 0 && n > 0) {
      if (!charge.test(max)) {
        wanted = max; // not a byte before the whole announced length is in the budget
        return 0;
      }
      charged = max;
    }
    if (length + n > bytes.length) {
      long grown = Math.max((long) length + n, Math.max(INITIAL, 2L * bytes.length));
      int capacity = (int) Math.min(grown, max);
      if (charge != null && !chargeWhole && !charge.test(capacity - charged)) {
        // A tight budget: grow by what is needed only, or wait for memory with what fits now.
        capacity = length + n;
        if (!charge.test(capacity - charged)) {
          wanted = capacity - charged;
          n = bytes.length - length;
          capacity = bytes.length;
        }
      }
      if (capacity > bytes.length) {
        bytes = Arrays.copyOf(bytes, capacity);
        if (charge != null && !chargeWhole) {
          charged = capacity;
        }
      }
    }
    in.get(bytes, length, n);
    length += n;
    return n;
  }

  /** Returns the body as a buffer over the bytes held; the buffer is not to be used after. */
  ByteBuffer toBuffer() {
    return ByteBuffer.wrap(bytes, 0, length).slice();
  }

  /** Gives what the body was charged back to the budget: the request was handed on, or dropped. */
  void release() {
    if (charged > 0) {
      release.accept(charged);
      charged = 0;
    }
    bytes = NONE;
    length = 0;
  }
}
