package dev.wsjava.session;

import dev.wsjava.extension.ByteSink;
import dev.wsjava.extension.Extension;
import dev.wsjava.protocol.CloseCode;
import dev.wsjava.protocol.CloseFrame;
import dev.wsjava.protocol.FrameParser;
import dev.wsjava.protocol.LimitExceededException;
import dev.wsjava.protocol.MaskKeySource;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.protocol.ProtocolException;
import dev.wsjava.protocol.Role;
import dev.wsjava.protocol.Utf8;
import dev.wsjava.protocol.Utf8Validator;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * One WebSocket connection after its opening handshake, without I/O (RFC 6455 §5-§7): fed the
 * bytes that arrive, it reports events to a {@link SessionListener}; asked to send, it queues the
 * bytes to write. Transports move bytes between a socket and a session and make no protocol
 * decision of their own.
 *
 * <p>It owns the closing handshake (§7): {@link State#OPEN}, then {@link State#CLOSE_SENT} when
 * this end closed first, then {@link State#CLOSED} once both close frames have passed, the peer
 * failed the protocol, or the stream ended. It answers pings (while its queue is backed up, with a
 * pong for only the newest one, as §5.5.3 allows), enforces {@link SessionConfig#limits()},
 * checks UTF-8 as text arrives (failing at the first bad byte), and runs the negotiated extensions.
 *
 * <p>A peer's protocol violation is not thrown: the session queues a close frame with the RFC's
 * code, reports {@link SessionListener#onFailure} and ignores all later input. A caller's misuse
 * (sending after close, a continuation with no message started) throws {@link
 * IllegalStateException} at once.
 *
 * <p>Not thread-safe: a transport calls it from one thread at a time.
 */
public final class Session {

  /** The closing-handshake state (RFC 6455 §7). */
  public enum State {
    /** Data may flow both ways. */
    OPEN,
    /** This end sent a close frame and waits for the peer's. */
    CLOSE_SENT,
    /** Both close frames passed, the connection failed, or the stream ended: close the socket. */
    CLOSED
  }

  private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
  // Shared empties, so a session without extensions (and an idle one) allocates no arrays.
  private static final byte[] NO_BYTES = new byte[0];
  private static final Extension[] NO_EXTENSIONS = new Extension[0];
  private static final ByteSink[] NO_SINKS = new ByteSink[0];
  private static final boolean[] NO_FLAGS = new boolean[0];
  /** The longest control frame payload (RFC 6455 §5.5). */
  private static final int MAX_CONTROL = 125;
  /** A reassembly buffer larger than this is dropped after its message, so idle memory stays low. */
  private static final int KEEP_ASSEMBLY = 16 * 1024;
  /** The largest array the JVM reliably allocates. */
  private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;
  /**
   * Queued bytes past which, while an auto-pong is still unwritten, a newer ping's pong replaces
   * the one waiting instead of joining the queue (RFC 6455 §5.5.3): a peer that floods pings and
   * never reads cannot make this end queue unbounded pongs.
   */
  static final int PONG_BACKLOG = 16 * 1024;

  private final Role role;
  private final SessionConfig config;
  private final long maxMessage;
  private final Extension[] extensions;
  private final MaskKeySource maskKeys;
  private final FrameParser parser;
  private final OutboundQueue outbound = new OutboundQueue();
  private final Utf8Validator utf8 = new Utf8Validator();
  private final ByteSink[] decodeSinks;
  private final ByteSink[] encodeSinks;

  private State state = State.OPEN;
  private SessionListener listener;
  private int closeCode = CloseCode.ABNORMAL;
  private String closeReason = "";

  // The inbound message being read.
  private Opcode messageType;
  private int messageRsv;
  private long messageSize;
  private boolean messageFinSignalled;
  private boolean messageDelivered;
  private byte[] assembly = NO_BYTES;
  private int assemblyLength;

  // Auto-pongs: the end (in outbound.enqueuedTotal() terms) of the last one queued, and the payload
  // of the newest ping whose pong waits for that one to be written (-1: none waits).
  private long pongEnd;
  private byte[] nextPong; // allocated when a pong first has to wait: see nextPong()
  private int nextPongLength = -1;

  // The inbound control frame being read (at most 125 bytes); allocated by control() at the first.
  private byte[] control;
  private int controlLength;

  // The outbound message being sent in fragments, if any.
  private boolean sendingFragments;
  private final boolean[] encodeStarted;
  private int encodeRsv;
  private ByteBuffer encoded;

  /**
   * Creates a session for a connection whose handshake has completed.
   *
   * @param role this end's role (a client masks what it sends)
   * @param config limits and behaviour
   * @param extensions the negotiated extensions in the order of the handshake response; the
   *     session closes them when it closes
   */
  public Session(Role role, SessionConfig config, List<Extension> extensions) {
    this.role = role;
    this.config = config;
    this.maxMessage = config.limits().maxMessageSize();
    this.extensions = extensions.toArray(NO_EXTENSIONS);
    this.maskKeys = role.masksOutbound() ? new MaskKeySource() : null;
    this.parser = new FrameParser(role, config.limits());
    int rsv = 0;
    for (Extension e : this.extensions) {
      if ((rsv & e.rsvBits()) != 0) {
        throw new IllegalArgumentException(
            "extension " + e.name() + " claims RSV bits another negotiated extension owns");
      }
      rsv |= e.rsvBits();
    }
    parser.allowRsv(rsv);
    int n = this.extensions.length;
    this.decodeSinks = n == 0 ? NO_SINKS : new ByteSink[n];
    this.encodeSinks = n == 0 ? NO_SINKS : new ByteSink[n];
    this.encodeStarted = n == 0 ? NO_FLAGS : new boolean[n + 1];
    for (int i = 0; i < n; i++) {
      int next = i - 1;
      decodeSinks[i] = chunk -> decode(next, chunk, false);
      int after = i + 1;
      encodeSinks[i] = chunk -> encode(after, chunk, false);
    }
  }

  /**
   * Encodes large outbound frames into buffers lent by {@code lender} (a transport's pool of
   * direct buffers) instead of heap buffers. Call before the first send.
   *
   * @param lender lends and takes back the buffers; thread-safe
   */
  public void lendFrameBuffersFrom(FrameBuffers lender) {
    outbound.lendFrom(lender);
  }

  /**
   * Returns this end's role.
   *
   * @return client or server
   */
  public Role role() {
    return role;
  }

  /**
   * Returns the closing-handshake state.
   *
   * @return the state
   */
  public State state() {
    return state;
  }

  /**
   * Returns the close code of the connection once it is {@link State#CLOSED}: the code the peer
   * sent, the code this end failed with, or 1006 when the stream ended without a close frame.
   *
   * @return the code; 1006 while open
   */
  public int closeCode() {
    return closeCode;
  }

  /**
   * Returns the close reason matching {@link #closeCode()}.
   *
   * @return the reason, possibly empty
   */
  public String closeReason() {
    return closeReason;
  }

  // ---------------------------------------------------------------------------------------------
  // Inbound

  /**
   * Feeds received bytes. Consumes all of {@code in} (bytes arriving after the connection closed
   * are ignored) and reports events to {@code listener} as frames complete. Masked payloads are
   * unmasked in place in {@code in}.
   *
   * @param in the received bytes, position to limit
   * @param listener where events go during this call
   */
  public void receive(ByteBuffer in, SessionListener listener) {
    this.listener = listener;
    try {
      while (state != State.CLOSED) {
        switch (parser.next(in)) {
          case NEED_MORE -> {
            return;
          }
          case HEADER -> onHeader();
          case PAYLOAD -> onPayload(parser.payload());
          case FRAME_END -> onFrameEnd();
        }
      }
    } catch (ProtocolException e) {
      fail(e);
    } finally {
      if (state == State.CLOSED) {
        in.position(in.limit());
      }
      this.listener = null;
    }
  }

  /**
   * Reports that the byte stream ended (the peer closed TCP). If no close frame had arrived, the
   * connection closes abnormally with 1006 (§7.1.5).
   *
   * @param listener receives {@link SessionListener#onClose} with 1006 when that happens
   */
  public void receiveEnd(SessionListener listener) {
    if (state == State.CLOSED) {
      return;
    }
    closeCode = CloseCode.ABNORMAL;
    closeReason = "";
    closeState();
    listener.onClose(CloseCode.ABNORMAL, "");
  }

  private void onHeader() throws ProtocolException {
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
      utf8.reset();
    }
  }

  private void onPayload(ByteBuffer chunk) throws ProtocolException {
    Opcode op = parser.opcode();
    if (op.isControl()) {
      int n = chunk.remaining();
      chunk.get(control(), controlLength, n);
      controlLength += n;
      return;
    }
    boolean last = parser.fin() && parser.payloadRemaining() == 0;
    if (last
        && messageRsv == 0
        && op != Opcode.CONTINUATION
        && !config.streamMessages()
        && chunk.remaining() == parser.payloadLength()) {
      // The whole message is in this one chunk: check it and hand it over without a copy.
      checkDecoded(chunk);
      checkTextComplete();
      messageFinSignalled = true;
      messageDelivered = true;
      listener.onMessage(messageType, chunk);
      return;
    }
    if (messageRsv == 0 || extensions.length == 0) {
      deliverDecoded(chunk);
      messageFinSignalled |= last;
    } else {
      decode(extensions.length - 1, chunk, last);
      messageFinSignalled |= last;
    }
  }

  private void onFrameEnd() throws ProtocolException {
    Opcode op = parser.opcode();
    if (op.isControl()) {
      onControl(op, ByteBuffer.wrap(control(), 0, controlLength));
      return;
    }
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
    if (config.streamMessages()) {
      listener.onMessagePart(messageType, EMPTY.duplicate(), true);
    } else {
      ByteBuffer message = ByteBuffer.wrap(assembly, 0, assemblyLength);
      listener.onMessage(messageType, message);
      if (assembly.length > KEEP_ASSEMBLY) {
        assembly = NO_BYTES;
      }
    }
    assemblyLength = 0;
  }

  /** The buffer of inbound control payloads, made at the first control frame: most never see one. */
  private byte[] control() {
    if (control == null) {
      control = new byte[MAX_CONTROL];
    }
    return control;
  }

  /** The buffer of a pong held back behind a long queue, made the first time one has to wait. */
  private byte[] nextPong() {
    if (nextPong == null) {
      nextPong = new byte[MAX_CONTROL];
    }
    return nextPong;
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
    if (config.streamMessages()) {
      listener.onMessagePart(messageType, chunk, false);
      return;
    }
    int n = chunk.remaining();
    if (assemblyLength + n > assembly.length) {
      assembly = Arrays.copyOf(assembly, assemblyCapacity((long) assemblyLength + n));
    }
    chunk.get(assembly, assemblyLength, n);
    assemblyLength += n;
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
    if (messageSize > maxMessage || (!config.streamMessages() && messageSize > MAX_ARRAY)) {
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

  private void onControl(Opcode op, ByteBuffer payload) throws ProtocolException {
    switch (op) {
      case PING -> {
        if (config.autoPong() && state == State.OPEN) {
          if (pongBackedUp()) {
            nextPongLength = payload.remaining(); // answered once the queued pong is written
            payload.duplicate().get(nextPong(), 0, nextPongLength);
          } else {
            nextPongLength = -1; // this newer pong supersedes one waiting
            queuePong(payload.duplicate());
          }
        }
        listener.onPing(payload);
      }
      case PONG -> listener.onPong(payload);
      case CLOSE -> {
        CloseFrame close = CloseFrame.parse(payload);
        closeCode = close.code();
        closeReason = close.reason();
        if (state == State.OPEN) {
          // Echo the peer's code (§5.5.1); an empty close is answered with an empty close.
          queueClose(CloseFrame.encodePayload(close.code(), ""));
        }
        closeState();
        listener.onClose(close.code(), close.reason());
      }
      default -> throw new IllegalStateException("not a control opcode: " + op);
    }
  }

  /** Fails the connection (§7.1.7): sends the code if a close frame may still go out. */
  private void fail(ProtocolException e) {
    if (state == State.OPEN) {
      queueClose(CloseFrame.encodePayload(e.closeCode(), e.getMessage()));
    }
    closeCode = e.closeCode();
    closeReason = e.getMessage();
    closeState();
    listener.onFailure(e);
  }

  private void closeState() {
    state = State.CLOSED;
    for (Extension e : extensions) {
      e.close();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Outbound

  /**
   * Queues a whole text message.
   *
   * @param text the message
   * @throws IllegalStateException after this end sent a close frame, or while a fragmented
   *     message is being sent
   * @throws IllegalArgumentException when the text holds an unpaired surrogate
   */
  public void sendText(String text) {
    sendMessage(Opcode.TEXT, Utf8.encode(text));
  }

  /**
   * Queues a whole message.
   *
   * @param type {@link Opcode#TEXT} (the payload must be valid UTF-8) or {@link Opcode#BINARY}
   * @param payload the message, position to limit; consumed
   * @throws IllegalStateException after this end sent a close frame, or while a fragmented
   *     message is being sent
   */
  public void sendMessage(Opcode type, ByteBuffer payload) {
    checkDataType(type);
    checkCanSend();
    if (sendingFragments) {
      throw new IllegalStateException(
          "a fragmented message is being sent: finish it with a final fragment first");
    }
    sendFrame(type, payload, true, true);
  }

  /**
   * Queues one fragment of a message (RFC 6455 §5.4). The first fragment gives the type; the
   * rest continue it until one is final.
   *
   * @param type the message type ({@link Opcode#TEXT} or {@link Opcode#BINARY}); must match the
   *     first fragment's for the rest
   * @param payload the fragment, position to limit; consumed
   * @param fin whether this fragment ends the message
   * @throws IllegalStateException after this end sent a close frame
   */
  public void sendFragment(Opcode type, ByteBuffer payload, boolean fin) {
    checkDataType(type);
    checkCanSend();
    boolean first = !sendingFragments;
    sendFrame(first ? type : Opcode.CONTINUATION, payload, first, fin);
    sendingFragments = !fin;
  }

  private void sendFrame(Opcode opcode, ByteBuffer payload, boolean first, boolean fin) {
    if (extensions.length == 0) {
      outbound.frame(fin, 0, opcode, payload, masks(), nextMaskKey());
      payload.position(payload.limit());
      return;
    }
    if (first) {
      Arrays.fill(encodeStarted, false);
    }
    encodeRsv = 0;
    if (encoded != null) {
      encoded.clear();
    }
    try {
      encode(0, payload, fin);
    } catch (ProtocolException e) {
      throw new IllegalStateException("an extension failed to encode: " + e.getMessage(), e);
    }
    ByteBuffer out = encoded == null ? EMPTY : encoded.flip();
    outbound.frame(fin, first ? encodeRsv : 0, opcode, out, masks(), nextMaskKey());
    if (encoded != null && encoded.capacity() > KEEP_ASSEMBLY) {
      encoded = null;
    }
  }

  /** Runs outbound data through extension {@code stage} and those after it, then collects it. */
  private void encode(int stage, ByteBuffer data, boolean fin) throws ProtocolException {
    if (stage == extensions.length) {
      collectEncoded(data);
      return;
    }
    boolean first = !encodeStarted[stage];
    encodeStarted[stage] = true;
    encodeRsv |= extensions[stage].encode(first, fin, data, encodeSinks[stage]);
    if (fin && stage + 1 < extensions.length) {
      encode(stage + 1, EMPTY, true);
    }
  }

  private void collectEncoded(ByteBuffer chunk) {
    int n = chunk.remaining();
    if (encoded == null || encoded.remaining() < n) {
      int used = encoded == null ? 0 : encoded.position();
      int cap = Math.max(used + n, Math.max(1024, used * 2));
      ByteBuffer grown = ByteBuffer.allocate(cap);
      if (encoded != null) {
        grown.put(encoded.flip());
      }
      encoded = grown;
    }
    encoded.put(chunk);
  }

  /**
   * Queues a ping.
   *
   * @param payload at most 125 bytes, position to limit; consumed
   * @throws IllegalArgumentException when the payload is longer than 125 bytes
   * @throws IllegalStateException after this end sent a close frame
   */
  public void sendPing(ByteBuffer payload) {
    sendControl(Opcode.PING, payload);
  }

  /**
   * Queues an unsolicited pong (a unidirectional heartbeat, §5.5.3).
   *
   * @param payload at most 125 bytes, position to limit; consumed
   * @throws IllegalArgumentException when the payload is longer than 125 bytes
   * @throws IllegalStateException after this end sent a close frame
   */
  public void sendPong(ByteBuffer payload) {
    sendControl(Opcode.PONG, payload);
  }

  private void sendControl(Opcode op, ByteBuffer payload) {
    if (payload.remaining() > 125) {
      throw new IllegalArgumentException(
          op + " payload of " + payload.remaining() + " bytes exceeds 125 (RFC 6455 §5.5)");
    }
    checkCanSend();
    outbound.frame(true, 0, op, payload, masks(), nextMaskKey());
    payload.position(payload.limit());
  }

  /**
   * Starts the closing handshake (§7.1.2): queues a close frame; the connection is closed once
   * the peer's close frame arrives. Does nothing when a close was already sent or the connection
   * is closed.
   *
   * @param code a sendable code ({@link CloseCode#checkSendable}), or 1005 for a close frame
   *     without a code
   * @param reason a reason, truncated to 123 UTF-8 bytes; may be empty
   * @throws IllegalArgumentException when the code may not be sent
   */
  public void close(int code, String reason) {
    ByteBuffer payload = CloseFrame.encodePayload(code, reason);
    if (state != State.OPEN) {
      return;
    }
    queueClose(payload);
    state = State.CLOSE_SENT;
  }

  /** Whether an auto-pong is still unwritten and the queue is long: then pongs coalesce. */
  private boolean pongBackedUp() {
    long writtenTotal = outbound.enqueuedTotal() - outbound.queuedBytes();
    return writtenTotal < pongEnd && outbound.queuedBytes() > PONG_BACKLOG;
  }

  private void queuePong(ByteBuffer payload) {
    outbound.frame(true, 0, Opcode.PONG, payload, masks(), nextMaskKey());
    pongEnd = outbound.enqueuedTotal();
  }

  private void queueClose(ByteBuffer payload) {
    outbound.frame(true, 0, Opcode.CLOSE, payload, masks(), nextMaskKey());
  }

  private void checkCanSend() {
    if (state != State.OPEN) {
      throw new IllegalStateException(
          state == State.CLOSE_SENT
              ? "cannot send after close() (RFC 6455 §5.5.1)"
              : "cannot send: the connection is closed");
    }
  }

  private static void checkDataType(Opcode type) {
    if (type != Opcode.TEXT && type != Opcode.BINARY) {
      throw new IllegalArgumentException("a message is TEXT or BINARY, not " + type);
    }
  }

  private boolean masks() {
    return maskKeys != null;
  }

  private int nextMaskKey() {
    return maskKeys != null ? maskKeys.nextKey() : 0;
  }

  // ---------------------------------------------------------------------------------------------
  // Bytes to write

  /**
   * Returns whether bytes wait to be written.
   *
   * @return true while the outbound queue is not empty
   */
  public boolean hasOutbound() {
    return !outbound.isEmpty();
  }

  /**
   * Returns how many bytes wait to be written (the measure for backpressure).
   *
   * @return queued bytes not yet reported written
   */
  public long outboundBytes() {
    return outbound.queuedBytes();
  }

  /**
   * Returns how many bytes have ever been queued: a send is fully written once the total written
   * reaches the value this had right after the send.
   *
   * @return the running total of queued bytes
   */
  public long outboundTotal() {
    return outbound.enqueuedTotal();
  }

  /**
   * Puts the queued buffers, oldest first, into {@code dst} for a gathering write. The writer
   * advances their positions as it writes, then calls {@link #written(long)}.
   *
   * @param dst where to put the buffers
   * @param offset the first index of {@code dst} to fill
   * @return how many buffers were put
   */
  public int gatherOutbound(ByteBuffer[] dst, int offset) {
    return outbound.gather(dst, offset);
  }

  /**
   * Reports bytes written from the gathered buffers; drained buffers leave the queue. Once the
   * queue drains, a pong held back by {@link #PONG_BACKLOG} joins it: check for outbound after.
   *
   * @param bytes how many bytes the write took
   */
  public void written(long bytes) {
    outbound.written(bytes);
    if (nextPongLength >= 0 && (state != State.OPEN || !pongBackedUp())) {
      if (state == State.OPEN) {
        queuePong(ByteBuffer.wrap(nextPong, 0, nextPongLength));
      }
      nextPongLength = -1;
    }
  }

  /** Drops buffers kept for reuse; a transport calls this when the connection goes idle. */
  public void trim() {
    outbound.trim();
    if (assemblyLength == 0) {
      assembly = NO_BYTES;
    }
  }
}
