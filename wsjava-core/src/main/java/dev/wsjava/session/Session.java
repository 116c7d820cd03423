package dev.wsjava.session;

import dev.wsjava.internal.deflate.DeflateExtension;
import dev.wsjava.extension.Extension;
import dev.wsjava.CloseCode;
import dev.wsjava.protocol.CloseFrame;
import dev.wsjava.protocol.FrameParser;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.ProtocolException;
import dev.wsjava.protocol.Role;
import dev.wsjava.protocol.Utf8;
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
 * <p>This file holds the state machine; the work of each direction is in a half of its own, made
 * at its first use so that an idle connection holds neither: {@link Inbound} turns frames into
 * messages, {@link Outbound} encodes frames onto the queue of bytes to write.
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

  private static final Extension[] NO_EXTENSIONS = new Extension[0];
  /**
   * Queued bytes past which, while an auto-pong is still unwritten, a newer ping's pong replaces
   * the one waiting instead of joining the queue (RFC 6455 §5.5.3): a peer that floods pings and
   * never reads cannot make this end queue unbounded pongs.
   */
  static final int PONG_BACKLOG = 16 * 1024;

  private final Role role;
  private final SessionConfig config;
  private final Extension[] extensions;
  private FrameBuffers lender; // for the sending half, once it is made; null: heap buffers
  // The memory account, the assembly pool and what the last receive() left (bytes it waits for,
  // a pause, work to feed again) are the receiving half's: an idle session is 40 bytes.

  private State state = State.OPEN;

  // The two halves are made at their first use, so that an idle connection (the common case on a
  // busy server) holds only the fields above: no parser, queue, buffers or UTF-8 validator.
  private Inbound inbound; // made by the first byte received: see receive()
  private Outbound outbound; // made by the first frame queued: see outbound()

  /**
   * Creates a session for a connection whose handshake has completed.
   *
   * @param role this end's role (a client masks what it sends)
   * @param config limits and behaviour
   * @param extensions the negotiated extensions in the order of the handshake response; the
   *     session closes them when it closes
   * @throws IllegalArgumentException when two extensions claim the same RSV bit
   */
  public Session(Role role, SessionConfig config, List<Extension> extensions) {
    this.role = role;
    this.config = config;
    this.extensions = extensions.toArray(NO_EXTENSIONS);
    rsvBits(this.extensions); // checks the extensions now, not at the first frame
  }

  /** The RSV bits the extensions own; each bit may belong to one extension only. */
  private static int rsvBits(Extension[] extensions) {
    int rsv = 0;
    for (Extension e : extensions) {
      if ((rsv & e.rsvBits()) != 0) {
        throw new IllegalArgumentException(
            "extension " + e.name() + " claims RSV bits another negotiated extension owns");
      }
      rsv |= e.rsvBits();
    }
    return rsv;
  }

  /**
   * Encodes large outbound frames into buffers lent by {@code lender} (a transport's pool of
   * direct buffers) instead of heap buffers. Call before the first send.
   *
   * @param lender lends and takes back the buffers; thread-safe
   */
  public void lendFrameBuffersFrom(FrameBuffers lender) {
    this.lender = lender;
  }

  /**
   * Charges the messages this session assembles (and inflates) to {@code account}; when the
   * budget has no room, {@link #receive} stops consuming and reports {@link #stalledFor()}. Call
   * before the first receive.
   *
   * @param account the connection's share of the memory budget
   */
  public void chargeMemoryTo(MemoryBudget.Account account) {
    inbound().memory = account;
  }

  /** Takes large assembly arrays from {@code pool} instead of the shared one; before any receive. */
  void assemblies(AssemblyPool pool) {
    inbound = new Inbound(role, config, extensions, rsvBits(extensions), null, pool);
  }

  /** The receiving half, made at the first call (the first byte received, or a memory account). */
  private Inbound inbound() {
    Inbound reader = inbound;
    if (reader == null) {
      reader = inbound = new Inbound(role, config, extensions, rsvBits(extensions), null, AssemblyPool.SHARED);
    }
    return reader;
  }

  /**
   * Returns how many bytes of memory the last {@link #receive} waits for: when it is not 0, that
   * call stopped early and left the rest of its input unconsumed, to be fed again once the budget
   * has room.
   *
   * @return bytes wanted, or 0 when the last receive consumed all its input
   */
  public long stalledFor() {
    Inbound reader = inbound;
    return reader == null ? 0 : reader.stalledFor;
  }

  /**
   * Returns whether the last {@link #receive} was paused ({@link #pause()}), or gave way after a
   * slice of inflation, with work left that needs no new bytes: decoded bytes waiting in an extension's decoder, or the end of a frame
   * (which may end a message) not reported yet. The same buffer must then be fed again once
   * reading resumes, even when it is empty.
   *
   * @return true when the input must be fed again
   */
  public boolean mustFeedAgain() {
    Inbound reader = inbound;
    return reader != null && reader.feedAgain;
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
    CloseFrame c = closedWith();
    return c == null ? CloseCode.ABNORMAL : c.code();
  }

  /**
   * Returns the close reason matching {@link #closeCode()}.
   *
   * @return the reason, possibly empty
   */
  public String closeReason() {
    CloseFrame c = closedWith();
    return c == null ? "" : c.reason();
  }

  /**
   * The code and reason the connection closed with: both come in (the peer's close frame, or the
   * peer's violation that failed it), so the receiving half keeps them; none when the stream ended
   * without either (1006), or while open.
   */
  private CloseFrame closedWith() {
    return inbound == null ? null : inbound.closedWith;
  }

  /**
   * Returns the names of the negotiated extensions, in the order the session runs them.
   *
   * @return for example {@code [permessage-deflate]}; empty when none
   */
  public List<String> extensionNames() {
    if (extensions.length == 0) {
      return List.of();
    }
    return Arrays.stream(extensions).map(Extension::name).toList();
  }

  // ---------------------------------------------------------------------------------------------
  // Inbound

  /**
   * Feeds received bytes. Consumes all of {@code in} (bytes arriving after the connection closed
   * are ignored) and reports events to {@code listener} as frames complete. Masked payloads are
   * unmasked in place in {@code in}. The one exception: when the memory budget has no room for a
   * message being assembled, it stops early, leaves the rest in {@code in} (as it arrived) and
   * {@link #stalledFor()} says how much memory it waits for; feed the same buffer again later (even
   * when nothing remains in it: inflated output may still be waiting). Likewise when a listener
   * paused, or when inflation produced its slice for one call (512 KiB, so that one peer's bomb
   * cannot hold a thread: see {@code Inbound.DECODE_SLICE}): then {@link #mustFeedAgain()} is true,
   * and the caller feeds the same buffer again, after serving other connections.
   *
   * @param in the received bytes, position to limit
   * @param listener where events go during this call
   */
  public void receive(ByteBuffer in, SessionListener listener) {
    if (state == State.CLOSED) {
      in.position(in.limit());
      return;
    }
    // The first byte since the handshake (or bytes that came with it) makes the receiving half:
    // only now is there a frame to parse. Most idle connections never get here.
    Inbound reader = inbound();
    reader.stalledFor = 0;
    reader.feedAgain = false;
    FrameParser parser = reader.parser;
    reader.listener = listener;
    reader.pauseRequested = false;
    reader.decodeSliceLeft = Inbound.DECODE_SLICE;
    try {
      while (state != State.CLOSED && !reader.pauseRequested) {
        switch (parser.next(in)) {
          case NEED_MORE -> {
            return;
          }
          case HEADER -> reader.onHeader();
          case PAYLOAD -> {
            ByteBuffer chunk = parser.payload();
            try {
              reader.onPayload(chunk);
            } catch (MemoryStall stall) {
              parser.giveBack(in, chunk.remaining()); // fed again once memory comes back
              if (stall.wanted < 0) {
                reader.feedAgain = true; // not memory: the listener paused, or inflation used its slice
              } else {
                reader.stalledFor = Math.max(1, stall.wanted);
              }
              return;
            }
          }
          case FRAME_END -> {
            Opcode op = parser.opcode();
            if (op.isControl()) {
              onControl(op, reader.controlPayload(), listener);
            } else {
              reader.onDataFrameEnd();
            }
          }
        }
      }
    } catch (ProtocolException e) {
      fail(e, listener);
    } finally {
      if (state == State.CLOSED) {
        in.position(in.limit());
      } else if (reader.pauseRequested && parser.frameEndPending()) {
        reader.feedAgain = true; // the frame's end (perhaps the message's) needs no byte more
      }
      reader.listener = null;
    }
  }

  /**
   * Returns whether the bytes received so far stop inside a frame or a fragmented message.
   *
   * @return false at a message boundary (and before anything arrived)
   */
  public boolean midMessage() {
    return inbound != null && state != State.CLOSED && inbound.parser.midMessage();
  }

  /**
   * Makes the {@link #receive} in progress return after the event being reported, leaving the
   * rest of its input unconsumed, to be fed again later: for a listener that wants no more
   * messages for now (flow control). Outside a receive it does nothing.
   */
  public void pause() {
    Inbound reader = inbound; // none before the first receive: there is nothing to pause then
    if (reader != null) {
      reader.pauseRequested = true;
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
    closeState(); // closeCode() is 1006: no close frame came in, nor a violation
    listener.onClose(CloseCode.ABNORMAL, "");
  }

  /** What a control frame does (§5.5): a ping is answered, a close is answered and closes. */
  private void onControl(Opcode op, ByteBuffer payload, SessionListener listener)
      throws ProtocolException {
    switch (op) {
      case PING -> {
        if (config.autoPong() && state == State.OPEN) {
          outbound().pong(payload);
        }
        listener.onPing(payload);
      }
      case PONG -> listener.onPong(payload);
      case CLOSE -> {
        CloseFrame close = CloseFrame.parse(payload);
        inbound.closedWith = close;
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

  /**
   * Fails the connection from this end (§7.1.7) for a reason of its own, not the peer's framing:
   * for example the memory budget evicting a stalled connection (1008). Queues the close frame if
   * one may still go out, gives back the memory of the message being read, and reports {@link
   * SessionListener#onFailure} and the close. Does nothing once closed.
   *
   * @param code the close code to send
   * @param reason why, sent in the close frame
   * @param listener receives the failure
   */
  public void fail(int code, String reason, SessionListener listener) {
    if (state == State.CLOSED) {
      return;
    }
    inbound();
    fail(new ProtocolException(code, reason), listener);
  }

  /** Fails the connection (§7.1.7): sends the code if a close frame may still go out. */
  private void fail(ProtocolException e, SessionListener listener) {
    if (state == State.OPEN) {
      queueClose(CloseFrame.encodePayload(e.closeCode(), e.getMessage()));
    }
    inbound.closedWith = new CloseFrame(e.closeCode(), e.getMessage());
    closeState();
    listener.onFailure(e);
  }

  private void closeState() {
    state = State.CLOSED;
    if (inbound != null) {
      inbound.stalledFor = 0;
      inbound.releaseMemory();
    }
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
    Outbound out = outbound();
    if (out.sendingFragments) {
      throw new IllegalStateException(
          "a fragmented message is being sent: finish it with a final fragment first");
    }
    int size = payload.remaining();
    out.data(type, payload, true, true);
    out.tally.add(size, true);
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
    Outbound out = outbound();
    boolean first = !out.sendingFragments;
    int size = payload.remaining();
    out.data(first ? type : Opcode.CONTINUATION, payload, first, fin);
    out.sendingFragments = !fin;
    out.tally.add(size, fin);
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
    outbound().control(op, payload);
    payload.position(payload.limit());
  }

  /**
   * Queues a whole message's frames encoded elsewhere ({@link SharedFrameEncoder}), as they are:
   * the same bytes may be queued on many sessions at once, so nothing may write into them.
   *
   * @param frame a message's unmasked server frames, position to limit; queued without a copy
   * @throws IllegalStateException after this end sent a close frame, or while a fragmented
   *     message is being sent (see {@link #sendingFragments()})
   */
  public void sendEncoded(ByteBuffer frame) {
    checkCanSend();
    Outbound out = outbound();
    if (out.sendingFragments) {
      throw new IllegalStateException(
          "a fragmented message is being sent: finish it with a final fragment first");
    }
    out.queue.add(frame);
    out.tally.add(frame.remaining() - headersLength(frame), true);
  }

  /**
   * The header bytes of a message's unmasked frames, back to back: 2 bytes each, and 2 or 8 more
   * for a long payload.
   */
  private static long headersLength(ByteBuffer frames) {
    long headers = 0;
    int at = frames.position();
    while (at < frames.limit()) {
      int length7 = frames.get(at + 1) & 0x7f;
      int header = length7 < 126 ? 2 : length7 == 126 ? 4 : 10;
      long payload =
          length7 < 126 ? length7 : length7 == 126 ? frames.getShort(at + 2) & 0xffff : frames.getLong(at + 2);
      headers += header;
      at = Math.toIntExact(at + header + payload);
    }
    return headers;
  }

  /**
   * Returns the data messages delivered so far (whole, or streamed to their last part). Any thread
   * may call it; from another thread than the receiving one it may lag behind by a message.
   *
   * @return the count
   */
  public long messagesIn() {
    Inbound in = inbound;
    return in == null ? 0 : in.tally.messages();
  }

  /**
   * Returns the payload bytes of the data messages delivered so far (after decompression). Any
   * thread may call it, as {@link #messagesIn()}.
   *
   * @return the bytes
   */
  public long bytesIn() {
    Inbound in = inbound;
    return in == null ? 0 : in.tally.bytes();
  }

  /**
   * Returns the data messages queued to send so far (a fragmented one when its final fragment is
   * queued; frames queued with {@link #sendEncoded} count one each). Any thread may call it.
   *
   * @return the count
   */
  public long messagesOut() {
    Outbound out = outbound;
    return out == null ? 0 : out.tally.messages();
  }

  /**
   * Returns the payload bytes of the data frames queued to send so far (before compression). Any
   * thread may call it.
   *
   * @return the bytes
   */
  public long bytesOut() {
    Outbound out = outbound;
    return out == null ? 0 : out.tally.bytes();
  }

  /**
   * Returns whether a message is being sent in fragments (its final fragment not queued yet):
   * no other data frame may go out until it ends (RFC 6455 §5.4).
   *
   * @return true between a message's first and final fragment
   */
  public boolean sendingFragments() {
    return outbound != null && outbound.sendingFragments;
  }

  /**
   * Returns a key equal for sessions that encode every whole message to the same bytes (a server
   * without extensions, or with a permessage-deflate that keeps no context, and with the same
   * outbound frame size), or {@code null} when
   * this session's frames depend on its own state (a client masks, a compressor keeps context).
   *
   * @return the key, or {@code null}
   */
  public Object sharedFrameForm() {
    if (role.masksOutbound()) {
      return null;
    }
    Object encoding = null;
    if (extensions.length == 0) {
      encoding = SharedFrameEncoder.PLAIN;
    } else if (extensions.length == 1 && extensions[0] instanceof DeflateExtension d) {
      encoding = d.sharedForm();
    }
    // The frame size is part of the form: routes may send in frames of different sizes.
    return encoding == null ? null : new SharedForm(encoding, config.maxOutboundFrame());
  }

  /** What makes two sessions' frames of a whole message the same bytes. */
  private record SharedForm(Object encoding, int maxOutboundFrame) {}

  /**
   * Makes an encoder of whole messages into frames identical to this session's, for sending one
   * message to many sessions with an equal {@link #sharedFrameForm()}.
   *
   * @return a new encoder
   * @throws IllegalStateException when {@link #sharedFrameForm()} is null
   */
  public SharedFrameEncoder sharedFrameEncoder() {
    Object form = sharedFrameForm();
    if (form == null) {
      throw new IllegalStateException("this session's frames cannot be shared");
    }
    List<Extension> copy =
        extensions.length == 0 ? List.of() : List.of(((DeflateExtension) extensions[0]).sharedCopy());
    return new SharedFrameEncoder(new Session(role, config, copy));
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

  private void queueClose(ByteBuffer payload) {
    outbound().control(Opcode.CLOSE, payload);
  }

  /**
   * The sending half, made when the first frame is queued: many connections send nothing for a
   * long while, or ever (a client of a broadcast only listens), and then hold no queue.
   */
  private Outbound outbound() {
    Outbound out = outbound;
    if (out == null) {
      out = outbound = new Outbound(role, extensions, lender, config.maxOutboundFrame());
    }
    return out;
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

  // ---------------------------------------------------------------------------------------------
  // Bytes to write

  /**
   * Returns whether bytes wait to be written.
   *
   * @return true while the outbound queue is not empty
   */
  public boolean hasOutbound() {
    return outbound != null && !outbound.queue.isEmpty();
  }

  /**
   * Returns how many bytes wait to be written (the measure for backpressure).
   *
   * @return queued bytes not yet reported written
   */
  public long outboundBytes() {
    return outbound == null ? 0 : outbound.queue.queuedBytes();
  }

  /**
   * Returns how many bytes have ever been queued: a send is fully written once the total written
   * reaches the value this had right after the send.
   *
   * @return the running total of queued bytes
   */
  public long outboundTotal() {
    return outbound == null ? 0 : outbound.queue.enqueuedTotal();
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
    return outbound == null ? 0 : outbound.queue.gather(dst, offset);
  }

  /**
   * Reports bytes written from the gathered buffers; drained buffers leave the queue. Once the
   * queue drains, a pong held back by {@link #PONG_BACKLOG} joins it: check for outbound after.
   *
   * @param bytes how many bytes the write took
   */
  public void written(long bytes) {
    if (outbound != null) {
      outbound.written(bytes, state == State.OPEN);
    }
  }

  /** Whether the receiving half has been made (for tests: an idle session makes neither). */
  boolean madeInbound() {
    return inbound != null;
  }

  /** Whether the sending half has been made (for tests). */
  boolean madeOutbound() {
    return outbound != null;
  }

  /**
   * Drops what waits to be written and gives lent buffers back: the socket closed, so it never
   * will be. A transport calls this once no write is in flight, with the sends waiting on it failed.
   */
  public void discardOutbound() {
    if (outbound != null) {
      outbound.queue.discard();
    }
  }

  /** Drops buffers kept for reuse; a transport calls this when the connection goes idle. */
  public void trim() {
    if (outbound != null) {
      outbound.queue.trim();
    }
    if (inbound != null) {
      inbound.trim();
    }
  }
}
