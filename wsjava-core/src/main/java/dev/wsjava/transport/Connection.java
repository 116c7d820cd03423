package dev.wsjava.transport;

import dev.wsjava.WebSocketClosedException;
import dev.wsjava.CloseCode;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.protocol.Utf8;
import dev.wsjava.ProtocolException;
import dev.wsjava.protocol.Role;
import dev.wsjava.session.MemoryBudget;
import dev.wsjava.session.Session;
import dev.wsjava.session.SharedFrameEncoder;
import dev.wsjava.session.SessionListener;
import java.net.SocketAddress;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One open WebSocket connection on some transport: the part both transports share. It owns the
 * {@link Session} and guards it with one lock, so sends are safe from any thread while the I/O
 * thread feeds received bytes. The lock, like the sends in flight and the adapter of events, is
 * made at its first use: a server holds thousands of idle connections, each of them small. A send encodes its frame at once, under the lock, into the session's
 * outbound queue and returns a future completed when the transport has written those bytes.
 *
 * <p>Backpressure: a send that would take the queue past {@link ConnectionConfig#maxQueuedBytes()}
 * fails fast with {@link QueueFullException}, and {@link ConnectionHandler#onWritable} reports when
 * the queue has drained to half of that. A blocking caller can simply wait on each send's future.
 *
 * <p>Events reach the handler on the I/O thread, one at a time and without the lock held: a
 * handler may send on this connection (its bytes go out when the event returns, together) or on
 * any other (a broadcast), but must never wait for a send's future on its own I/O thread, which
 * would deadlock.
 *
 * <p>Subclasses (the transports) move bytes: they call {@link #receive}, {@link #receiveEnd}, and
 * {@link #gatherOutbound}/{@link #written} from their I/O thread, and implement {@link
 * #requestFlush()} and {@link #closeSocket()}.
 */
public abstract class Connection {
  /**
   * Guards the session, the pending futures and the state below. Null until {@link #lock()} first
   * makes it (an idle connection never takes it: 48 bytes saved per connection); set once, never
   * changed. Read it only through {@link #lock()}.
   */
  private ReentrantLock lock;

  private final Session session;
  private final ConnectionHandler handler;
  private final ConnectionConfig config;
  private final String subprotocol;
  private volatile CompletableFuture<Void> closed; // made by the first closed() or at the close
  /**
   * The adapter of session events with the sends in flight and the memory account: made by the
   * first read, send or write (see {@link #events()}), which an idle connection never has.
   */
  private Events events;
  private boolean closeReported;
  private volatile boolean opened;
  // The memory account, the sends in flight, the queue's charge and the reading side's flow
  // control (drain and held-message pauses, the slow-trickle watch) are in Events: an idle
  // connection, which has none, is 30 bytes smaller for it. When bytes last came is the transport's to keep (see received): only the
  // keepalive rules read it.

  /**
   * A send's future, with the written total that completes it: one object per send, where a
   * record beside a future took two. What its dependents make are plain futures.
   */
  private static final class Pending extends CompletableFuture<Void> {
    final long target;

    Pending(long target) {
      this.target = target;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
      return new CompletableFuture<>();
    }
  }


  /**
   * Queued outbound bytes of a connection that are not charged to the memory budget, like its
   * read buffer: a small-message connection never touches the shared counter.
   */
  static final long FREE_QUEUE = 64 * 1024;

  /** Why reading is paused; a transport reads while no reason is set. */
  protected static final int PAUSE_USER = 1;
  /** Reading waits for the memory budget. */
  protected static final int PAUSE_MEMORY = 2;
  /** Reading waits until what was sent has been written. */
  protected static final int PAUSE_DRAIN = 4;
  /** Reading waits until the consumer of a streamed message took the piece in hand. */
  protected static final int PAUSE_STREAM = 16;
  /** Reading waits until the application took messages it holds, the budget being spent. */
  protected static final int PAUSE_HELD = 32;

  /** Sends in flight a connection's first pending deque holds before it grows. */
  private static final int INITIAL_PENDING = 4;

  private static final VarHandle CLOSED;
  private static final VarHandle LOCK;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      CLOSED = lookup.findVarHandle(Connection.class, "closed", CompletableFuture.class);
      LOCK = lookup.findVarHandle(Connection.class, "lock", ReentrantLock.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * Creates the connection around a session whose handshake completed; its lock is made the first
   * time {@link #lock()} is called.
   *
   * @param session the protocol session
   * @param handler where events go
   * @param config queue bounds and timeouts
   * @param subprotocol the negotiated subprotocol, or null
   */
  protected Connection(
      Session session, ConnectionHandler handler, ConnectionConfig config, String subprotocol) {
    this.session = session;
    this.handler = handler;
    this.config = config;
    this.subprotocol = subprotocol;
  }


  /**
   * Returns the lock that guards the session, making it at the first call. An idle connection
   * never needs one, and most connections are idle most of the time: the lock is made by whichever
   * thread first sends, receives or asks for the state. Racing threads agree on one lock (a
   * compare-and-set); the read is an acquire, a plain load on x86.
   *
   * @return the connection's lock
   */
  protected final ReentrantLock lock() {
    ReentrantLock l = (ReentrantLock) LOCK.getAcquire(this);
    return l != null ? l : makeLock();
  }

  private ReentrantLock makeLock() {
    ReentrantLock made = new ReentrantLock();
    ReentrantLock raced = (ReentrantLock) LOCK.compareAndExchange(this, null, made);
    return raced != null ? raced : made;
  }

  /**
   * The adapter of session events, the sends and writes in flight and the reading side's state,
   * made at the first; call with the lock held.
   */
  private Events events() {
    Events e = events;
    if (e == null) {
      e = events = new Events();
    }
    return e;
  }

  // ---------------------------------------------------------------------------------------------
  // What the API layer calls (any thread)

  /**
   * Sends a whole text message.
   *
   * @param text the message
   * @return completed when the frame is written; failed with {@link QueueFullException} or {@link
   *     WebSocketClosedException}
   * @throws IllegalStateException after {@link #close} was called
   * @throws IllegalArgumentException when the text holds an unpaired surrogate
   */
  public CompletableFuture<Void> sendText(CharSequence text) {
    ByteBuffer utf8 = Utf8.encode(text);
    return send(utf8.remaining(), SEND_MESSAGE, Opcode.TEXT, utf8, true);
  }

  /**
   * Sends a whole message.
   *
   * @param type {@link Opcode#TEXT} (valid UTF-8) or {@link Opcode#BINARY}
   * @param payload the message, position to limit; consumed at once (the caller may reuse it)
   * @return completed when the frame is written
   * @throws IllegalStateException after {@link #close} was called, or while a fragmented message
   *     is being sent
   */
  public CompletableFuture<Void> sendMessage(Opcode type, ByteBuffer payload) {
    return send(payload.remaining(), SEND_MESSAGE, type, payload, true);
  }

  /**
   * Sends one fragment of a message.
   *
   * @param type the message type, {@link Opcode#TEXT} or {@link Opcode#BINARY}
   * @param payload the fragment; consumed at once
   * @param last whether it ends the message
   * @return completed when the frame is written
   */
  public CompletableFuture<Void> sendFragment(Opcode type, ByteBuffer payload, boolean last) {
    return send(payload.remaining(), SEND_FRAGMENT, type, payload, last);
  }

  /**
   * Sends a ping.
   *
   * @param payload at most 125 bytes
   * @return completed when the frame is written
   */
  public CompletableFuture<Void> sendPing(ByteBuffer payload) {
    return send(payload.remaining(), SEND_PING, null, payload, true);
  }

  /**
   * Sends an unsolicited pong.
   *
   * @param payload at most 125 bytes
   * @return completed when the frame is written
   */
  public CompletableFuture<Void> sendPong(ByteBuffer payload) {
    return send(payload.remaining(), SEND_PONG, null, payload, true);
  }

  /**
   * Starts the closing handshake; the socket closes when the peer answers, or after the close
   * timeout. Calling it again does nothing.
   *
   * @param code a sendable close code
   * @param reason a reason, possibly empty
   * @return the future of {@link #closed()}
   * @throws IllegalArgumentException when the code may not be sent
   */
  public CompletableFuture<Void> close(int code, String reason) {
    boolean started;
    ReentrantLock lock = lock();
    lock.lock();
    try {
      started = session.state() == Session.State.OPEN;
      session.close(code, reason);
    } finally {
      lock.unlock();
    }
    if (started) {
      // Arm the timeout first: the flush may block (blocking transport) on a peer that reads nothing.
      scheduleCloseTimeout(config.closeTimeout());
      requestFlush();
    }
    return closed();
  }

  /**
   * Returns what this connection has carried: data messages received and sent, and their payload
   * bytes (see {@link Session#messagesIn()}). Any thread may call it, without a lock; from another
   * thread the figures may lag behind by a message.
   *
   * @return {messages in, bytes in, messages out, bytes out}
   */
  public long[] traffic() {
    return new long[] {
      session.messagesIn(), session.bytesIn(), session.messagesOut(), session.bytesOut()
    };
  }

  /** {@link #offer} queued the bytes. */
  public static final int OFFERED = 0;
  /** {@link #offer} queued nothing: the queue already holds {@code window} bytes or more. */
  public static final int OFFER_FULL = 1;
  /** {@link #offer} queued nothing: a message is being sent in fragments (RFC 6455 §5.4). */
  public static final int OFFER_FRAGMENTING = 2;
  /** {@link #offer} queued nothing: the connection is closing or closed. */
  public static final int OFFER_NOT_OPEN = 3;

  /**
   * Queues a message for a fan-out (topics) without ever blocking or failing the caller: either a
   * frame encoded once for many connections ({@code type} null; queued as it is, never copied or
   * changed), or a message this connection encodes itself (its compressor keeps context). Unlike a
   * send, it returns no future and leaves {@link ConnectionHandler#onWritable} alone; {@link
   * #drained()} tells when the queue empties.
   *
   * @param bytes the encoded frame, or the message's payload (duplicated, not consumed)
   * @param type null for an encoded frame, else {@link Opcode#TEXT} or {@link Opcode#BINARY}
   * @param window queue nothing while this many bytes or more wait to be written
   * @param flush whether to start writing at once; false leaves it to a later {@link
   *     #flushQueued()} (a fan-out queues many messages, then writes them together)
   * @return {@link #OFFERED}, {@link #OFFER_FULL}, {@link #OFFER_FRAGMENTING} or {@link
   *     #OFFER_NOT_OPEN}
   */
  public final int offer(ByteBuffer bytes, Opcode type, long window, boolean flush) {
    ReentrantLock lock = lock();
    lock.lock();
    try {
      if (session.state() != Session.State.OPEN) {
        return OFFER_NOT_OPEN;
      }
      if (session.sendingFragments()) {
        return OFFER_FRAGMENTING;
      }
      if (session.outboundBytes() >= window) {
        return OFFER_FULL;
      }
      if (type == null) {
        session.sendEncoded(bytes.duplicate());
      } else {
        session.sendMessage(type, bytes.duplicate());
      }
    } finally {
      lock.unlock();
    }
    if (flush) {
      requestFlushNoWait();
    }
    return OFFERED;
  }

  /** Starts writing what {@link #offer} queued without writing. */
  public final void flushQueued() {
    requestFlushNoWait();
  }

  /**
   * Returns a future completed once every byte queued now has been written (at once when nothing
   * waits), or failed when the socket closes first.
   *
   * @return the future
   */
  public final CompletableFuture<Void> drained() {
    ReentrantLock lock = lock();
    lock.lock();
    try {
      if (session.state() == Session.State.CLOSED) {
        return CompletableFuture.failedFuture(
            new WebSocketClosedException(session.closeCode(), session.closeReason()));
      }
      if (!session.hasOutbound()) {
        return CompletableFuture.completedFuture(null);
      }
      Pending f = new Pending(session.outboundTotal());
      events().pending().addLast(f);
      return f;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns the key of {@link Session#sharedFrameForm()}: connections with equal keys can be sent
   * one frame encoded once; null when this connection encodes its own.
   *
   * @return the key, or null
   */
  public final Object sharedFrameForm() {
    return session.sharedFrameForm();
  }

  /**
   * Makes an encoder of frames any connection with an equal {@link #sharedFrameForm()} can send.
   *
   * @return the encoder
   * @throws IllegalStateException when the form is null
   */
  public final SharedFrameEncoder sharedFrameEncoder() {
    return session.sharedFrameEncoder();
  }

  /**
   * Stops or resumes reading from the socket, for a consumer that fell behind (the peer then feels
   * TCP backpressure).
   *
   * @param paused true to stop reading, false to resume
   */
  public final void pauseReading(boolean paused) {
    setPaused(PAUSE_USER, paused);
  }

  /**
   * Stops reading at once, even inside what was already read, or resumes: for a consumer of a
   * streamed message that holds a piece and takes no more until it has used it. Called inside
   * {@link ConnectionHandler#onMessagePart} on the I/O thread to stop (it takes effect before the
   * next event), from any thread to resume. One flag, not a count; from another thread the change
   * is applied in the I/O thread's order ({@link #setPaused}), so a resume may land after a pause
   * the I/O thread made meanwhile: callers resume only a pause they saw made.
   *
   * @param paused true to stop reading, false to resume
   */
  public final void pauseReadingForStream(boolean paused) {
    if (paused) {
      ReentrantLock lock = lock();
      lock.lock();
      try {
        session.pause();
      } finally {
        lock.unlock();
      }
    }
    setPaused(PAUSE_STREAM, paused);
  }

  /**
   * Charges received messages the application holds and has not taken yet (the pull-style inbox)
   * to the memory budget, as an overdraft: nothing is refused, but when the budget is spent the
   * connection stops being read until the application takes them ({@link #releaseHeld}).
   *
   * @param bytes the size of a message just handed over
   */
  public final void chargeHeld(long bytes) {
    ReentrantLock lock = lock();
    lock.lock();
    try {
      Events e = events();
      e.heldByApp += bytes;
      memory().chargeOver(bytes);
      if (!e.heldPause && budgetSpent() && session.state() != Session.State.CLOSED) {
        e.heldPause = true;
        setPaused(PAUSE_HELD, true); // under the lock: a release cannot slip in before it
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Gives back what {@link #chargeHeld} charged for a message the application took; reading
   * resumes when the budget has room again, or when the application holds nothing more.
   *
   * @param bytes the size the message was charged with
   */
  public final void releaseHeld(long bytes) {
    ReentrantLock lock = lock();
    lock.lock();
    try {
      Events e = events();
      long n = Math.min(bytes, e.heldByApp);
      e.heldByApp -= n;
      memory().release(n);
      if (e.heldPause && (e.heldByApp == 0 || !budgetSpent())) {
        e.heldPause = false;
        setPaused(PAUSE_HELD, false);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Whether the memory budget is spent: every byte of it is in use (grants an account keeps in
   * hand without using them count as free). Call with the lock held.
   */
  private boolean budgetSpent() {
    MemoryBudget budget = config.memory();
    MemoryBudget.Account memory = memoryOrNull();
    long spare = memory == null ? 0 : memory.held() - memory.used();
    return budget.reserved() - spare >= budget.capacity();
  }

  /**
   * Returns whether data messages reach the handler piece by piece ({@link
   * ConnectionHandler#onMessagePart}) rather than whole.
   *
   * @return true when messages are streamed
   */
  public final boolean streamsMessages() {
    return config.session().streamMessages();
  }

  /**
   * Flow control: stops reading this connection until everything queued to send has been
   * written, then resumes by itself. Inside an event, the rest of what was already read waits too.
   * Does nothing when nothing is queued.
   */
  public final void pauseReadingUntilSent() {
    boolean pause;
    ReentrantLock lock = lock();
    lock.lock();
    try {
      pause = session.hasOutbound() && session.state() != Session.State.CLOSED;
      if (pause) {
        events().drainPause = true;
        session.pause();
      }
    } finally {
      lock.unlock();
    }
    if (pause) {
      setPaused(PAUSE_DRAIN, true);
      // Holding what its peer does not read, it is a candidate when the budget must evict: it
      // is then dropped (the peer, not reading, could not see a close frame).
      memory().stuck(this::abort);
    }
  }

  /**
   * Sets or clears one reason for not reading; the transport reads while none is set. Safe from
   * any thread; the transport acts on its own I/O thread.
   *
   * @param reason {@link #PAUSE_USER}, {@link #PAUSE_MEMORY} or {@link #PAUSE_DRAIN}
   * @param paused whether that reason holds
   */
  protected abstract void setPaused(int reason, boolean paused);

  /** Closes the socket at once, without a closing handshake. */
  public void abort() {
    closeSocket();
  }

  /**
   * Returns a future completed when the socket is closed.
   *
   * @return the close future
   */
  public CompletableFuture<Void> closed() {
    CompletableFuture<Void> f = closed;
    if (f == null) {
      CompletableFuture<Void> made = new CompletableFuture<>();
      @SuppressWarnings("unchecked")
      CompletableFuture<Void> raced =
          (CompletableFuture<Void>) CLOSED.compareAndExchange(this, null, made);
      f = raced != null ? raced : made;
    }
    return f;
  }

  /**
   * Returns the bytes queued and not yet written.
   *
   * @return the outbound queue's size
   */
  public long queuedBytes() {
    ReentrantLock lock = lock();
    lock.lock();
    try {
      return session.outboundBytes();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns whether messages may still be sent (no close sent or received).
   *
   * @return true while open
   */
  public boolean isOpen() {
    ReentrantLock lock = lock();
    lock.lock();
    try {
      return session.state() == Session.State.OPEN;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns the negotiated subprotocol.
   *
   * @return the subprotocol, or null
   */
  public String subprotocol() {
    return subprotocol;
  }

  /**
   * Returns the names of the negotiated extensions.
   *
   * @return for example {@code [permessage-deflate]}
   */
  public List<String> extensions() {
    return session.extensionNames();
  }

  /**
   * Returns the peer's address.
   *
   * @return the remote socket address
   */
  public abstract SocketAddress remoteAddress();

  /**
   * Returns whether the calling thread is this connection's I/O thread (its event loop, or the
   * thread that reads it and runs its events): a thread that must never wait for a send to be
   * written, since it is the one that would write it.
   *
   * @return true on the I/O thread
   */
  public boolean onIoThread() {
    return false;
  }

  /**
   * Returns this end's address.
   *
   * @return the local socket address
   */
  public abstract SocketAddress localAddress();

  private static final int SEND_MESSAGE = 0;
  private static final int SEND_FRAGMENT = 1;
  private static final int SEND_PING = 2;
  private static final int SEND_PONG = 3;

  /** Encodes one send into the session's queue (no lambda per send: they are not always elided). */
  private void encode(int kind, Opcode type, ByteBuffer payload, boolean last) {
    switch (kind) {
      case SEND_MESSAGE -> session.sendMessage(type, payload);
      case SEND_FRAGMENT -> session.sendFragment(type, payload, last);
      case SEND_PING -> session.sendPing(payload);
      default -> session.sendPong(payload);
    }
  }

  private CompletableFuture<Void> send(
      long size, int kind, Opcode type, ByteBuffer payload, boolean last) {
    Pending future;
    ReentrantLock lock = lock();
    lock.lock();
    try {
      Session.State state = session.state();
      if (state == Session.State.CLOSED) {
        return CompletableFuture.failedFuture(
            new WebSocketClosedException(session.closeCode(), session.closeReason()));
      }
      long queued = session.outboundBytes();
      if (queued > 0 && queued + size > config.maxQueuedBytes()) {
        events().overHighWater = true;
        return CompletableFuture.failedFuture(
            new QueueFullException(queued, size, config.maxQueuedBytes()));
      }
      encode(kind, type, payload, last); // throws IllegalStateException / IllegalArgumentException
      future = new Pending(session.outboundTotal());
      events().pending().addLast(future);
      chargeOutbound();
    } finally {
      lock.unlock();
    }
    requestFlush();
    return future;
  }

  // ---------------------------------------------------------------------------------------------
  // What transports call (the I/O thread)

  /**
   * Reports that the connection is open; call once, after the handshake, before any receive.
   */
  protected final void open() {
    opened = true;
    handler.onOpen(this);
  }

  /**
   * Feeds received bytes to the session; events go to the handler on this thread.
   *
   * @param in the bytes, position to limit
   * @return true when all were consumed; false when reading must wait (for memory, or until what
   *     was sent is written): then keep {@code in} as it is, and feed it again first once {@link
   *     #setPaused} lifts the pause
   */
  protected final boolean receive(ByteBuffer in) {
    long now = System.nanoTime();
    received(now);
    int before = in.remaining();
    long stalled;
    boolean midMessage;
    boolean feedAgain;
    boolean answersPileUp;
    ReentrantLock lock = lock();
    lock.lock();
    try {
      MemoryBudget.Account memory = memory(); // the session charges what it assembles to it
      if (memory.evicted() && session.state() != Session.State.CLOSED) {
        session.fail(
            CloseCode.POLICY_VIOLATION,
            "memory budget spent: stalled for " + config.memory().stallTimeout().toMillis()
                + " ms holding " + memory.held() + " bytes",
            events());
      }
      session.receive(in, events());
      chargeOutbound();
      stalled = session.stalledFor();
      midMessage = session.midMessage();
      feedAgain = session.mustFeedAgain();
      answersPileUp = answersPileUp();
    } finally {
      lock.unlock();
    }
    afterEvents();
    if (answersPileUp) {
      pauseReadingUntilSent();
    }
    if (midMessage || events.progress != null) {
      watchProgress(now, before - in.remaining(), midMessage);
    }
    if (stalled > 0) {
      setPaused(PAUSE_MEMORY, true);
      memory().stall(
          stalled,
          () -> setPaused(PAUSE_MEMORY, false),
          () -> setPaused(PAUSE_MEMORY, false)); // evicted: the next receive fails it
      return false;
    }
    memory().progressed();
    return !in.hasRemaining() && !feedAgain;
  }

  /**
   * Whether a server's reading should wait for its writes: its queue holds more than half its
   * bound after a read's events. A peer that writes faster than it reads the answers (an echo
   * flood) then meets TCP's backpressure instead of the queue's bound, where the answers a handler
   * sends would fail and be lost to a handler that does not look at the futures. Only a server
   * does this: two ends that both stopped reading until their queues drained would wait on each
   * other for good. Under the lock.
   */
  private boolean answersPileUp() {
    return session.role() == Role.SERVER
        && !events().drainPause
        && session.outboundBytes() > config.maxQueuedBytes() / 2
        && session.state() != Session.State.CLOSED;
  }

  /** Applies the slow-trickle rule to a read; asks the transport for a timer while it watches. */
  private void watchProgress(long now, long bytes, boolean midMessage) {
    Events e = events; // made by the receive before this
    ProgressWatch p = e.progress;
    if (p == null) {
      ConnectionConfig.Progress rule = config.progress();
      if (rule.minBytes() == 0) {
        return;
      }
      p = e.progress = new ProgressWatch(rule.window().toNanos(), rule.minBytes());
    }
    String slow = p.received(now, bytes, midMessage);
    if (slow != null) {
      closeForTimeout(CloseCode.POLICY_VIOLATION, slow);
    } else if (p.watching()) {
      armProgressTimer(p.windowEnd());
    }
  }

  /**
   * Asks for {@link #progressDue} to be called on the reading thread at {@code deadlineNanos} (a
   * {@link System#nanoTime()} value), unless such a call is pending: a read ended inside a
   * message. The default does nothing.
   *
   * @param deadlineNanos when the current window ends
   */
  protected void armProgressTimer(long deadlineNanos) {}

  /**
   * Checks the slow-trickle rule when no byte came (a transport's timer, on the reading thread):
   * a peer that sent too little within the window while a message is incomplete is closed (1008).
   *
   * @param paused whether this end is not reading now (the window then starts anew)
   * @return the next deadline while the rule still watches, or 0
   */
  protected final long progressDue(boolean paused) {
    Events e = events; // the reading thread made it with the watch
    ProgressWatch p = e == null ? null : e.progress;
    if (p == null || !p.watching()) {
      return 0;
    }
    long now = System.nanoTime();
    if (paused) {
      p.restart(now);
      return p.windowEnd();
    }
    String slow = p.check(now);
    if (slow != null) {
      closeForTimeout(CloseCode.POLICY_VIOLATION, slow);
      return 0;
    }
    return p.windowEnd();
  }

  /**
   * Returns the connection's share of the memory budget, opening it at the first call (the first
   * read or charge; an idle connection never makes one).
   *
   * @return the account
   */
  protected final MemoryBudget.Account memory() {
    MemoryBudget.Account a = memoryOrNull();
    if (a != null) {
      return a;
    }
    ReentrantLock lock = lock();
    lock.lock();
    try {
      Events e = events();
      a = e.memory;
      if (a == null) {
        a = config.memory().open();
        session.chargeMemoryTo(a); // before the volatile write: whoever sees the account sees this
        e.memory = a;
      }
      return a;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The memory account, or null while none is open. A racy read of {@link #events} (a thread
   * that sees none goes on to {@link #memory()}'s lock, or counts nothing), then a volatile one.
   */
  private MemoryBudget.Account memoryOrNull() {
    Events e = events;
    return e == null ? null : e.memory;
  }

  /**
   * Charges the outbound queue past {@link #FREE_QUEUE} to the memory budget, as an overdraft (a
   * send is never refused for the budget's sake); call with the lock held after the queue changed.
   */
  private void chargeOutbound() {
    long charge = Math.max(0, session.outboundBytes() - FREE_QUEUE);
    Events s = events;
    long was = s == null ? 0 : s.outboundCharged;
    if (charge != was) {
      events().outboundCharged = charge;
      if (charge > was) {
        memory().chargeOver(charge - was);
      } else {
        memory().release(was - charge);
      }
    }
  }

  /**
   * Closes the socket at once with a TCP reset (SO_LINGER 0, then close): what is queued or in the
   * socket's send buffer is thrown away and the peer sees "connection reset". For a peer that does
   * not read, which a closing handshake could never reach and an orderly close would leave holding
   * kernel memory for minutes. Safe from any thread; idempotent.
   */
  public final void reset() {
    try {
      lingerZero();
    } catch (java.io.IOException | RuntimeException e) {
      // already closed, or the option is refused: the close below is what counts
    }
    abort();
  }

  /**
   * Sets SO_LINGER 0 on the socket, so that {@link #closeSocket()} resets the connection; the
   * default does nothing (a transport without a TCP socket).
   *
   * @throws java.io.IOException when the socket refuses the option
   */
  protected void lingerZero() throws java.io.IOException {}

  /**
   * Returns the thread that should write a fan-out's messages to this connection (its event loop),
   * so that a publication to many connections spreads over every loop; null when the publisher's
   * own thread should (a transport without loops). Tasks run in the order they were given.
   *
   * @return the executor, or null
   */
  public java.util.concurrent.Executor fanOutExecutor() {
    return null;
  }

  /**
   * Returns the bytes this connection charges to the memory budget now.
   *
   * @return bytes charged
   */
  public final long memoryCharged() {
    ReentrantLock lock = lock();
    lock.lock();
    try {
      MemoryBudget.Account memory = memoryOrNull();
      return memory == null ? 0 : memory.used();
    } finally {
      lock.unlock();
    }
  }

  /** Reports that the peer closed its side of the TCP connection (end of stream). */
  protected final void receiveEnd() {
    ReentrantLock lock = lock();
    lock.lock();
    try {
      session.receiveEnd(events());
    } finally {
      lock.unlock();
    }
    afterEvents();
    closeSocket();
  }

  /**
   * Reports an I/O failure or timeout: the connection is reported closed with 1006 and the
   * socket is closed.
   *
   * @param error what happened
   */
  protected final void fail(Throwable error) {
    handler.onError(this, error);
    ReentrantLock lock = lock();
    lock.lock();
    try {
      session.receiveEnd(events());
    } finally {
      lock.unlock();
    }
    afterEvents();
    closeSocket();
  }

  /**
   * Reports an error to the handler, and nothing else: for a transport whose timers run on another
   * thread and report what they did from the connection's own.
   *
   * @param error what happened
   */
  protected final void reportError(Throwable error) {
    handler.onError(this, error);
  }

  /**
   * Fails the connection because the peer went quiet: sends a close with {@code code} if it still
   * can, then closes the socket after the close timeout.
   *
   * @param code the close code, for example 1001 for idle or 1011 for a missing pong
   * @param reason why
   */
  protected final void closeForTimeout(int code, String reason) {
    handler.onError(this, new java.util.concurrent.TimeoutException(reason));
    close(code, reason);
  }

  /**
   * Returns this end's role.
   *
   * @return client or server
   */
  protected final Role role() {
    return session.role();
  }

  /**
   * Reports that bytes arrived, for the transport's idle and keepalive checks, which alone need the
   * time: a transport keeps it where those checks live (NIO: in the connection's timers, made only
   * when one is armed), so a connection without keepalive holds no field for it. Called by {@link
   * #receive} on the reading thread before the bytes are handled. The default keeps nothing.
   *
   * @param nanos a {@link System#nanoTime()} value
   */
  protected void received(long nanos) {}

  /**
   * Returns the configuration.
   *
   * @return the connection config
   */
  protected final ConnectionConfig config() {
    return config;
  }

  /**
   * Returns whether the session has finished (both close frames passed, or it failed) and the
   * socket should close once the queue is written.
   *
   * @return true when the session is closed
   */
  protected final boolean sessionClosed() {
    ReentrantLock lock = lock();
    lock.lock();
    try {
      return session.state() == Session.State.CLOSED;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Puts queued buffers into {@code dst} for a gathering write. Call with {@link #lock()} held and
   * keep it while advancing the buffers' positions; then call {@link #written}.
   *
   * @param dst where to put them
   * @return how many were put
   */
  protected final int gatherOutbound(ByteBuffer[] dst) {
    return session.gatherOutbound(dst, 0);
  }

  /**
   * Reports bytes written; completes the futures of sends now fully written. Call with {@link
   * #lock} held; the futures complete after the caller releases it.
   *
   * @param bytes bytes written by the last write
   */
  protected final void written(long bytes) {
    session.written(bytes);
    chargeOutbound();
  }

  /**
   * Marks the start of a write made outside the lock, of bytes taken from {@link
   * #gatherOutbound}; call with {@link #lock()} held. Until {@link #endWrite()}, a socket closing
   * under the write does not fail the sends it carries: the writer reports how far it got.
   */
  protected final void beginWrite() {
    events().writesInFlight++;
  }

  /** Marks the end of a write begun with {@link #beginWrite()}; call with {@link #lock()} held. */
  protected final void endWrite() {
    events().writesInFlight--;
  }

  /**
   * Completes the futures of sends that are fully written and reports {@link
   * ConnectionHandler#onWritable}; call without the lock, after {@link #written}, on the I/O
   * thread.
   */
  protected final void completeWritten() {
    if (complete(true)) {
      handler.onWritable(this);
    }
  }

  /**
   * Completes the futures of sends that are fully written, on a thread other than the I/O thread
   * (a sender that wrote its own bytes); call without the lock, after {@link #written}. Handler
   * events stay on the I/O thread: when {@link ConnectionHandler#onWritable} is due, this returns
   * true and the caller must have the I/O thread call {@link #completeWritten()}.
   *
   * @return true when the I/O thread must call {@link #completeWritten()}
   */
  protected final boolean completeWrittenElsewhere() {
    return complete(false);
  }

  /** Completes written sends; returns whether onWritable is due (cleared only on the I/O thread). */
  private boolean complete(boolean ioThread) {
    Pending first = null; // most writes finish one send: no list for it
    Pending[] done = null; // the others: Events.done, or a list when another completer has that
    int doneCount = 0;
    List<Pending> doneList = null;
    List<CompletableFuture<Void>> failed = null;
    WebSocketClosedException cause = null;
    boolean writable = false;
    boolean drained = false;
    ReentrantLock lock = lock();
    lock.lock();
    try {
      Events s = events;
      if (s != null) {
        // Every byte queued and no longer queued has been written: what the futures wait for.
        long writtenTotal = session.outboundTotal() - session.outboundBytes();
        ArrayDeque<Pending> pending = s.pending();
        while (!pending.isEmpty() && pending.peekFirst().target <= writtenTotal) {
          Pending f = pending.pollFirst();
          if (first == null) {
            first = f;
          } else if (doneList != null) {
            doneList.add(f);
          } else if (done == null && s.doneBusy) {
            doneList = new ArrayList<>();
            doneList.add(f);
          } else {
            if (done == null) {
              s.doneBusy = true;
              done = s.done();
            }
            if (doneCount == done.length) {
              done = s.done = Arrays.copyOf(done, doneCount * 2);
            }
            done[doneCount++] = f;
          }
        }
        if (s.failPendingAfterWrites && s.writesInFlight == 0) {
          s.failPendingAfterWrites = false;
          failed = new ArrayList<>();
          failed.addAll(pending);
          pending.clear();
          cause = new WebSocketClosedException(session.closeCode(), session.closeReason());
          session.discardOutbound(); // the socket closed under the write: see socketClosed
        }
        if (s.overHighWater && session.outboundBytes() <= config.maxQueuedBytes() / 2) {
          s.overHighWater = !ioThread; // cleared by the I/O thread, which reports it
          writable = true;
        }
      }
      if (!session.hasOutbound()) {
        session.trim();
        Events e = events;
        if (e != null && e.drainPause) {
          e.drainPause = false;
          drained = true;
        }
      }
    } finally {
      lock.unlock();
    }
    if (drained) {
      MemoryBudget.Account memory = memoryOrNull();
      if (memory != null) {
        memory.unstuck();
      }
      setPaused(PAUSE_DRAIN, false);
    }
    if (first != null) {
      first.complete(null);
    }
    if (done != null) {
      for (int i = 0; i < doneCount; i++) {
        Pending f = done[i];
        done[i] = null;
        f.complete(null);
      }
      events.doneBusy = false;
    }
    if (doneList != null) {
      for (Pending f : doneList) {
        f.complete(null);
      }
    }
    if (failed != null) {
      for (CompletableFuture<Void> f : failed) {
        f.completeExceptionally(cause);
      }
    }
    return writable;
  }

  /**
   * Returns whether bytes wait to be written. Call with {@link #lock()} held.
   *
   * @return true while the queue is not empty
   */
  protected final boolean hasOutbound() {
    return session.hasOutbound();
  }

  /**
   * Returns the bytes queued and not yet written, as {@link #queuedBytes()} does, for a caller
   * that holds {@link #lock()} already.
   *
   * @return the outbound queue's size
   */
  protected final long outboundBytes() {
    return session.outboundBytes();
  }

  /**
   * Marks the socket closed: fails sends still pending, reports {@link ConnectionHandler#onClose}
   * if the session did not, and completes {@link #closed()}. Transports call this once from
   * {@link #closeSocket()} after closing the channel.
   */
  protected final void socketClosed() {
    List<CompletableFuture<Void>> failed = new ArrayList<>();
    boolean report;
    int code;
    String reason;
    ReentrantLock lock = lock();
    lock.lock();
    try {
      if (session.state() != Session.State.CLOSED) {
        session.receiveEnd(events());
      }
      Events s = events;
      if (s != null && s.writesInFlight > 0) {
        s.failPendingAfterWrites = true; // the writer completes or fails them when its write ends
      } else {
        if (s != null && s.pending != null) {
          failed.addAll(s.pending);
          s.pending.clear();
        }
        // What was never written goes now: its (lent, direct) buffers must not wait for the
        // connection to become unreachable, since the budget counts them free from here on.
        session.discardOutbound();
      }
      report = opened && !closeReported;
      closeReported = true;
      if (events != null) {
        events.outboundCharged = 0;
        events.heldByApp = 0;
      }
      MemoryBudget.Account memory = memoryOrNull();
      if (memory != null) {
        memory.releaseAll(); // the queue, the message being read and the inbox's charge
      }
      code = session.closeCode();
      reason = session.closeReason();
    } finally {
      lock.unlock();
    }
    WebSocketClosedException cause = new WebSocketClosedException(code, reason);
    failed.forEach(f -> f.completeExceptionally(cause));
    if (report) {
      handler.onClose(this, code, reason);
    }
    closed().complete(null);
  }

  /** Asks the transport to write the queue soon (from any thread). */
  protected abstract void requestFlush();

  /**
   * Asks the transport to write the queue soon without making the calling thread write to the
   * socket when a write could block (a publisher must never wait for a slow subscriber). The
   * default is {@link #requestFlush()}, right for transports whose writes never block.
   */
  protected void requestFlushNoWait() {
    requestFlush();
  }

  /** Closes the socket (idempotent) and then calls {@link #socketClosed()}. */
  protected abstract void closeSocket();

  /**
   * Schedules a check that closes the socket if it is still open after {@code timeout}.
   *
   * @param timeout the close timeout
   */
  protected abstract void scheduleCloseTimeout(java.time.Duration timeout);

  private void afterEvents() {
    // A session that closed here queued its close frame (a reply, or the code it failed with):
    // onClose waits until the transport has written it (closeWritten) or closed the socket.
    requestFlush();
  }

  /**
   * Tells that the session is closed and everything it queued, its close frame included, is
   * written (for TLS: the records are in the socket): reports {@link ConnectionHandler#onClose}
   * now, if it was not reported yet. Transports call it from the I/O thread; {@link
   * #socketClosed()} reports it otherwise. Reported only then, so that an application may end
   * at once in {@code onClose} (a command-line client exits there) without cutting off the close
   * frame that RFC 6455 §5.5.1 says to send in reply.
   */
  protected final void closeWritten() {
    int code = 0;
    String reason = null;
    ReentrantLock lock = lock();
    lock.lock();
    try {
      if (session.state() == Session.State.CLOSED && !session.hasOutbound() && !closeReported
          && opened) {
        closeReported = true;
        code = session.closeCode();
        reason = session.closeReason();
      }
    } finally {
      lock.unlock();
    }
    if (reason != null) {
      handler.onClose(this, code, reason);
    }
  }

  /**
   * Whether the calling thread is delivering one of this connection's events right now. A send
   * made inside an event need not be flushed at once: the flush after the event takes it too.
   *
   * @return true inside {@code onMessage}, {@code onPing}, {@code onPong} or a protocol error's
   *     {@code onError}, on the I/O thread
   */
  protected final boolean inEvent() {
    Events e = events; // a racy read: a thread that sees null is not the one in an event
    return e != null && e.thread == Thread.currentThread();
  }

  /**
   * Adapts session events to the handler. The session calls it on the I/O thread with the lock
   * held; the lock is released around each handler call, so that a handler may send to any other
   * connection (a broadcast) without two I/O threads each holding one connection's lock and
   * waiting for the other's. The session is at an event boundary then, which it already allows a
   * handler to act on (send, close) from the same thread; other threads may act on it too.
   */
  private final class Events implements SessionListener {
    /** The connection's lock, which exists by the time an event is adapted. */
    private final ReentrantLock lock = lock();

    /** The I/O thread while it runs a handler's event; read by {@link #inEvent()}. */
    volatile Thread thread;

    ArrayDeque<Pending> pending() {
      ArrayDeque<Pending> p = pending;
      if (p == null) {
        p = pending = new ArrayDeque<>(INITIAL_PENDING);
      }
      return p;
    }

    Pending[] done() {
      Pending[] d = done;
      if (d == null) {
        d = done = new Pending[INITIAL_PENDING];
      }
      return d;
    }

    /**
     * This connection's share of the server's (or client's) memory budget, opened by the first
     * read or charge ({@link #memory()}). Written once, under the lock.
     */
    volatile MemoryBudget.Account memory;

    /**
     * The futures of the sends, in the order of their bytes, each with the written total that
     * completes it; made by the first send (a connection that only reads has none).
     */
    private ArrayDeque<Pending> pending;
    /** Writes begun outside the lock and not ended yet (see {@link #beginWrite()}). */
    int writesInFlight;
    /** The socket closed under such writes: what they leave fails once the last one ends. */
    boolean failPendingAfterWrites;
    /** A send met a full queue: {@code onWritable} is due once the queue drains to half. */
    boolean overHighWater;
    /**
     * The futures one write completed, reused from write to write so that a write that finishes a
     * batch of sends allocates no list; {@link #doneBusy} while a completer uses it.
     */
    private Pending[] done;
    /** Whether a completer fills or completes {@link #done}; set under the lock. */
    volatile boolean doneBusy;
    /** Queued outbound bytes charged to {@link #memory} (past the first {@link #FREE_QUEUE}). */
    long outboundCharged;

    // The reading side's flow control.
    /** Reading waits until the outbound queue is empty ({@link #pauseReadingUntilSent()}). */
    boolean drainPause;
    /** Bytes of received messages the application holds (see {@link #chargeHeld}); under lock. */
    long heldByApp;
    /** Whether reading waits for the application to take what it holds; under lock. */
    boolean heldPause;
    /** The slow-trickle rule, made when a read first ends inside a message; reading thread only. */
    ProgressWatch progress;

    @Override
    public void onMessage(Opcode type, ByteBuffer payload) {
      beginEvent();
      try {
        handler.onMessage(Connection.this, type, payload);
      } finally {
        endEvent();
      }
    }

    @Override
    public void onMessagePart(Opcode type, ByteBuffer chunk, boolean last) {
      beginEvent();
      try {
        handler.onMessagePart(Connection.this, type, chunk, last);
      } finally {
        endEvent();
      }
    }

    @Override
    public void onPing(ByteBuffer payload) {
      beginEvent();
      try {
        handler.onPing(Connection.this, payload);
      } finally {
        endEvent();
      }
    }

    @Override
    public void onPong(ByteBuffer payload) {
      beginEvent();
      try {
        handler.onPong(Connection.this, payload);
      } finally {
        endEvent();
      }
    }

    @Override
    public void onFailure(ProtocolException cause) {
      beginEvent();
      try {
        handler.onError(Connection.this, cause);
      } finally {
        endEvent();
      }
    }

    private void beginEvent() {
      lock.unlock();
      thread = Thread.currentThread();
    }

    private void endEvent() {
      thread = null;
      lock.lock();
    }
  }

  /** The close code a server uses when it shuts down. */
  static final int SHUTDOWN_CODE = CloseCode.GOING_AWAY;
}
