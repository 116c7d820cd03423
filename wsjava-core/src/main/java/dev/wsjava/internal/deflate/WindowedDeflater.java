package dev.wsjava.internal.deflate;

import dev.wsjava.extension.ByteSink;
import dev.wsjava.ProtocolException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * RFC 7692 §7.1.2: a raw DEFLATE compressor (RFC 1951) whose back-references never reach
 * farther than 2^N bytes, for an agreed {@code *_max_window_bits} N from 8 to 14, where {@code
 * java.util.zip.Deflater} cannot be held to a window below 15 bits (and zlib itself to none below
 * 9, nor to more than 2^N - 262 bytes within one).
 *
 * <p>LZ77 over hash chains of three-byte prefixes, with greedy matching at levels 1-3 and lazy
 * matching (a match is deferred when the next position starts a longer one) at 4-9; level 0 writes
 * stored blocks only. Every candidate is checked byte for byte and its distance against 2^N, so the
 * window holds whatever the chains contain. The symbols go to a {@link DeflateBlockEncoder}, which
 * picks the shortest of stored, fixed and dynamic Huffman blocks.
 *
 * <p>Each call compresses one frame's payload completely and ends it as §7.2.1 says: with a sync
 * flush (an empty stored block and its {@code 00 00 ff ff}) when more frames of the message
 * follow, or with the empty stored block's header alone when the message ends. The window carries
 * over to the next message unless {@link #reset} is called (no context takeover).
 *
 * <p>Memory, allocated once: the window and input buffer (2^N + 32 KiB), the hash chains (about
 * 6 * 2^N bytes) and the block encoder's symbol buffer (64 KiB). Not thread-safe.
 */
final class WindowedDeflater {
  private static final int MIN_MATCH = 3;
  private static final int MAX_MATCH = 258;
  /** Bytes kept ahead of the position being matched while more input may follow. */
  private static final int LOOKAHEAD = MAX_MATCH + MIN_MATCH + 1;
  /** Room for new input beside the window; slides happen once per this many input bytes. */
  private static final int INPUT_ROOM = 32 * 1024;
  /** A three-byte match this far back costs more bits than three literals. */
  private static final int TOO_FAR_FOR_THREE = 4096;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * How hard each level searches: whether matching is lazy, how many chain links are followed,
   * the length that ends the search at once, and for greedy levels the longest match whose inner
   * positions are still entered into the chains (for lazy ones: the length past which the next
   * position is not tried).
   */
  private record Effort(boolean lazy, int chain, int nice, int insertOrLazy) {}

  private static final Effort[] EFFORT = {
    new Effort(false, 0, 0, 0), // 0: stored blocks only
    new Effort(false, 4, 16, 8),
    new Effort(false, 8, 32, 16),
    new Effort(false, 24, 64, 32),
    new Effort(true, 16, 32, 16),
    new Effort(true, 32, 64, 32),
    new Effort(true, 96, 128, 64),
    new Effort(true, 256, 192, 128),
    new Effort(true, 1024, MAX_MATCH, MAX_MATCH),
    new Effort(true, 4096, MAX_MATCH, MAX_MATCH),
  };

  private final int windowSize;
  private final int windowMask;
  private final int hashShift;
  private final boolean storedOnly;
  private final boolean lazy;
  private final int maxChain;
  private final int niceLength;
  private final int insertOrLazy;

  /** The last 2^N bytes before {@link #pos} and the input not yet matched after it. */
  private final byte[] window;
  /** Head of each hash chain: a position + 1, 0 for none. Positions are below 2^16. */
  private final char[] head;
  /** Link to the previous position with the same hash, by position modulo 2^N. */
  private final char[] prev;
  private final DeflateBlockEncoder blocks = new DeflateBlockEncoder();

  /** The next position to match. */
  private int pos;
  /** The end of the input in {@link #window}. */
  private int end;
  /** The next position to enter into the hash chains. */
  private int hashed;
  /** Where the bytes of the block in progress start. */
  private int blockStart;
  // Lazy matching: the match found at pos - 1, waiting to see whether pos starts a longer one.
  private boolean pending;
  private int pendingLength;
  private int pendingDistance;
  /** The distance of the match {@link #longestMatch} last returned. */
  private int foundDistance;

  /**
   * Creates a compressor; all of its memory is allocated here.
   *
   * @param windowBits N, 8 to 14: back-references reach at most 2^N bytes
   * @param level 0 (stored blocks only) to 9 (smallest output, slowest)
   */
  WindowedDeflater(int windowBits, int level) {
    if (windowBits < DeflateParams.MIN_WINDOW_BITS || windowBits >= DeflateParams.MAX_WINDOW_BITS) {
      throw new IllegalArgumentException("window bits " + windowBits + " not in 8..14");
    }
    windowSize = 1 << windowBits;
    windowMask = windowSize - 1;
    int hashBits = windowBits + 1;
    hashShift = 32 - hashBits;
    Effort e = EFFORT[level];
    storedOnly = level == 0;
    lazy = e.lazy();
    maxChain = e.chain();
    niceLength = e.nice();
    insertOrLazy = e.insertOrLazy();
    window = new byte[windowSize + INPUT_ROOM];
    head = new char[1 << hashBits];
    prev = new char[windowSize];
  }

  /**
   * Compresses one frame's payload and flushes it (RFC 7692 §7.2.1).
   *
   * @param payload the frame's bytes; consumed
   * @param endOfMessage true for the last frame of a message: the flush's {@code 00 00 ff ff} is
   *     left out; false: it is written, so the frame carries all of its data
   * @param scratch a borrowed heap buffer to write into
   * @param out receives the compressed bytes in chunks of at most the scratch buffer's size
   * @throws ProtocolException if the sink refuses the bytes
   */
  void deflate(ByteBuffer payload, boolean endOfMessage, ByteBuffer scratch, ByteSink out)
      throws ProtocolException {
    blocks.begin(scratch, out);
    boolean wrote = false;
    while (true) {
      if (payload.hasRemaining()) {
        wrote = true;
        if (end == window.length) {
          slide();
        }
        int n = Math.min(payload.remaining(), window.length - end);
        payload.get(window, end, n);
        end += n;
      }
      boolean more = payload.hasRemaining();
      int limit = more ? end - LOOKAHEAD : end;
      if (storedOnly) {
        pos = limit;
      } else if (lazy) {
        matchLazily(limit);
      } else {
        matchGreedily(limit);
      }
      if (!more) {
        break;
      }
    }
    if (pending) {
      emitLiteral(pos - 1);
      pending = false;
    }
    if (wrote || !blocks.isEmpty() || endOfMessage) {
      writeBlock();
      blocks.emptyStoredBlock(!endOfMessage);
    }
    blocks.end();
  }

  /** Forgets the window (no context takeover): the next message starts a fresh stream. */
  void reset() {
    Arrays.fill(head, (char) 0);
    pos = 0;
    end = 0;
    hashed = 0;
    blockStart = 0;
    pending = false;
    blocks.reset();
  }

  /** Where the bytes the block's symbols stand for end. */
  private int symbolsEnd() {
    return pending ? pos - 1 : pos;
  }

  private void writeBlock() throws ProtocolException {
    int to = symbolsEnd();
    blocks.writeBlock(window, blockStart, to - blockStart, storedOnly);
    blockStart = to;
  }

  /**
   * Makes room for input: the block in progress is written (so a stored block still finds its
   * bytes), then everything from 2^N bytes before the first unmatched position on moves to the
   * front, by a multiple of 2^N so that {@link #prev} keeps its slots, and the chains move along.
   */
  private void slide() throws ProtocolException {
    writeBlock();
    int shift = (blockStart - windowSize) & ~windowMask;
    if (shift <= 0) {
      throw new IllegalStateException("nothing to slide"); // the lookahead rule prevents this
    }
    System.arraycopy(window, shift, window, 0, end - shift);
    end -= shift;
    pos -= shift;
    hashed = Math.max(0, hashed - shift);
    blockStart -= shift;
    rebase(head, shift);
    rebase(prev, shift);
  }

  private static void rebase(char[] links, int shift) {
    for (int i = 0; i < links.length; i++) {
      int p = links[i];
      links[i] = (char) (p > shift ? p - shift : 0);
    }
  }

  private int hash(int p) {
    int v = (window[p] & 0xff) << 16 | (window[p + 1] & 0xff) << 8 | (window[p + 2] & 0xff);
    return (v * 0x9E3779B1) >>> hashShift;
  }

  /** Enters position {@code p} into its chain; returns the chain's previous head + 1 (0: none). */
  private int insert(int p) {
    int h = hash(p);
    int before = head[h];
    prev[p & windowMask] = (char) before;
    head[h] = (char) (p + 1);
    return before;
  }

  /** Enters the positions from {@link #hashed} up to {@code to} that have three bytes to hash. */
  private void insertUpTo(int to) {
    int last = Math.min(to, end - (MIN_MATCH - 1));
    for (int p = hashed; p < last; p++) {
      insert(p);
    }
    hashed = Math.max(hashed, last);
  }

  /**
   * Follows the chain from {@code candidate} (position + 1) for the longest match at {@link #pos}
   * longer than {@code better}.
   *
   * @return the length found, or 0; its distance in {@link #foundDistance}
   */
  private int longestMatch(int candidate, int better) {
    int maxLength = Math.min(MAX_MATCH, end - pos);
    if (maxLength < MIN_MATCH || better >= maxLength) {
      return 0;
    }
    int best = Math.max(better, MIN_MATCH - 1);
    int bestDistance = 0;
    int farthest = pos - windowSize;
    int chain = maxChain;
    int c = candidate - 1;
    byte[] w = window;
    while (c >= farthest && c >= 0) {
      if (w[c + best] == w[pos + best] && w[c] == w[pos] && w[c + 1] == w[pos + 1]) {
        int len = matchLength(c, pos, maxLength);
        if (len > best) {
          best = len;
          bestDistance = pos - c;
          if (len >= niceLength || len == maxLength) {
            break;
          }
        }
      }
      if (--chain <= 0) {
        break;
      }
      int next = prev[c & windowMask] - 1;
      if (next >= c) {
        break; // the slot was reused by a newer position: the chain ends here
      }
      c = next;
    }
    if (bestDistance == 0 || (best == MIN_MATCH && bestDistance > TOO_FAR_FOR_THREE)) {
      return 0;
    }
    foundDistance = bestDistance;
    return best;
  }

  private int matchLength(int a, int b, int max) {
    int len = 0;
    while (len + 8 <= max) {
      long x = (long) LONGS.get(window, a + len) ^ (long) LONGS.get(window, b + len);
      if (x != 0) {
        return len + (Long.numberOfTrailingZeros(x) >>> 3);
      }
      len += 8;
    }
    while (len < max && window[a + len] == window[b + len]) {
      len++;
    }
    return len;
  }

  private void emitLiteral(int p) throws ProtocolException {
    if (blocks.isFull()) {
      writeBlock();
    }
    blocks.literal(window[p] & 0xff);
  }

  private void emitMatch(int length, int distance) throws ProtocolException {
    if (blocks.isFull()) {
      writeBlock();
    }
    blocks.match(length, distance);
  }

  /** Levels 1-3: take the longest match at each position. */
  private void matchGreedily(int limit) throws ProtocolException {
    insertUpTo(pos);
    while (pos < limit) {
      int length = 0;
      if (pos + MIN_MATCH <= end) {
        int candidate = insert(pos);
        hashed = pos + 1;
        if (candidate != 0) {
          length = longestMatch(candidate, 0);
        }
      }
      if (length == 0) {
        emitLiteral(pos);
        pos++;
        continue;
      }
      emitMatch(length, foundDistance);
      int next = pos + length;
      if (length <= insertOrLazy) {
        insertUpTo(next);
      } else {
        hashed = next; // long matches: their inner positions are skipped for speed
      }
      pos = next;
    }
  }

  /**
   * Levels 4-9: a match found at one position is held back while the next position is tried; the
   * longer of the two wins, the shorter's first byte going out as a literal.
   */
  private void matchLazily(int limit) throws ProtocolException {
    insertUpTo(pos);
    while (pos < limit) {
      int length = 0;
      int distance = 0;
      if (pos + MIN_MATCH <= end) {
        int candidate = insert(pos);
        hashed = pos + 1;
        if (candidate != 0 && !(pending && pendingLength >= insertOrLazy)) {
          length = longestMatch(candidate, pending ? pendingLength : 0);
          distance = foundDistance;
        }
      }
      if (pending && pendingLength >= MIN_MATCH && length <= pendingLength) {
        // The match at pos - 1 stands; its positions after pos enter the chains.
        emitMatch(pendingLength, pendingDistance);
        int next = pos - 1 + pendingLength;
        insertUpTo(next);
        pos = next;
        pending = false;
        continue;
      }
      if (pending) {
        emitLiteral(pos - 1);
      }
      pending = true;
      pendingLength = length;
      pendingDistance = distance;
      pos++;
    }
  }
}
