package dev.wsjava.session;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Large reassembly arrays kept for the next message. A message that does not arrive in one read is
 * assembled in a {@code byte[]}; above {@link Inbound#KEEP_ASSEMBLY} the array used to be made
 * (allocated and zeroed by the JVM) and grown for every message, then dropped so that an idle
 * connection holds nothing: at 1 MiB that was a third of the NIO server's Java time and all of its
 * allocation (docs/benchmarks/LARGE-MESSAGES.md). A connection now takes its array here and gives
 * it back once the message was delivered (a listener's view is valid only during the call), when
 * it grows, or when it closes; so an idle connection still holds none.
 *
 * <p>Arrays of {@link #MIN} to {@link #MAX} bytes, powers of two, are kept: at most {@link #SLOTS}
 * of a size and at most 4 MiB of a size (two of 2 MiB, one of 4 MiB), about 16 MiB idle in all
 * whatever the peers do; others are left to the GC. These bytes are outside every memory budget
 * while idle; a connection charges an array's capacity to its budget while it holds it, as before.
 *
 * <p>A pooled array may hold bytes of an earlier message, of this connection or another, past the
 * message's end. The message's view ({@code ByteBuffer.wrap(array, 0, length)}) never shows them,
 * but its {@code array()} is the whole array: code that reads the backing array must stay within
 * the view's position and limit, as with any pooled buffer.
 *
 * <p>Thread-safe and lock-free: a slot is emptied with {@code getAndSet}, filled with {@code
 * compareAndSet}.
 */
final class AssemblyPool {
  /** The smallest size kept: the first power of two above {@link Inbound#KEEP_ASSEMBLY}. */
  static final int MIN = 32 * 1024;
  /** The largest size kept. */
  static final int MAX = 4 * 1024 * 1024;
  /** Arrays kept per size, for the sizes up to 1 MiB. */
  static final int SLOTS = 4;
  /** Bytes kept per size at most: fewer slots for 2 and 4 MiB. */
  private static final int BYTES_PER_SIZE = 4 * 1024 * 1024;

  private static final int MIN_SHIFT = Integer.numberOfTrailingZeros(MIN);
  private static final int SIZES = Integer.numberOfTrailingZeros(MAX) - MIN_SHIFT + 1;

  /** The arrays of the whole process: every session takes from it unless a test gives its own. */
  static final AssemblyPool SHARED = new AssemblyPool(); // after the sizes it is made with

  private final AtomicReferenceArray<byte[]> slots = new AtomicReferenceArray<>(SIZES * SLOTS);

  /**
   * The size of array to ask for when {@code capacity} bytes are wanted: the kept size that holds
   * them, if it is at most twice as large, else {@code capacity} itself.
   *
   * @param capacity the bytes wanted, at least 1
   * @return a size at least {@code capacity}
   */
  static int sizeFor(int capacity) {
    if (capacity < MIN / 2 || capacity > MAX) {
      return capacity;
    }
    int size = Math.max(MIN, Integer.highestOneBit(capacity - 1) << 1);
    return size < 2 * capacity ? size : capacity;
  }

  /**
   * Lends an array of exactly {@code size} bytes: a kept one if there is one, else a new one. Its
   * contents are whatever its last user left.
   *
   * @param size the length wanted
   * @return an array the caller owns until it gives it back (or drops it)
   */
  byte[] take(int size) {
    int base = base(size);
    if (base >= 0) {
      for (int i = base, end = base + slotsFor(size); i < end; i++) {
        byte[] kept = slots.get(i) == null ? null : slots.getAndSet(i, null);
        if (kept != null) {
          return kept;
        }
      }
    }
    return new byte[size];
  }

  /**
   * Takes back an array the caller no longer uses: kept if it is of a kept size and a slot is free,
   * else left to the GC. The caller must hold no view of it that anyone still reads.
   *
   * @param array the array
   */
  void give(byte[] array) {
    int base = base(array.length);
    if (base < 0) {
      return;
    }
    for (int i = base, end = base + slotsFor(array.length); i < end; i++) {
      if (slots.get(i) == null && slots.compareAndSet(i, null, array)) {
        return;
      }
    }
  }

  /** The bytes kept now (for tests). */
  long keptBytes() {
    long n = 0;
    for (int i = 0; i < slots.length(); i++) {
      byte[] a = slots.get(i);
      n += a == null ? 0 : a.length;
    }
    return n;
  }

  /** The first slot of a kept size, or -1 for a size that is not kept. */
  private static int base(int size) {
    if (size < MIN || size > MAX || Integer.bitCount(size) != 1) {
      return -1;
    }
    return (Integer.numberOfTrailingZeros(size) - MIN_SHIFT) * SLOTS;
  }

  private static int slotsFor(int size) {
    return Math.min(SLOTS, BYTES_PER_SIZE / size);
  }
}
