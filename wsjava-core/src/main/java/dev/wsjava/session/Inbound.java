package dev.wsjava.session;

import dev.wsjava.extension.ByteSink;
import dev.wsjava.extension.Extension;
import dev.wsjava.CloseCode;
import dev.wsjava.protocol.CloseFrame;
import dev.wsjava.protocol.FrameParser;
import dev.wsjava.protocol.LimitExceededException;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.ProtocolException;
import dev.wsjava.protocol.Role;
import dev.wsjava.protocol.Utf8Validator;
import java.nio.ByteBuffer;

/**
 * The receiving half of a {@link Session} (RFC 6455 §5.2-§5.6, §8.1): the frame parser and the
 * message being read. It turns parsed frames into messages: checks the message size and the UTF-8
 * of text as it arrives, runs the negotiated extensions' decoders, and assembles fragments (or
 * streams them); it gathers the payload of a control frame for the session, which owns what control
 * frames do.
 *
 * <p>A session makes it when the first byte arrives after the handshake: an idle connection holds
 * no parser, no buffers and no validator.
 *
 * <p>Not thread-safe: the session's reading thread only.
 */
final class Inbound {
  private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
  private static final byte[] NO_BYTES = new byte[0];
  private static final ByteSink[] NO_SINKS = new ByteSink[0];
  /** The longest control frame payload (RFC 6455 §5.5). */
  private static final int MAX_CONTROL = 125;
  /**
   * A reassembly buffer up to this size stays with its connection between messages; a larger one
   * goes back to the {@link AssemblyPool} after its message, so idle memory stays low.
   */
  static final int KEEP_ASSEMBLY = 16 * 1024;
  /** The largest array the JVM reliably allocates. */
  private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

  final FrameParser parser;
  private final Extension[] extensions;
  private final ByteSink[] decodeSinks;
  private final long maxMessage;
  private final boolean streamMessages;

  /** The connection's share of the memory budget, or null when nothing is counted. */
  MemoryBudget.Account memory; // set by Session.chargeMemoryTo before any charge
  /** Where large assembly arrays come from and go back to. */
  private final AssemblyPool pool;
  /**
   * While the listener reads a view of {@link #assembly}: then the array must not go back to the
   * pool, even if another thread closes the connection meanwhile (it drops it instead).
   */
  private boolean delivering;
  /** Bytes of {@link #assembly} charged to {@link #memory}: its capacity. */
  private long charged;
  /** While an extension decodes a payload chunk: whether the sink may stop it for memory. */
  private boolean mayStall;

  /** Set when the listener paused reading during {@link Session#receive}: stop at once. */
  boolean pauseRequested;
  /** Bytes the last {@link Session#receive} waits for; 0 when it consumed everything. */
  long stalledFor;
  /** A pause left work that needs no new bytes: see {@link Session#mustFeedAgain()}. */
  boolean feedAgain;

  /**
   * The most a decoder (inflation) produces in one {@link Session#receive} before it stops and
   * asks to be fed again: a decompression bomb turns each compressed byte into up to a thousand,
   * so without a bound one peer's read holds its thread for 16 MiB (the message limit) of output,
   * 10-20 ms, and 64 such peers held a loop for seconds. The transport feeds the connection again
   * after serving the others (NIO: the next turn of its loop; blocking: in its turn among the
   * costly, {@code CostlySlices}). Inflation of 512 KiB takes about half a millisecond; the cost of
   * a stop is one more turn.
   */
  static final long DECODE_SLICE = Long.getLong("wsjava.tuning.decodeSlice", 512 * 1024);

  /** What the decoder may still produce in this {@link Session#receive}: see {@link #DECODE_SLICE}. */
  long decodeSliceLeft;

  /** Where events go during {@link Session#receive}; null between calls. */
  SessionListener listener;

  /** The peer's close frame, or the code and reason of the violation that failed the connection. */
  CloseFrame closedWith;

  // The data message being read.
  private Opcode messageType;
  private int messageRsv;
  private long messageSize;
  private boolean messageFinSignalled;
  private boolean messageDelivered;
  private byte[] assembly = NO_BYTES;
  private int assemblyLength;
  private Utf8Validator utf8; // made at the first text message: many connections see none

  // The control frame being read (at most 125 bytes); made at the first: most never see one.
  private byte[] control;
  private int controlLength;

  /** The messages delivered and their payload bytes (decompressed), which any thread may read. */
  final Tally tally = new Tally();

  /**
   * Makes the receiving half of a session.
   *
   * @param role the session's role (what masking to expect)
   * @param config the limits and whether to stream messages
   * @param extensions the negotiated extensions, whose RSV bits the session checked
   * @param rsvBits the RSV bits those extensions own
   * @param memory the connection's share of the memory budget, or null
   * @param pool where large assembly arrays come from and go back to
   */
  Inbound(
      Role role,
      SessionConfig config,
      Extension[] extensions,
      int rsvBits,
      MemoryBudget.Account memory,
      AssemblyPool pool) {
    this.memory = memory;
    this.pool = pool;
    this.parser = new FrameParser(role, config.limits());
    parser.allowRsv(rsvBits);
    this.extensions = extensions;
    this.maxMessage = config.limits().maxMessageSize();
    this.streamMessages = config.streamMessages();
    int n = extensions.length;
    this.decodeSinks = n == 0 ? NO_SINKS : new ByteSink[n];
    for (int i = 0; i < n; i++) {
      int next = i - 1;
      decodeSinks[i] = chunk -> decode(next, chunk, false);
    }
  }

  /** At a frame header: starts a message, or a control frame's payload. */
  void onHeader() {
    Opcode op = parser.opcode();
    if (op.isControl()) {
      controlLength = 0;
      return;
    }
    if (op != Opcode.CONTINUATION) {
      messageType = op;
      messageRsv = parser.rsv();
      messageSize = 0;
      messageFinSignalled = false;
      messageDelivered = false;
      assemblyLength = 0;
      if (op == Opcode.TEXT) {
        if (utf8 == null) {
          utf8 = new Utf8Validator();
        } else {
          utf8.reset();
        }
      }
    }
  }

  /** Takes a chunk of the current frame's payload. */
  void onPayload(ByteBuffer chunk) throws ProtocolException {
    Opcode op = parser.opcode();
    if (op.isControl()) {
      int n = chunk.remaining();
      if (control == null) {
        control = new byte[MAX_CONTROL];
      }
      chunk.get(control, controlLength, n);
      controlLength += n;
      return;
    }
    boolean last = parser.fin() && parser.payloadRemaining() == 0;
    if (last
        && messageRsv == 0
        && op != Opcode.CONTINUATION
        && !streamMessages
        && chunk.remaining() == parser.payloadLength()) {
      // The whole message is in this one chunk: check it and hand it over without a copy.
      checkDecoded(chunk);
      checkTextComplete();
      messageFinSignalled = true;
      messageDelivered = true;
      tally.add(chunk.remaining(), true);
      listener.onMessage(messageType, chunk);
      return;
    }
    if (last && messageRsv == 0 && streamMessages) {
      // The message ends in this chunk: its last piece carries it, rather than an empty piece
      // after it (one call instead of two for a message in one frame).
      checkDecoded(chunk);
      checkTextComplete();
      messageFinSignalled = true;
      messageDelivered = true;
      tally.add(messageSize, true);
      listener.onMessagePart(messageType, chunk, true);
      return;
    }
    if (messageRsv == 0 || extensions.length == 0) {
      if (!streamMessages) {
        reserve((long) assemblyLength + chunk.remaining(), false); // before a byte is taken
      }
      deliverDecoded(chunk);
    } else {
      mayStall = true;
      try {
        decode(extensions.length - 1, chunk, last);
      } finally {
        mayStall = false;
      }
    }
    messageFinSignalled |= last;
  }

  /**
   * Returns the payload of the control frame just read.
   *
   * @return a view of it, valid until the next frame
   */
  ByteBuffer controlPayload() {
    return controlLength == 0 ? EMPTY.duplicate() : ByteBuffer.wrap(control, 0, controlLength);
  }

  /**
   * The view of an assembled message the listener reads: this thread's last one when it is over
   * the same array (the shared pool hands a loop the same arrays again), so delivering a message
   * allocates nothing. A thread keeps one view, not a connection: an idle one holds no array. A
   * virtual thread (a blocking connection's own) keeps none: it would hold its last array.
   */
  private static ByteBuffer view(byte[] array, int length) {
    if (Thread.currentThread().isVirtual()) {
      return ByteBuffer.wrap(array, 0, length);
    }
    ByteBuffer v = VIEW.get();
    if (v == null || v.array() != array) {
      v = ByteBuffer.wrap(array);
      VIEW.set(v);
    }
    return v.clear().limit(length).order(java.nio.ByteOrder.BIG_ENDIAN);
  }

  private static final ThreadLocal<ByteBuffer> VIEW = new ThreadLocal<>();

  /**
   * The empty piece that ends a streamed message: this thread's own, made ready again each time (a
   * piece is valid only during the call), so that ending a message allocates nothing; a virtual
   * thread gets a fresh one, as it gets fresh views.
   */
  private static ByteBuffer endPiece() {
    if (Thread.currentThread().isVirtual()) {
      return EMPTY.duplicate();
    }
    ByteBuffer e = END_PIECE.get();
    if (e == null) {
      e = ByteBuffer.allocate(0);
      END_PIECE.set(e);
    }
    return e.clear().order(java.nio.ByteOrder.BIG_ENDIAN);
  }

  private static final ThreadLocal<ByteBuffer> END_PIECE = new ThreadLocal<>();

  /** At the end of a data frame: a final one ends the message, which is delivered now. */
  void onDataFrameEnd() throws ProtocolException {
    if (!parser.fin()) {
      return;
    }
    if (!messageFinSignalled && messageRsv != 0 && extensions.length > 0) {
      decode(extensions.length - 1, EMPTY, true);
    }
    checkTextComplete();
    if (messageDelivered) {
      return;
    }
    if (streamMessages) {
      tally.add(messageSize, true);
      listener.onMessagePart(messageType, endPiece(), true);
    } else {
      tally.add(assemblyLength, true);
      ByteBuffer message = view(assembly, assemblyLength);
      delivering = true;
      try {
        listener.onMessage(messageType, message);
      } finally {
        delivering = false;
      }
      if (assembly.length > KEEP_ASSEMBLY) {
        dropAssembly();
      }
    }
    assemblyLength = 0;
  }

  /** At the end of a text message: it must not stop inside a UTF-8 sequence. */
  private void checkTextComplete() throws ProtocolException {
    if (messageType == Opcode.TEXT && !utf8.isComplete()) {
      throw new ProtocolException(
          CloseCode.INVALID_PAYLOAD, "text message ends inside a UTF-8 sequence (RFC 6455 §8.1)");
    }
  }

  /** Runs inbound data through extension {@code stage} and those before it, then delivers. */
  private void decode(int stage, ByteBuffer data, boolean fin) throws ProtocolException {
    if (stage < 0) {
      deliverDecoded(data);
      return;
    }
    extensions[stage].decode(messageRsv, fin, data, decodeSinks[stage]);
    if (fin && stage > 0) {
      decode(stage - 1, EMPTY, true);
    }
  }

  /** Takes decoded message bytes: checks size and UTF-8, then streams or assembles them. */
  private void deliverDecoded(ByteBuffer chunk) throws ProtocolException {
    checkDecoded(chunk);
    int n = chunk.remaining();
    if (streamMessages) {
      listener.onMessagePart(messageType, chunk, false);
      if (pauseRequested && mayStall) {
        // The listener cannot take more now: stop the decoder, whose next chunk could be any
        // size; the compressed bytes it has not read yet go back to the parser.
        throw MemoryStall.PAUSED;
      }
      endSlice(n);
      return;
    }
    boolean over = false;
    if (assemblyLength + n > assembly.length) {
      over = !reserve((long) assemblyLength + n, true);
    }
    chunk.get(assembly, assemblyLength, n);
    assemblyLength += n;
    if (over && mayStall) {
      // Inflated bytes cannot be given back: they were taken (an overdraft of one chunk), and the
      // decoder stops here; the compressed bytes it has not read yet go back to the parser.
      throw new MemoryStall(n);
    }
    endSlice(n);
  }

  /**
   * Counts {@code n} decoded bytes against this receive's slice; once it is used up, stops the
   * decoder as a pause does (the compressed bytes it has not read go back to the parser, and the
   * session asks to be fed again): see {@link #DECODE_SLICE}.
   */
  private void endSlice(int n) throws MemoryStall {
    if (mayStall && (decodeSliceLeft -= n) <= 0) {
      throw MemoryStall.PAUSED;
    }
  }

  /**
   * Grows the assembly so that {@code needed} bytes fit, charging the growth to the memory budget:
   * first the growth {@link #assemblyCapacity} prefers, then, on a tight budget, only what is
   * needed.
   *
   * @param overdraw charge even past the budget (for bytes already made, which cannot wait)
   * @return false when the budget was overdrawn
   * @throws MemoryStall when the budget has no room and {@code overdraw} is false; nothing was
   *     grown or charged
   */
  private boolean reserve(long needed, boolean overdraw) throws MemoryStall {
    if (needed <= assembly.length) {
      return true;
    }
    int capacity = AssemblyPool.sizeFor(assemblyCapacity(needed));
    boolean inBudget = true;
    if (memory != null) {
      if (!memory.charge(capacity - charged)) {
        // A tight budget: grow into what the account already holds, or else by what is needed.
        long spare = charged + memory.held() - memory.used();
        capacity = (int) Math.min(Math.max(needed, Math.min(capacity, spare)), MAX_ARRAY);
        long growth = capacity - charged;
        if (!memory.charge(growth)) {
          if (!overdraw) {
            throw new MemoryStall(growth);
          }
          inBudget = memory.chargeOver(growth);
        }
      }
      charged = capacity;
    }
    byte[] grown = pool.take(capacity);
    System.arraycopy(assembly, 0, grown, 0, assemblyLength);
    byte[] old = assembly;
    assembly = grown;
    pool.give(old);
    return inBudget;
  }

  /**
   * Drops the assembly and gives its memory back: the array to the pool, unless the listener may
   * still be reading it (then to the GC).
   */
  private void dropAssembly() {
    byte[] old = assembly;
    assembly = NO_BYTES;
    if (!delivering) {
      pool.give(old);
    }
    if (charged > 0) {
      memory.release(charged);
      charged = 0;
    }
  }

  /**
   * The capacity to grow the assembly to when {@code needed} bytes must fit. An uncompressed frame
   * announces how many bytes are still to come: the rest of the frame is reserved at once when at
   * least a quarter of it has arrived, and until then the array grows fourfold towards it, so a
   * large message is copied about once more instead of at every doubling, while a peer that
   * announces a large frame and stops holds at most four times what it sent.
   */
  private int assemblyCapacity(long needed) {
    long grown = Math.max(needed, Math.max(256L, 2L * assembly.length));
    if (messageRsv == 0) {
      long announced = needed + parser.payloadRemaining();
      grown = Math.max(grown, Math.min(announced, 4 * needed));
    }
    return (int) Math.min(grown, Math.min(maxMessage, MAX_ARRAY));
  }

  /** Counts decoded bytes against the message limit and checks the UTF-8 of text. */
  private void checkDecoded(ByteBuffer chunk) throws ProtocolException {
    int n = chunk.remaining();
    messageSize += n;
    if (messageSize > maxMessage || (!streamMessages && messageSize > MAX_ARRAY)) {
      throw new LimitExceededException(
          CloseCode.MESSAGE_TOO_BIG, "message size", messageSize, maxMessage);
    }
    if (messageType == Opcode.TEXT) {
      int bad = utf8.validate(chunk);
      if (bad >= 0) {
        long at = messageSize - n + (bad - chunk.position());
        throw new ProtocolException(
            CloseCode.INVALID_PAYLOAD,
            "invalid UTF-8 in text message at byte " + at + " (RFC 6455 §8.1)");
      }
    }
  }

  /** Drops the reassembly buffer between messages, so an idle connection holds none. */
  void trim() {
    if (assemblyLength == 0) {
      dropAssembly();
    }
  }

  /** Drops the message being read and gives its memory back: the connection is closed. */
  void releaseMemory() {
    assemblyLength = 0;
    dropAssembly();
  }
}
