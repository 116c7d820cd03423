package dev.wsjava.protocol;

import dev.wsjava.CloseCode;
import dev.wsjava.ProtocolException;
import java.nio.ByteBuffer;

/**
 * RFC 6455 §5.2 incremental frame parser for one connection: fed bytes in any chunking, one byte
 * at a time included, it reports each frame as a header, zero or more payload chunks, and an end.
 *
 * <p>Payload chunks are views of the input buffer, unmasked in place: nothing is copied. A chunk is
 * valid until the next call to {@link #next(ByteBuffer)}.
 *
 * <p>The parser enforces the frame-level rules: reserved opcodes (§5.2), RSV bits that no
 * negotiated extension owns (§5.2), masking by role (§5.1), control frames final and at most 125
 * bytes (§5.5), the 64-bit length's top bit (§5.2), fragment sequencing (§5.4) and the frame and
 * fragment limits. A violation throws {@link ProtocolException} with its close code; the parser
 * must not be used after that.
 *
 * <p>Not thread-safe.
 */
public final class FrameParser {

  /** What {@link #next(ByteBuffer)} found. */
  public enum Event {
    /** The input holds no complete next step; all of it was consumed into the parser's state. */
    NEED_MORE,
    /** A frame header was parsed; read it with {@link #fin()}, {@link #opcode()} and the rest. */
    HEADER,
    /** A chunk of the current frame's payload is in {@link #payload()}, unmasked. */
    PAYLOAD,
    /** The current frame is complete. */
    FRAME_END
  }

  private static final int MAX_HEADER = 14;
  private static final int MAX_CONTROL_PAYLOAD = 125;

  private final Role role;
  private final Limits limits;
  private int allowedRsv;

  // Header bytes gathered across reads when a header arrives split; made the first time one does.
  private byte[] headerBytes;
  private int headerFill;

  // The frame being read.
  private boolean inPayload;
  private boolean fin;
  private int rsv;
  private Opcode opcode;
  private boolean masked;
  private int maskKey;
  private int maskIndex;
  private long payloadLength;
  private long payloadLeft;

  // Fragment sequencing (§5.4).
  private boolean inMessage;
  private int fragments;

  // A reusable view of the caller's buffer for payload chunks.
  private ByteBuffer source;
  private ByteBuffer view;

  /**
   * Creates a parser.
   *
   * @param role this end's role: a server requires masked frames, a client rejects them
   * @param limits the frame payload and fragment limits
   */
  public FrameParser(Role role, Limits limits) {
    this.role = role;
    this.limits = limits;
  }

  /**
   * Sets the RSV bits that negotiated extensions own; frames with any other RSV bit fail (1002).
   * RSV bits are allowed only on the first frame of a data message.
   *
   * @param rsvMask a mask over 0x70 of the first header byte
   */
  public void allowRsv(int rsvMask) {
    this.allowedRsv = rsvMask & 0x70;
  }

  /**
   * Advances through the input: consumes bytes from {@code in}'s position and reports the next
   * step. Call again until it returns {@link Event#NEED_MORE}, then feed more bytes.
   *
   * @param in the received bytes; the parser advances its position, and unmasks payload in place
   * @return what was found
   * @throws ProtocolException when the peer broke a framing rule or a limit
   */
  public Event next(ByteBuffer in) throws ProtocolException {
    if (inPayload) {
      if (payloadLeft == 0) {
        inPayload = false;
        return Event.FRAME_END;
      }
      int n = (int) Math.min(payloadLeft, in.remaining());
      if (n == 0) {
        return Event.NEED_MORE;
      }
      int start = in.position();
      if (masked) {
        maskIndex = Masking.mask(in, start, n, maskKey, maskIndex);
      }
      in.position(start + n);
      payloadLeft -= n;
      if (source != in) {
        source = in;
        view = in.duplicate();
      }
      view.limit(start + n).position(start);
      return Event.PAYLOAD;
    }
    return readHeader(in);
  }

  /**
   * Gives back the last {@code n} bytes of the payload chunk just reported: they go back into
   * {@code in} (masked again, as they arrived) and the next {@link #next} reports them anew. For a
   * reader that could not take all of a chunk now (it waits for memory) and will feed the same
   * buffer again later.
   *
   * @param in the buffer of the last {@link Event#PAYLOAD}, not moved since
   * @param n how many of the chunk's last bytes to give back, at most its length
   */
  public void giveBack(ByteBuffer in, int n) {
    if (n <= 0) {
      return;
    }
    int start = in.position() - n;
    if (masked) {
      int index = (maskIndex - n) & 3;
      Masking.mask(in, start, n, maskKey, index); // XOR again: the bytes are masked as they came
      maskIndex = index;
    }
    in.position(start);
    payloadLeft += n;
    inPayload = true;
  }

  private Event readHeader(ByteBuffer in) throws ProtocolException {
    int need;
    if (headerFill == 0 && in.remaining() >= 2) {
      // Fast path: the whole header is usually in the buffer.
      int p = in.position();
      need = headerLength(in.get(p + 1));
      if (in.remaining() >= need) {
        parseHeader(in, p);
        in.position(p + need);
        return Event.HEADER;
      }
    }
    // Slow path: gather header bytes across reads.
    if (headerBytes == null) {
      headerBytes = new byte[MAX_HEADER];
    }
    while (in.hasRemaining()) {
      headerBytes[headerFill++] = in.get();
      if (headerFill >= 2 && headerFill == headerLength(headerBytes[1])) {
        parseHeader(ByteBuffer.wrap(headerBytes), 0);
        headerFill = 0;
        return Event.HEADER;
      }
    }
    return Event.NEED_MORE;
  }

  private static int headerLength(byte second) {
    int len7 = second & 0x7F;
    int ext = len7 == 126 ? 2 : len7 == 127 ? 8 : 0;
    return 2 + ext + ((second & 0x80) != 0 ? 4 : 0);
  }

  private void parseHeader(ByteBuffer b, int p) throws ProtocolException {
    int b0 = b.get(p) & 0xFF;
    int b1 = b.get(p + 1) & 0xFF;
    fin = (b0 & 0x80) != 0;
    rsv = b0 & 0x70;
    opcode = Opcode.of(b0);
    masked = (b1 & 0x80) != 0;
    int len7 = b1 & 0x7F;
    int at = p + 2;
    long length;
    if (len7 == 126) {
      length = bigEndian(b, at, 2);
      at += 2;
    } else if (len7 == 127) {
      length = bigEndian(b, at, 8);
      at += 8;
      if (length < 0) {
        throw new ProtocolException(
            CloseCode.PROTOCOL_ERROR,
            "64-bit payload length must have its most significant bit clear (RFC 6455 §5.2)");
      }
    } else {
      length = len7;
    }
    maskKey = masked ? (int) bigEndian(b, at, 4) : 0;
    maskIndex = 0;
    payloadLength = length;
    payloadLeft = length;
    inPayload = true;
    check(b0 & 0xF);
  }

  /** Reads an unsigned big-endian number whatever the buffer's byte order is. */
  private static long bigEndian(ByteBuffer b, int at, int bytes) {
    long v = 0;
    for (int i = 0; i < bytes; i++) {
      v = (v << 8) | (b.get(at + i) & 0xFF);
    }
    return v;
  }

  private void check(int rawOpcode) throws ProtocolException {
    if (opcode == null) {
      throw protocolError("reserved opcode 0x" + Integer.toHexString(rawOpcode) + " (RFC 6455 §5.2)");
    }
    if (masked != role.expectsMaskedInbound()) {
      throw protocolError(
          role == Role.SERVER
              ? "client frames must be masked (RFC 6455 §5.1)"
              : "server frames must not be masked (RFC 6455 §5.1)");
    }
    if (opcode.isControl()) {
      if (rsv != 0) {
        throw protocolError("control frames must not set RSV bits (RFC 6455 §5.2)");
      }
      if (!fin) {
        throw protocolError("control frames must be final (RFC 6455 §5.5)");
      }
      if (payloadLength > MAX_CONTROL_PAYLOAD) {
        throw protocolError(
            "control frame payload " + payloadLength + " exceeds 125 bytes (RFC 6455 §5.5)");
      }
      return;
    }
    if (opcode == Opcode.CONTINUATION) {
      if (!inMessage) {
        throw protocolError("continuation frame without a message to continue (RFC 6455 §5.4)");
      }
      if (rsv != 0) {
        throw protocolError(
            "RSV bits set on a continuation frame (only a message's first frame may carry them)");
      }
      if (fragments >= limits.maxFragments()) { // never overflows, even with no cap
        throw new LimitExceededException(
            CloseCode.MESSAGE_TOO_BIG, "fragment count", fragments + 1L, limits.maxFragments());
      }
      fragments++;
    } else {
      if (inMessage) {
        throw protocolError(
            "new " + opcode + " message started inside a fragmented message (RFC 6455 §5.4)");
      }
      if ((rsv & ~allowedRsv) != 0) {
        throw protocolError(
            "RSV bits 0x" + Integer.toHexString(rsv & ~allowedRsv)
                + " set but no negotiated extension owns them (RFC 6455 §5.2)");
      }
      fragments = 1;
    }
    inMessage = !fin;
    if (payloadLength > limits.maxFramePayload()) {
      throw new LimitExceededException(
          CloseCode.MESSAGE_TOO_BIG, "frame payload", payloadLength, limits.maxFramePayload());
    }
  }

  private static ProtocolException protocolError(String rule) {
    return new ProtocolException(CloseCode.PROTOCOL_ERROR, rule);
  }

  /**
   * Returns the current payload chunk, unmasked: a view of the input buffer from the chunk's first
   * byte to its last. Valid after {@link Event#PAYLOAD} until the next call to {@link #next}.
   *
   * @return the chunk; the caller may move its position and limit
   */
  public ByteBuffer payload() {
    return view;
  }

  /**
   * Returns whether the current frame is final.
   *
   * @return the FIN bit
   */
  public boolean fin() {
    return fin;
  }

  /**
   * Returns the current frame's RSV bits.
   *
   * @return a mask over 0x70
   */
  public int rsv() {
    return rsv;
  }

  /**
   * Returns the current frame's opcode.
   *
   * @return the opcode (never a reserved one)
   */
  public Opcode opcode() {
    return opcode;
  }

  /**
   * Returns the current frame's payload length.
   *
   * @return the length from the header
   */
  public long payloadLength() {
    return payloadLength;
  }

  /**
   * Returns how many payload bytes of the current frame have not been reported yet.
   *
   * @return 0 once the last chunk was reported
   */
  public long payloadRemaining() {
    return payloadLeft;
  }

  /**
   * Returns whether the current frame's payload has been consumed and its {@link
   * Event#FRAME_END} is still to be reported: the next {@link #next} reports it without needing a
   * byte.
   *
   * @return true when a frame end waits
   */
  public boolean frameEndPending() {
    return inPayload && payloadLeft == 0;
  }

  /**
   * Returns whether the bytes parsed so far stop inside a frame header, a frame's payload, or a
   * fragmented message.
   *
   * @return false at a message boundary
   */
  public boolean midMessage() {
    return headerFill > 0 || (inPayload && payloadLeft > 0) || inMessage;
  }

  /**
   * Returns the current header as a value (allocates; for tests and diagnostics).
   *
   * @return the header most recently reported by {@link Event#HEADER}
   */
  public FrameHeader header() {
    return new FrameHeader(fin, rsv, opcode, masked, maskKey, payloadLength);
  }
}
