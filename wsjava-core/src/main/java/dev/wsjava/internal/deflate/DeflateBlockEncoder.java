package dev.wsjava.internal.deflate;

import dev.wsjava.extension.ByteSink;
import dev.wsjava.ProtocolException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * RFC 1951 §3.2.3-§3.2.7: turns a run of LZ77 symbols into one DEFLATE block, stored, with fixed
 * Huffman codes or with dynamic ones, whichever is shortest, and writes its bits into a scratch
 * buffer that goes to a sink each time it fills.
 *
 * <p>Symbols are added one by one ({@link #literal}, {@link #match}) while their frequencies are
 * counted; {@link #writeBlock} then builds the codes, compares the three sizes in bits and writes
 * the block. Dynamic codes are length-limited Huffman codes (15 bits, 7 for the code-length code)
 * with at least two codes in each alphabet, so every code is complete, as strict inflaters want.
 *
 * <p>All tables are allocated once; writing a block allocates nothing. Not thread-safe.
 */
final class DeflateBlockEncoder {
  /** The most symbols one block holds. */
  static final int MAX_SYMBOLS = 16 * 1024;

  private static final int LITERALS = 286; // 0-255 literals, 256 end of block, 257-285 lengths
  private static final int DISTANCES = 30;
  private static final int CODE_LENGTHS = 19;
  private static final int END_OF_BLOCK = 256;
  private static final int MAX_BITS = 15;
  private static final int MAX_CODE_LENGTH_BITS = 7;
  private static final int STORED_MAX = 65_535;
  /** RFC 1951 §3.2.7: the order in which the code-length code's lengths are sent. */
  private static final int[] CODE_LENGTH_ORDER = {
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15
  };

  /** Length 3..258 minus 3: its code 257..285, its extra bits and their base. */
  private static final short[] LENGTH_CODE = new short[256];
  private static final byte[] LENGTH_EXTRA = new byte[256];
  private static final short[] LENGTH_BASE = new short[256];
  /** Distance 1..32768 minus 1, by {@link #distanceCode}: extra bits and base per code. */
  private static final byte[] DISTANCE_EXTRA = new byte[DISTANCES];
  private static final short[] DISTANCE_BASE = new short[DISTANCES];
  /** §3.2.6: the fixed codes, bit-reversed for LSB-first output, and their lengths. */
  private static final short[] FIXED_LITERAL_CODE = new short[288];
  private static final byte[] FIXED_LITERAL_LENGTH = new byte[288];
  private static final short[] FIXED_DISTANCE_CODE = new short[DISTANCES];
  private static final byte[] FIXED_DISTANCE_LENGTH = new byte[DISTANCES];

  static {
    for (int l = 0; l < 256; l++) {
      int code;
      int extra;
      if (l < 8) {
        code = 257 + l;
        extra = 0;
      } else if (l == 255) {
        code = 285;
        extra = 0;
      } else {
        int top = 31 - Integer.numberOfLeadingZeros(l); // 3..7
        extra = top - 2;
        code = 257 + 4 * (top - 1) + ((l >>> extra) & 3);
      }
      LENGTH_CODE[l] = (short) code;
      LENGTH_EXTRA[l] = (byte) extra;
    }
    for (int l = 255; l >= 0; l--) {
      LENGTH_BASE[LENGTH_CODE[l] - 257] = (short) l; // ends at the smallest length of each code
    }
    for (int c = 0; c < DISTANCES; c++) {
      int extra = c < 4 ? 0 : c / 2 - 1;
      DISTANCE_EXTRA[c] = (byte) extra;
      DISTANCE_BASE[c] = (short) (c < 4 ? c : (2 | (c & 1)) << extra);
    }
    for (int s = 0; s < 288; s++) {
      FIXED_LITERAL_LENGTH[s] = (byte) (s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8);
    }
    Arrays.fill(FIXED_DISTANCE_LENGTH, (byte) 5);
    canonicalCodes(FIXED_LITERAL_LENGTH, 288, FIXED_LITERAL_CODE, new int[MAX_BITS + 2]);
    canonicalCodes(FIXED_DISTANCE_LENGTH, DISTANCES, FIXED_DISTANCE_CODE, new int[MAX_BITS + 2]);
  }

  // The symbols of the block in progress: a literal is its byte (below 256), a match is
  // distance << 8 | (length - 3), so at least 256.
  private final int[] symbols = new int[MAX_SYMBOLS];
  private int count;
  private final int[] literalFreq = new int[LITERALS];
  private final int[] distanceFreq = new int[DISTANCES];
  private final int[] codeLengthFreq = new int[CODE_LENGTHS];

  // The dynamic codes of the block being written.
  private final byte[] literalLength = new byte[LITERALS];
  private final short[] literalCode = new short[LITERALS];
  private final byte[] distanceLength = new byte[DISTANCES];
  private final short[] distanceCode = new short[DISTANCES];
  private final byte[] codeLengthLength = new byte[CODE_LENGTHS];
  private final short[] codeLengthCode = new short[CODE_LENGTHS];
  /** The run-length coded code lengths (§3.2.7): symbol 0..18 | extra value << 8. */
  private final int[] lengthRuns = new int[LITERALS + DISTANCES];
  private int runCount;
  private int hlit;
  private int hdist;
  private int hclen;

  // Scratch for building codes.
  private final long[] sortKeys = new long[LITERALS];
  private final int[] weights = new int[LITERALS];
  private final int[] lengthCount = new int[MAX_BITS + 2];

  // Output: bits wait in a 64-bit accumulator, whole bytes go to the scratch buffer.
  private ByteBuffer scratch;
  private byte[] out;
  private int outPos;
  private ByteSink sink;
  private long bits;
  private int bitCount;

  /**
   * Starts writing into a scratch buffer; what is written reaches the sink in chunks.
   *
   * @param buffer a heap buffer borrowed for this call
   * @param to where full chunks go
   */
  void begin(ByteBuffer buffer, ByteSink to) {
    scratch = buffer;
    out = buffer.array();
    outPos = 0;
    sink = to;
  }

  /**
   * Hands the bytes written so far to the sink and lets go of the buffer. Bits short of a byte
   * stay for the next call, which {@link #alignToByte} leaves none of.
   *
   * @throws ProtocolException if the sink refuses the bytes
   */
  void end() throws ProtocolException {
    drain();
    scratch = null;
    out = null;
    sink = null;
  }

  /** Whether no symbol waits for a block. */
  boolean isEmpty() {
    return count == 0;
  }

  /** Whether the block is full: write it before adding another symbol. */
  boolean isFull() {
    return count == MAX_SYMBOLS;
  }

  void literal(int b) {
    symbols[count++] = b;
    literalFreq[b]++;
  }

  /**
   * Adds a back-reference.
   *
   * @param length 3 to 258
   * @param distance 1 to 32768
   */
  void match(int length, int distance) {
    symbols[count++] = distance << 8 | (length - 3);
    literalFreq[LENGTH_CODE[length - 3]]++;
    distanceFreq[distanceCode(distance - 1)]++;
  }

  /** §3.2.5: the distance code (0..29) of distance - 1. */
  private static int distanceCode(int d) {
    if (d < 4) {
      return d;
    }
    int top = 31 - Integer.numberOfLeadingZeros(d);
    return 2 * top + ((d >>> (top - 1)) & 1);
  }

  /**
   * Writes the symbols added since the last block as one block (BFINAL clear) and forgets them.
   *
   * @param raw the bytes the symbols stand for, for a stored block
   * @param from where they start in {@code raw}
   * @param length how many there are
   * @param storedOnly write stored blocks whatever the sizes (compression level 0)
   * @throws ProtocolException if the sink refuses the bytes
   */
  void writeBlock(byte[] raw, int from, int length, boolean storedOnly) throws ProtocolException {
    if (count == 0 && length == 0) {
      return;
    }
    literalFreq[END_OF_BLOCK] = 1;
    long extraBits = 0;
    for (int c = 265; c < 285; c++) {
      extraBits += (long) literalFreq[c] * LENGTH_EXTRA[LENGTH_BASE[c - 257]];
    }
    for (int c = 4; c < DISTANCES; c++) {
      extraBits += (long) distanceFreq[c] * DISTANCE_EXTRA[c];
    }
    long fixed = 3 + extraBits + cost(literalFreq, FIXED_LITERAL_LENGTH, LITERALS)
        + cost(distanceFreq, FIXED_DISTANCE_LENGTH, DISTANCES);
    long stored = 0;
    for (int left = length; left > 0 || stored == 0; left -= STORED_MAX) {
      stored += 3 + 7 + 32 + 8L * Math.min(left, STORED_MAX);
    }
    if (storedOnly) {
      writeStored(raw, from, length);
    } else if (count < 64 && fixed <= stored) {
      // A dynamic header costs more than a short block can save.
      writeFixed();
    } else {
      long dynamic = buildDynamicCodes() + extraBits
          + cost(literalFreq, literalLength, LITERALS) + cost(distanceFreq, distanceLength, DISTANCES);
      if (stored < fixed && stored < dynamic) {
        writeStored(raw, from, length);
      } else if (fixed <= dynamic) {
        writeFixed();
      } else {
        writeDynamic();
      }
    }
    count = 0;
    Arrays.fill(literalFreq, 0);
    Arrays.fill(distanceFreq, 0);
  }

  private static long cost(int[] freq, byte[] lengths, int n) {
    long bits = 0;
    for (int i = 0; i < n; i++) {
      bits += (long) freq[i] * lengths[i];
    }
    return bits;
  }

  private void writeStored(byte[] raw, int from, int length) throws ProtocolException {
    do {
      int n = Math.min(length, STORED_MAX);
      putBits(0, 3); // BFINAL 0, BTYPE 00
      alignToByte();
      putBits(n | (long) (~n & 0xffff) << 16, 32); // LEN, NLEN
      copy(raw, from, n);
      from += n;
      length -= n;
    } while (length > 0);
  }

  private void writeFixed() throws ProtocolException {
    putBits(1 << 1, 3); // BFINAL 0, BTYPE 01
    writeSymbols(FIXED_LITERAL_CODE, FIXED_LITERAL_LENGTH, FIXED_DISTANCE_CODE,
        FIXED_DISTANCE_LENGTH);
  }

  private void writeDynamic() throws ProtocolException {
    putBits(2 << 1, 3); // BFINAL 0, BTYPE 10
    putBits((hlit - 257) | (hdist - 1) << 5 | (hclen - 4) << 10, 14);
    for (int i = 0; i < hclen; i++) {
      putBits(codeLengthLength[CODE_LENGTH_ORDER[i]], 3);
    }
    for (int i = 0; i < runCount; i++) {
      int run = lengthRuns[i];
      int sym = run & 0xff;
      int extra = sym == 16 ? 2 : sym == 17 ? 3 : sym == 18 ? 7 : 0;
      putBits(codeLengthCode[sym] | (long) (run >>> 8) << codeLengthLength[sym],
          codeLengthLength[sym] + extra);
    }
    writeSymbols(literalCode, literalLength, distanceCode, distanceLength);
  }

  private void writeSymbols(short[] litCode, byte[] litLen, short[] distCode, byte[] distLen)
      throws ProtocolException {
    for (int i = 0; i < count; i++) {
      int s = symbols[i];
      if (s < 256) {
        putBits(litCode[s], litLen[s]);
        continue;
      }
      int l = s & 0xff;
      int lc = LENGTH_CODE[l];
      int le = LENGTH_EXTRA[l];
      putBits(litCode[lc] | (long) (l - LENGTH_BASE[lc - 257]) << litLen[lc], litLen[lc] + le);
      int d = (s >>> 8) - 1;
      int dc = distanceCode(d);
      int de = DISTANCE_EXTRA[dc];
      putBits(distCode[dc] | (long) (d - DISTANCE_BASE[dc]) << distLen[dc], distLen[dc] + de);
    }
    putBits(litCode[END_OF_BLOCK], litLen[END_OF_BLOCK]);
  }

  /**
   * Builds the dynamic codes for the current frequencies and the run-length coded lengths that
   * describe them.
   *
   * @return the size of the dynamic block header in bits, BFINAL and BTYPE included
   */
  private long buildDynamicCodes() {
    buildLengths(literalFreq, LITERALS, MAX_BITS, literalLength);
    buildLengths(distanceFreq, DISTANCES, MAX_BITS, distanceLength);
    canonicalCodes(literalLength, LITERALS, literalCode, lengthCount);
    canonicalCodes(distanceLength, DISTANCES, distanceCode, lengthCount);
    hlit = LITERALS;
    while (hlit > 257 && literalLength[hlit - 1] == 0) {
      hlit--;
    }
    hdist = DISTANCES;
    while (hdist > 1 && distanceLength[hdist - 1] == 0) {
      hdist--;
    }
    Arrays.fill(codeLengthFreq, 0);
    runCount = 0;
    runLengths(literalLength, hlit);
    runLengths(distanceLength, hdist);
    buildLengths(codeLengthFreq, CODE_LENGTHS, MAX_CODE_LENGTH_BITS, codeLengthLength);
    canonicalCodes(codeLengthLength, CODE_LENGTHS, codeLengthCode, lengthCount);
    hclen = CODE_LENGTHS;
    while (hclen > 4 && codeLengthLength[CODE_LENGTH_ORDER[hclen - 1]] == 0) {
      hclen--;
    }
    long header = 3 + 14 + 3L * hclen;
    for (int i = 0; i < runCount; i++) {
      int sym = lengthRuns[i] & 0xff;
      header += codeLengthLength[sym] + (sym == 16 ? 2 : sym == 17 ? 3 : sym == 18 ? 7 : 0);
    }
    return header;
  }

  /** §3.2.7: appends the run-length coding of {@code lengths[0..n)} to {@link #lengthRuns}. */
  private void runLengths(byte[] lengths, int n) {
    int i = 0;
    while (i < n) {
      int len = lengths[i];
      int run = 1;
      while (i + run < n && lengths[i + run] == len) {
        run++;
      }
      i += run;
      if (len == 0) {
        while (run >= 11) {
          int r = Math.min(run, 138);
          addRun(18, r - 11);
          run -= r;
        }
        if (run >= 3) {
          addRun(17, run - 3);
          run = 0;
        }
      } else {
        addRun(len, 0);
        run--;
        while (run >= 3) {
          int r = Math.min(run, 6);
          addRun(16, r - 3);
          run -= r;
        }
      }
      for (; run > 0; run--) {
        addRun(len, 0);
      }
    }
  }

  private void addRun(int sym, int extra) {
    lengthRuns[runCount++] = sym | extra << 8;
    codeLengthFreq[sym]++;
  }

  /**
   * Computes length-limited Huffman code lengths: at least two symbols get a code (so the code is
   * complete), the most frequent the shortest.
   *
   * @param freq the frequency of each symbol
   * @param n how many symbols
   * @param limit the longest code allowed
   * @param lengths receives each symbol's code length, 0 for symbols without a code
   */
  private void buildLengths(int[] freq, int n, int limit, byte[] lengths) {
    Arrays.fill(lengths, 0, n, (byte) 0);
    int used = 0;
    for (int s = 0; s < n; s++) {
      if (freq[s] != 0) {
        sortKeys[used++] = (long) freq[s] << 16 | s;
      }
    }
    for (int s = 0; used < 2; s++) { // a lone code (or none) is padded with unused symbols
      if (freq[s] == 0) {
        sortKeys[used++] = s;
      }
    }
    sort(sortKeys, used);
    for (int i = 0; i < used; i++) {
      weights[i] = Math.max(1, (int) (sortKeys[i] >>> 16));
    }
    minimumRedundancyLengths(weights, used);
    // weights[i] is now the code length of the i-th rarest symbol, longest first.
    Arrays.fill(lengthCount, 0);
    int longest = 0;
    for (int i = 0; i < used; i++) {
      lengthCount[weights[i]]++;
      longest = Math.max(longest, weights[i]);
    }
    if (longest > limit) {
      // Move leaves up in pairs until none is deeper than the limit; each step keeps the code
      // complete (two leaves at depth d become one at d - 1, one leaf higher up splits in two).
      for (int d = longest; d > limit; d--) {
        while (lengthCount[d] > 0) {
          int j = d - 2;
          while (lengthCount[j] == 0) {
            j--;
          }
          lengthCount[d] -= 2;
          lengthCount[d - 1]++;
          lengthCount[j + 1] += 2;
          lengthCount[j]--;
        }
      }
      longest = limit;
    }
    int i = 0;
    for (int d = longest; d > 0; d--) {
      for (int k = lengthCount[d]; k > 0; k--) {
        lengths[(int) (sortKeys[i++] & 0xffff)] = (byte) d;
      }
    }
  }

  /**
   * Shell sort with Ciura's gaps: {@code Arrays.sort} allocates as it partitions on recent JDKs,
   * and the hot path allocates nothing.
   */
  private static void sort(long[] a, int n) {
    for (int gap : SHELL_GAPS) {
      for (int i = gap; i < n; i++) {
        long v = a[i];
        int j = i;
        for (; j >= gap && a[j - gap] > v; j -= gap) {
          a[j] = a[j - gap];
        }
        a[j] = v;
      }
    }
  }

  private static final int[] SHELL_GAPS = {132, 57, 23, 10, 4, 1};

  /**
   * Moffat and Katajainen's in-place computation of minimum-redundancy code lengths.
   *
   * @param a on entry the weights in ascending order, at least two; on exit the code lengths
   * @param n how many
   */
  private static void minimumRedundancyLengths(int[] a, int n) {
    // Pass 1, left to right: combine the two lightest of the leaves and internal nodes; an
    // internal node's slot ends up holding its parent's index.
    a[0] += a[1];
    int root = 0;
    int leaf = 2;
    for (int next = 1; next < n - 1; next++) {
      if (leaf >= n || a[root] < a[leaf]) {
        a[next] = a[root];
        a[root++] = next;
      } else {
        a[next] = a[leaf++];
      }
      if (leaf >= n || (root < next && a[root] < a[leaf])) {
        a[next] += a[root];
        a[root++] = next;
      } else {
        a[next] += a[leaf++];
      }
    }
    // Pass 2, right to left: the depth of each internal node.
    a[n - 2] = 0;
    for (int next = n - 3; next >= 0; next--) {
      a[next] = a[a[next]] + 1;
    }
    // Pass 3, right to left: the depth of each leaf.
    int available = 1;
    int usedAtDepth = 0;
    int depth = 0;
    root = n - 2;
    int next = n - 1;
    while (available > 0) {
      while (root >= 0 && a[root] == depth) {
        usedAtDepth++;
        root--;
      }
      while (available > usedAtDepth) {
        a[next--] = depth;
        available--;
      }
      available = 2 * usedAtDepth;
      depth++;
      usedAtDepth = 0;
    }
  }

  /**
   * §3.2.2: the canonical code of each symbol from the code lengths, bit-reversed because DEFLATE
   * sends Huffman codes from their most significant bit.
   */
  private static void canonicalCodes(byte[] lengths, int n, short[] codes, int[] count) {
    Arrays.fill(count, 0);
    for (int i = 0; i < n; i++) {
      count[lengths[i]]++;
    }
    count[0] = 0;
    int code = 0;
    int[] next = count; // reused: next[len] is the next code of that length
    int previous = 0;
    for (int len = 1; len <= MAX_BITS + 1; len++) {
      int c = next[len];
      code = (code + previous) << 1;
      previous = c;
      next[len] = code;
    }
    for (int i = 0; i < n; i++) {
      int len = lengths[i];
      if (len != 0) {
        codes[i] = (short) (Integer.reverse(next[len]++) >>> (32 - len));
      }
    }
  }

  // Bits and bytes

  /**
   * Appends the low {@code n} bits of {@code value}, least significant first.
   *
   * @param value the bits, nothing above bit {@code n}
   * @param n 0 to 32
   */
  private void putBits(long value, int n) throws ProtocolException {
    bits |= value << bitCount;
    bitCount += n;
    if (bitCount >= 32) {
      if (outPos > out.length - 4) {
        drain();
      }
      int v = (int) bits;
      out[outPos] = (byte) v;
      out[outPos + 1] = (byte) (v >>> 8);
      out[outPos + 2] = (byte) (v >>> 16);
      out[outPos + 3] = (byte) (v >>> 24);
      outPos += 4;
      bits >>>= 32;
      bitCount -= 32;
    }
  }

  /** Pads the bits to a whole byte with zeros and writes them all out. */
  private void alignToByte() throws ProtocolException {
    while (bitCount > 0) {
      if (outPos == out.length) {
        drain();
      }
      out[outPos++] = (byte) bits;
      bits >>>= 8;
      bitCount -= 8;
    }
    bits = 0;
    bitCount = 0;
  }

  private void copy(byte[] raw, int from, int n) throws ProtocolException {
    while (n > 0) {
      if (outPos == out.length) {
        drain();
      }
      int k = Math.min(n, out.length - outPos);
      System.arraycopy(raw, from, out, outPos, k);
      outPos += k;
      from += k;
      n -= k;
    }
  }

  private void drain() throws ProtocolException {
    if (outPos > 0) {
      scratch.clear().limit(outPos);
      sink.accept(scratch);
      outPos = 0;
    }
  }

  /**
   * §7.2.1 of RFC 7692: ends the data so far with an empty stored block, aligned to a byte. With
   * {@code withLength} its {@code 00 00 ff ff} follows (a sync flush, for a frame that does not
   * end the message); without, the message ends here, the four octets removed.
   *
   * @param withLength whether to write LEN and NLEN
   * @throws ProtocolException if the sink refuses the bytes
   */
  void emptyStoredBlock(boolean withLength) throws ProtocolException {
    putBits(0, 3);
    alignToByte();
    if (withLength) {
      putBits(0xffff_0000L, 32);
    }
  }

  /** Forgets the symbols of an unfinished block (the stream restarts). */
  void reset() {
    count = 0;
    Arrays.fill(literalFreq, 0);
    Arrays.fill(distanceFreq, 0);
    bits = 0;
    bitCount = 0;
  }
}
