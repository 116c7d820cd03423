package dev.wsjava.internal.deflate;

import dev.wsjava.extension.ByteSink;
import dev.wsjava.extension.Extension;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.CloseCode;
import dev.wsjava.ProtocolException;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * RFC 7692 §7.2: permessage-deflate on one connection: compresses outbound messages and
 * decompresses inbound ones whose first frame has RSV1, as negotiated by {@link
 * PerMessageDeflate}.
 *
 * <p>Outbound, each frame's payload is deflated (raw DEFLATE) and sync-flushed, so every frame
 * carries all of its data; on the last frame of a message the flush's {@code 00 00 ff ff} is
 * removed (§7.2.1), and a message whose compressed form would end in nothing sends the single
 * octet {@code 00} (§7.2.3.6). RSV1 is set on the first frame of a compressed message only. A
 * message sent in one frame shorter than the configured minimum goes out uncompressed with RSV1
 * clear, which §6 allows per message.
 *
 * <p>Compression that pays: the first {@link #PROBE} bytes (at most) of a message are deflated
 * first; when that does not shrink them by a sixteenth, the message goes out as it is, RSV1 clear
 * (random, encrypted or already compressed data: deflating it costs CPU and grows it). The probe
 * has fed the compressor bytes the peer's decompressor will not see, so the compressor is reset:
 * a compressor may always forget its window (that is all no_context_takeover asks of it), since it
 * only ever refers back to bytes it holds, and after a reset it holds only bytes sent after it,
 * which the peer's window has too. An uncompressed message is not part of the peer's window
 * either (§7.2.2 inflates only RSV1 messages), so the two stay consistent. The decision is made
 * per message on its first piece (a first fragment under 256 bytes is compressed untried), so
 * JSON after a JPEG is compressed again; a message that turns incompressible after a compressible
 * start stays compressed to its end. Only zlib's compressor (the default 15-bit window) probes;
 * the small-window compressor compresses every message.
 *
 * <p>Inbound, frames of a compressed message are inflated as they arrive, {@code 00 00 ff ff} is
 * appended after the last (§7.2.2), and the output reaches the sink in chunks of at most 16 KiB.
 * When the sink refuses a chunk (the message-size limit) inflating stops at once, so a
 * decompression bomb costs at most one chunk past the limit. Corrupt data fails with 1007.
 * Messages without RSV1 pass through unchanged.
 *
 * <p>A DEFLATE block with BFINAL set (§7.2.3.4) ends a zlib stream: the inflater then restarts
 * for the blocks that follow and is reset at the end of that message, so a later message that
 * refers back across such a block fails with 1007. Peers that use BFINAL are rare; zlib-based ones
 * never do.
 *
 * <p>Outbound back-references stay within the window agreed for this end's direction (§7.1.2):
 * with 15 bits zlib's deflater compresses; below that, zlib cannot be held to the window and a
 * compressor of this package ({@code WindowedDeflater}) does the work, with the same level and
 * flush rules. The inflater reads any window up to 15 bits, so the inbound window needs nothing.
 *
 * <p>Memory: the compressor (about 256 KiB native for zlib's deflater; for a smaller window about
 * 7 * 2^N + 100 KiB on the heap, 104 KiB at 2^9 and 212 KiB at 2^14) and the inflater (40 KiB
 * native) are created on the first compressed message in their direction and released by {@link
 * #close()}; scratch space is borrowed per call from a shared pool, so an idle connection holds no
 * buffer.
 *
 * <p>Not thread-safe: one connection drives it from one thread at a time.
 */
public final class DeflateExtension implements Extension {
  private static final byte[] TRAILER = {0x00, 0x00, (byte) 0xff, (byte) 0xff};
  private static final byte[] NOTHING = new byte[0];

  /** The most bytes of a message deflated to decide whether compressing it pays. */
  static final int PROBE = 12 * 1024;

  /** A first piece smaller than this is compressed untried: too little to judge by. */
  private static final int PROBE_MIN = 256;

  private final int level;
  private final int minCompressSize;
  private final boolean outboundNoContextTakeover;
  private final boolean inboundNoContextTakeover;
  private final int outboundWindowBits;

  private Deflater deflater;
  private WindowedDeflater windowedDeflater;
  private Inflater inflater;
  private ByteBuffer trailer;
  private boolean closed;

  /** Whether the outbound message in progress is being compressed. */
  private boolean compressing;
  /** Whether incompressible messages go out uncompressed (see the class comment); on by default. */
  private boolean skipIncompressible = true;

  /** Whether the inbound compressed message in progress has had any payload bytes. */
  private boolean inboundHadBytes;
  /** Whether a BFINAL block ended the zlib stream during the inbound message in progress. */
  private boolean inboundStreamEnded;

  /**
   * Creates the extension; zlib streams come later, on first use.
   *
   * @param level the zlib compression level, 0-9
   * @param minCompressSize single-frame messages shorter than this are sent uncompressed
   * @param outboundNoContextTakeover reset the compressor after every outbound message
   * @param inboundNoContextTakeover reset the decompressor after every inbound message
   * @param outboundWindowBits 8 to 15: outbound back-references reach at most 2^N bytes
   */
  public DeflateExtension(
      int level,
      int minCompressSize,
      boolean outboundNoContextTakeover,
      boolean inboundNoContextTakeover,
      int outboundWindowBits) {
    if (outboundWindowBits < DeflateParams.MIN_WINDOW_BITS
        || outboundWindowBits > DeflateParams.MAX_WINDOW_BITS) {
      throw new IllegalArgumentException("window bits " + outboundWindowBits + " not in 8..15");
    }
    this.level = level;
    this.minCompressSize = minCompressSize;
    this.outboundNoContextTakeover = outboundNoContextTakeover;
    this.inboundNoContextTakeover = inboundNoContextTakeover;
    this.outboundWindowBits = outboundWindowBits;
  }

  /**
   * Returns {@code permessage-deflate}.
   *
   * @return the registered extension name
   */
  @Override
  public String name() {
    return PerMessageDeflate.NAME;
  }

  /**
   * Returns {@link #RSV1}, the "Per-Message Compressed" bit (RFC 7692 §6).
   *
   * @return {@link #RSV1}
   */
  @Override
  public int rsvBits() {
    return RSV1;
  }

  /**
   * Returns whether this end's compressor forgets its window after every message it sends: the
   * negotiated {@code *_no_context_takeover} for this end's direction, or this end's own wish.
   *
   * @return true when outbound messages never refer to earlier ones
   */
  public boolean outboundNoContextTakeover() {
    return outboundNoContextTakeover;
  }

  /**
   * Returns whether the peer's compressor forgets its window after every message, so that this
   * end's decompressor is reset after every inbound message.
   *
   * @return true when inbound messages never refer to earlier ones
   */
  public boolean inboundNoContextTakeover() {
    return inboundNoContextTakeover;
  }

  /**
   * Returns the base-2 logarithm of the farthest back-reference this end's compressor makes: the
   * negotiated {@code *_max_window_bits} for this end's direction, else 15.
   *
   * @return 8 to 15
   */
  public int outboundWindowBits() {
    return outboundWindowBits;
  }

  /**
   * Returns a key equal for two extensions that compress every message to the same bytes, or
   * {@code null} when this one keeps its window between messages (its output then depends on what
   * it sent before). A message compressed once by a {@link #sharedCopy()} can go out unchanged on
   * every connection whose extension has an equal key: that is how topics send one compressed
   * frame to many subscribers.
   *
   * @return the key, or {@code null} with context takeover
   */
  public Object sharedForm() {
    return outboundNoContextTakeover
        ? new SharedForm(level, minCompressSize, outboundWindowBits, skipIncompressible)
        : null;
  }

  /**
   * Returns a new extension that compresses exactly as this one does, for encoding messages once
   * on behalf of every connection with an equal {@link #sharedForm()}; it holds no state of this
   * connection.
   *
   * @return the copy
   * @throws IllegalStateException when this extension keeps context ({@link #sharedForm()} is
   *     null)
   */
  public DeflateExtension sharedCopy() {
    if (!outboundNoContextTakeover) {
      throw new IllegalStateException("a compressor with context takeover cannot be shared");
    }
    DeflateExtension copy = new DeflateExtension(level, minCompressSize, true, true, outboundWindowBits);
    copy.skipIncompressible = skipIncompressible;
    return copy;
  }

  /**
   * Compresses every message, even one that compressing does not shrink: for benchmarks that
   * measure what the probe saves. Call before the first message.
   *
   * @return this extension
   */
  public DeflateExtension compressEverything() {
    skipIncompressible = false;
    return this;
  }

  /** What makes two context-free compressors produce the same bytes. */
  private record SharedForm(int level, int minCompressSize, int windowBits, boolean skips) {}

  /**
   * Decompresses the payload of one inbound data frame (RFC 7692 §7.2.2).
   *
   * @param messageRsv the RSV bits of the first frame of the message
   * @param fin whether this is the last frame of the message
   * @param payload the frame payload; consumed
   * @param out receives the inflated bytes, at most 16 KiB per call
   * @throws ProtocolException 1007 when the compressed data is corrupt, or whatever the sink
   *     throws (1009 past the message-size limit)
   */
  @Override
  public void decode(int messageRsv, boolean fin, ByteBuffer payload, ByteSink out)
      throws ProtocolException {
    checkOpen();
    if ((messageRsv & RSV1) == 0) {
      passThrough(payload, out);
      return;
    }
    if (!payload.hasRemaining() && !fin) {
      return;
    }
    Inflater inf = inflater();
    ByteBuffer scratch = ScratchBuffers.acquire();
    try {
      if (payload.hasRemaining()) {
        inboundHadBytes = true;
        inflate(inf, payload, scratch, out);
      }
      if (fin) {
        // A compressed message with no payload bytes at all carries nothing; appending the
        // trailer alone would leave the inflater inside a stored block header.
        if (inboundHadBytes) {
          inflate(inf, trailer.clear(), scratch, out);
        }
        if (inboundNoContextTakeover || inboundStreamEnded) {
          inf.reset();
        }
        inboundHadBytes = false;
        inboundStreamEnded = false;
      }
    } catch (DataFormatException e) {
      String why = e.getMessage() != null ? e.getMessage() : "unknown zlib error";
      throw new ProtocolException(
          CloseCode.INVALID_PAYLOAD,
          "permessage-deflate: compressed data is corrupt (zlib: " + why + "; RFC 7692 §7.2.2)",
          e);
    } finally {
      inf.setInput(NOTHING); // drop the reference to the caller's buffer
      ScratchBuffers.release(scratch);
    }
  }

  private void inflate(Inflater inf, ByteBuffer input, ByteBuffer scratch, ByteSink out)
      throws DataFormatException, ProtocolException {
    byte[] buf = scratch.array();
    inf.setInput(input);
    while (true) {
      int n = inf.inflate(buf);
      emit(scratch, 0, n, out);
      if (inf.finished()) {
        // §7.2.3.4: a block with BFINAL set ended the stream; what follows (at least the 0x00
        // header octet and the trailer) starts a new one. The input's position has advanced
        // past what was consumed.
        inf.reset();
        inf.setInput(input);
        inboundStreamEnded = true;
      } else if (inf.needsInput()) {
        if (n < buf.length) {
          return; // all input used and all output out
        }
      } else if (n == 0) {
        throw new DataFormatException(
            inf.needsDictionary() ? "raw DEFLATE data asked for a dictionary" : "no progress");
      }
    }
  }

  /**
   * Compresses the payload of one outbound data frame (RFC 7692 §7.2.1).
   *
   * @param first whether this is the first frame of the message
   * @param fin whether this is the last frame of the message
   * @param payload the bytes to send; consumed
   * @param out receives the frame's payload, at most 16 KiB per call
   * @return {@link #RSV1} on the first frame of a compressed message, else 0
   * @throws ProtocolException only if the sink refuses the bytes
   */
  @Override
  public int encode(boolean first, boolean fin, ByteBuffer payload, ByteSink out)
      throws ProtocolException {
    checkOpen();
    if (first) {
      // A message sent in pieces has an unknown size: it is compressed.
      compressing = !fin || payload.remaining() >= minCompressSize;
    }
    if (!compressing) {
      passThrough(payload, out);
      return 0;
    }
    if (outboundWindowBits < DeflateParams.MAX_WINDOW_BITS) {
      WindowedDeflater def = windowedDeflater();
      ByteBuffer scratch = ScratchBuffers.acquire();
      try {
        def.deflate(payload, fin, scratch, out);
      } finally {
        ScratchBuffers.release(scratch);
      }
      if (fin && outboundNoContextTakeover) {
        def.reset();
      }
      return first ? RSV1 : 0;
    }
    Deflater def = deflater();
    ByteBuffer scratch = ScratchBuffers.acquire();
    try {
      if (first && skipIncompressible && payload.remaining() >= PROBE_MIN) {
        if (!probe(def, payload, fin, scratch, out)) {
          compressing = false; // the payload went out as it is
          return 0;
        }
        if (!payload.hasRemaining()) { // the probe took it all, flushed (and trimmed when fin)
          if (fin && outboundNoContextTakeover) {
            def.reset();
          }
          return RSV1;
        }
      }
      deflate(def, payload, fin, scratch, out);
    } finally {
      def.setInput(NOTHING); // drop the reference to the caller's buffer
      ScratchBuffers.release(scratch);
    }
    if (fin && outboundNoContextTakeover) {
      def.reset();
    }
    return first ? RSV1 : 0;
  }

  /**
   * Deflates the first {@link #PROBE} bytes of a message (at most) and sends them when that shrank
   * them by a sixteenth; else resets the compressor (it saw bytes the peer will not) and sends the
   * whole payload as it is.
   *
   * @return true when compressing pays: the probe's bytes went out compressed, the rest of the
   *     payload waits; false when the whole payload went out uncompressed
   */
  private static boolean probe(
      Deflater def, ByteBuffer payload, boolean fin, ByteBuffer scratch, ByteSink out)
      throws ProtocolException {
    int start = payload.position();
    int end = payload.limit();
    int n = Math.min(end - start, PROBE);
    boolean whole = start + n == end;
    byte[] buf = scratch.array(); // 16 KiB: more than PROBE, so a complete flush fits when it pays
    payload.limit(start + n);
    def.setInput(payload);
    int made = def.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH);
    payload.limit(end);
    if (made == buf.length || made > n - (n >> 4)) {
      def.reset();
      payload.position(start);
      passThrough(payload, out);
      return false;
    }
    // The sync flush is complete (zlib stopped short of the buffer's end).
    if (whole && fin) {
      if (made < TRAILER.length || !endsWithTrailer(buf, made)) {
        throw new IllegalStateException("zlib ended a sync flush without 00 00 ff ff");
      }
      made -= TRAILER.length;
      if (made == 0) {
        buf[made++] = 0x00; // §7.2.3.6, as in deflate()
      }
    }
    emit(scratch, 0, made, out);
    payload.position(start + n);
    return true;
  }

  private static void deflate(
      Deflater def, ByteBuffer payload, boolean fin, ByteBuffer scratch, ByteSink out)
      throws ProtocolException {
    byte[] buf = scratch.array();
    def.setInput(payload);
    // On the last frame the final 4 bytes of output may be the trailer to remove, so they are
    // held back at the front of the buffer until more output shows they are not.
    int held = 0;
    boolean sent = false;
    while (true) {
      int end = held + def.deflate(buf, held, buf.length - held, Deflater.SYNC_FLUSH);
      if (end == buf.length) { // full: more may follow
        int keep = fin ? TRAILER.length : 0;
        emit(scratch, 0, end - keep, out);
        System.arraycopy(buf, end - keep, buf, 0, keep);
        held = keep;
        sent = true;
        continue;
      }
      if (!fin) {
        emit(scratch, 0, end, out);
        return;
      }
      if (end >= TRAILER.length && endsWithTrailer(buf, end)) {
        end -= TRAILER.length;
      } else if (end != 0) {
        throw new IllegalStateException("zlib ended a sync flush without 00 00 ff ff");
      }
      if (end == 0 && !sent) {
        // §7.2.3.6: nothing left to send (an empty message, or nothing new since the last
        // flush). An empty stored block, trailer removed, is the single octet 0x00.
        buf[0] = 0x00;
        end = 1;
      }
      emit(scratch, 0, end, out);
      return;
    }
  }

  private static boolean endsWithTrailer(byte[] buf, int end) {
    return buf[end - 4] == TRAILER[0]
        && buf[end - 3] == TRAILER[1]
        && buf[end - 2] == TRAILER[2]
        && buf[end - 1] == TRAILER[3];
  }

  private static void emit(ByteBuffer scratch, int from, int to, ByteSink out)
      throws ProtocolException {
    if (to > from) {
      scratch.clear().position(from).limit(to);
      out.accept(scratch);
    }
  }

  /** Hands the payload on as it is, in chunks of at most 16 KiB like compressed output. */
  private static void passThrough(ByteBuffer payload, ByteSink out) throws ProtocolException {
    int end = payload.limit();
    while (payload.hasRemaining()) {
      int chunkEnd = Math.min(end, payload.position() + ScratchBuffers.SIZE);
      out.accept(payload.slice(payload.position(), chunkEnd - payload.position()));
      payload.position(chunkEnd);
    }
  }

  private Deflater deflater() {
    Deflater d = deflater;
    if (d == null) {
      d = new Deflater(level, true);
      deflater = d;
    }
    return d;
  }

  private WindowedDeflater windowedDeflater() {
    WindowedDeflater d = windowedDeflater;
    if (d == null) {
      d = new WindowedDeflater(outboundWindowBits, level);
      windowedDeflater = d;
    }
    return d;
  }

  private Inflater inflater() {
    Inflater i = inflater;
    if (i == null) {
      i = new Inflater(true);
      inflater = i;
      trailer = ByteBuffer.wrap(TRAILER).asReadOnlyBuffer();
    }
    return i;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("permessage-deflate extension is closed; the connection"
          + " that negotiated it has ended");
    }
  }

  /** Whether the compressor exists (tests: it is created lazily). */
  boolean holdsDeflater() {
    return deflater != null || windowedDeflater != null;
  }

  /** Whether the decompressor exists (tests: it is created lazily). */
  boolean holdsInflater() {
    return inflater != null;
  }

  /** Releases the native zlib streams; idempotent. */
  @Override
  public void close() {
    closed = true;
    if (deflater != null) {
      deflater.end();
      deflater = null;
    }
    windowedDeflater = null;
    if (inflater != null) {
      inflater.end();
      inflater = null;
      trailer = null;
    }
  }

  /**
   * Describes the negotiated behaviour, for logs.
   *
   * @return for example {@code permessage-deflate[level=3, min size=16, outbound window=2^15,
   *     outbound context reset, inbound context kept]}
   */
  @Override
  public String toString() {
    return PerMessageDeflate.NAME
        + "[level=" + level
        + ", min size=" + minCompressSize
        + ", outbound window=2^" + outboundWindowBits
        + ", outbound context " + (outboundNoContextTakeover ? "reset" : "kept")
        + ", inbound context " + (inboundNoContextTakeover ? "reset" : "kept")
        + (closed ? ", closed" : "")
        + "]";
  }
}
