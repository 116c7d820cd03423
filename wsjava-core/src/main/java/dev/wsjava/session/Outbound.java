package dev.wsjava.session;

import dev.wsjava.extension.ByteSink;
import dev.wsjava.extension.Extension;
import dev.wsjava.protocol.MaskKeySource;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.ProtocolException;
import dev.wsjava.protocol.Role;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The sending half of a {@link Session} (RFC 6455 §5.2-§5.5): frames are encoded, through the
 * negotiated extensions' encoders and masked by a client (§5.3), onto the queue of bytes to write.
 * It also remembers the message being sent in fragments and the pongs that wait behind a long queue
 * (§5.5.3); the session decides what may be sent.
 *
 * <p>A session makes it when the first frame is queued (a send, a pong, a close): an idle
 * connection holds no queue and, as a client, no mask key generator.
 *
 * <p>Not thread-safe: used under the session's owner's lock.
 */
final class Outbound {
  private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
  private static final ByteSink[] NO_SINKS = new ByteSink[0];
  private static final boolean[] NO_FLAGS = new boolean[0];
  /** The longest control frame payload (RFC 6455 §5.5). */
  private static final int MAX_CONTROL = 125;
  /** An encoding buffer larger than this is dropped after its frame, so idle memory stays low. */
  private static final int KEEP_ENCODED = 16 * 1024;

  final OutboundQueue queue = new OutboundQueue();
  private final Extension[] extensions;
  private final MaskKeySource maskKeys; // a client's; null for a server, which does not mask
  /** The largest data frame payload sent: larger messages go out as several frames. */
  private final int maxFrame;

  /** Whether a message is being sent in fragments (its final fragment not sent yet). */
  boolean sendingFragments;

  /** The data messages queued and their payload bytes, which any thread may read. */
  final Tally tally = new Tally();

  // Encoding through extensions: which have seen the message's first frame, the RSV bits they set,
  // and where the encoded frame collects.
  private final ByteSink[] encodeSinks;
  private final boolean[] encodeStarted;
  private int encodeRsv;
  private ByteBuffer encoded;

  // Auto-pongs: the end (in queue.enqueuedTotal() terms) of the last one queued, and the payload
  // of the newest ping whose pong waits for that one to be written (-1: none waits).
  private long pongEnd;
  private byte[] nextPong; // made the first time a pong has to wait
  private int nextPongLength = -1;

  /**
   * Makes the sending half of a session.
   *
   * @param role the session's role: a client masks what it sends
   * @param extensions the negotiated extensions
   * @param lender where large frames are encoded, or null for heap buffers
   * @param maxFrame the largest data frame payload to send, at least 1
   */
  Outbound(Role role, Extension[] extensions, FrameBuffers lender, int maxFrame) {
    this.extensions = extensions;
    this.maxFrame = maxFrame;
    this.maskKeys = role.masksOutbound() ? new MaskKeySource() : null;
    if (lender != null) {
      queue.lendFrom(lender);
    }
    int n = extensions.length;
    this.encodeSinks = n == 0 ? NO_SINKS : new ByteSink[n];
    this.encodeStarted = n == 0 ? NO_FLAGS : new boolean[n + 1];
    for (int i = 0; i < n; i++) {
      int after = i + 1;
      encodeSinks[i] = chunk -> encode(after, chunk, false);
    }
  }

  /** Queues a control frame (or any frame that no extension transforms). */
  void control(Opcode op, ByteBuffer payload) {
    queue.frame(true, 0, op, payload, maskKeys != null, nextMaskKey());
  }

  /**
   * Queues a data message or fragment, run through the extensions' encoders first, as frames of
   * at most {@code maxFrame} payload bytes: the first carries the opcode (and the extensions' RSV
   * bits when {@code first}), the others are continuations, the last has {@code fin}. Through
   * extensions the input is encoded one {@code maxFrame} slice at a time, so the encoded bytes
   * held at once stay near one frame whatever the message's size.
   */
  void data(Opcode opcode, ByteBuffer payload, boolean first, boolean fin) {
    if (extensions.length == 0) {
      int end = payload.limit();
      while (end - payload.position() > maxFrame) {
        payload.limit(payload.position() + maxFrame);
        queue.frame(false, 0, opcode, payload, maskKeys != null, nextMaskKey());
        payload.position(payload.limit()).limit(end);
        opcode = Opcode.CONTINUATION;
      }
      queue.frame(fin, 0, opcode, payload, maskKeys != null, nextMaskKey());
      payload.position(end);
      return;
    }
    if (first) {
      Arrays.fill(encodeStarted, false);
    }
    int rsv = 0;
    boolean opened = false; // whether a frame of this call went out (the later ones continue it)
    int end = payload.limit();
    do {
      int sliceEnd = (int) Math.min(end, (long) payload.position() + maxFrame);
      boolean lastSlice = sliceEnd == end;
      payload.limit(sliceEnd);
      encodeRsv = 0;
      if (encoded != null) {
        encoded.clear();
      }
      try {
        encode(0, payload, fin && lastSlice);
      } catch (ProtocolException e) {
        throw new IllegalStateException("an extension failed to encode: " + e.getMessage(), e);
      } finally {
        payload.limit(end);
      }
      payload.position(sliceEnd);
      if (!opened) {
        rsv = first ? encodeRsv : 0;
      }
      ByteBuffer out = encoded == null ? EMPTY : encoded.flip();
      // The encoded slice, in frames of at most maxFrame (compression may have grown it).
      do {
        int frameEnd = Math.min(out.limit(), out.position() + maxFrame);
        boolean finalFrame = fin && lastSlice && frameEnd == out.limit();
        int outEnd = out.limit();
        out.limit(frameEnd);
        queue.frame(
            finalFrame,
            opened ? 0 : rsv,
            opened ? Opcode.CONTINUATION : opcode,
            out,
            maskKeys != null,
            nextMaskKey());
        out.position(frameEnd).limit(outEnd);
        opened = true;
      } while (out.hasRemaining());
    } while (payload.hasRemaining());
    if (encoded != null && encoded.capacity() > KEEP_ENCODED) {
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

  private int nextMaskKey() {
    return maskKeys != null ? maskKeys.nextKey() : 0;
  }

  // ---------------------------------------------------------------------------------------------
  // Auto-pongs (RFC 6455 §5.5.3)

  /**
   * Answers a ping: queues its pong, unless an earlier auto-pong is still unwritten and the queue
   * is longer than {@link Session#PONG_BACKLOG}; then this pong waits, replacing any that waited,
   * until the queue drains (see {@link #written}).
   */
  void pong(ByteBuffer payload) {
    if (pongBackedUp()) {
      nextPongLength = payload.remaining();
      if (nextPong == null) {
        nextPong = new byte[MAX_CONTROL];
      }
      payload.duplicate().get(nextPong, 0, nextPongLength);
    } else {
      nextPongLength = -1; // this newer pong supersedes one waiting
      queuePong(payload.duplicate());
    }
  }

  /** Whether an auto-pong is still unwritten and the queue is long: then pongs coalesce. */
  private boolean pongBackedUp() {
    long writtenTotal = queue.enqueuedTotal() - queue.queuedBytes();
    return writtenTotal < pongEnd && queue.queuedBytes() > Session.PONG_BACKLOG;
  }

  private void queuePong(ByteBuffer payload) {
    control(Opcode.PONG, payload);
    pongEnd = queue.enqueuedTotal();
  }

  /**
   * Accounts for written bytes; a pong that waited joins the queue once the one before it is
   * written and the queue is short again, or is dropped when {@code open} is false.
   */
  void written(long bytes, boolean open) {
    queue.written(bytes);
    if (nextPongLength >= 0 && (!open || !pongBackedUp())) {
      if (open) {
        queuePong(ByteBuffer.wrap(nextPong, 0, nextPongLength));
      }
      nextPongLength = -1;
    }
  }
}
