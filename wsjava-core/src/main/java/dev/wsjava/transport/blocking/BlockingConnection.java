package dev.wsjava.transport.blocking;

import dev.wsjava.extension.Extension;
import dev.wsjava.CloseCode;
import dev.wsjava.protocol.Role;
import dev.wsjava.session.Session;
import dev.wsjava.transport.Connection;
import dev.wsjava.transport.ConnectionConfig;
import dev.wsjava.transport.ConnectionHandler;
import dev.wsjava.transport.Tuning;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * A WebSocket connection on a blocking socket, run by one virtual thread.
 *
 * <p><b>Reading.</b> The connection's thread runs a plain loop: read from the socket, feed the
 * session, repeat until the stream ends. Events reach the handler on that thread. Reads go into a
 * small buffer; one that fills it switches to {@link ConnectionConfig#readBufferSize()} bytes
 * until reads come back small again, so a quiet connection holds little.
 *
 * <p><b>Writing.</b> Whoever asks for a flush writes: a sender, or the reader after an event
 * (pongs, close replies, a handler's sends; from 256 KiB queued on, the reader
 * starts a writer thread instead and reads on). A write lock lets one thread write at a time; a
 * thread that finds it taken leaves its bytes to the writer, which writes until the queue is
 * empty. The writer takes the queued buffers' (array, offset, length) under the connection's lock,
 * writes outside it, and then reports what it wrote. Other senders meanwhile only append past a
 * buffer's limit, so the bytes being written are never touched.
 *
 * <p><b>Time.</b> Reads are never timed (a timed read costs a JDK timer per read on a virtual
 * thread); the idle and keepalive timers are due once per interval in {@link Keepalive}, which
 * runs them on a thread of their own. Idle for {@link ConnectionConfig#idleTimeout()}: close with
 * 1001. Quiet for {@link ConnectionConfig#pingInterval()}: ping; nothing heard within {@link
 * ConnectionConfig#deadPeerTimeout()}: send 1011 and drop the connection at once (1006). Any byte
 * received counts as a sign of life, a pong or not. The close timeout is an {@link Alarm}.
 *
 * <p><b>Pausing.</b> {@link #pauseReading} (and the memory budget, and {@link
 * #pauseReadingUntilSent}) stop the loop between reads, so a consumer that fell
 * behind makes TCP slow the peer down.
 *
 * <p><b>Closing.</b> Once the session is closed and its queue written, a server closes TCP at once
 * (RFC 6455 §7.1.1); a client waits for the server's end of stream, at most the close timeout.
 * Over TLS a clean close sends close_notify; an abort just drops the TCP connection.
 *
 * <p>Thread-safety: as {@link Connection}; handler events come one at a time on the read loop's
 * thread ({@code onOpen} on the thread that opened the connection).
 */
public final class BlockingConnection extends Connection {
  /** Reads start with this many bytes: {@link Tuning#SMALL_READ}. */
  static final int SMALL_READ = Tuning.SMALL_READ;

  /** Queued bytes from which the read loop hands a write off: {@link Tuning#HANDOFF_BYTES}. */
  private static final long HANDOFF_BYTES = Tuning.HANDOFF_BYTES;

  /** {@link #timedOut}, taken once by whoever reports it (no atomic object per connection). */
  private static final VarHandle TIMED_OUT;

  static {
    try {
      TIMED_OUT =
          MethodHandles.lookup()
              .findVarHandle(BlockingConnection.class, "timedOut", TimeoutException.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Buffers taken per write round. */
  private static final int GATHER = Tuning.BLOCKING_GATHER;

  private final Socket raw;
  private final Socket socket;
  private final boolean client;
  private final InputStream in;
  private final OutputStream out;
  private final Consumer<BlockingConnection> released;

  private final ReentrantLock writeLock = new ReentrantLock();
  private final ByteBuffer[] gathered = new ByteBuffer[GATHER];
  private final int[] offsets = new int[GATHER];
  private final int[] lengths = new int[GATHER];

  private final AtomicBoolean closing = new AtomicBoolean();
  private final AtomicBoolean failed = new AtomicBoolean();
  private final AtomicReference<Alarm> closeAlarm = new AtomicReference<>();
  private volatile IOException writeError;

  private final ReentrantLock pauseLock = new ReentrantLock();
  private final Condition resumed = pauseLock.newCondition();
  /** Why reading is paused ({@code Connection.PAUSE_*} bits); 0 to read. Guarded by pauseLock. */
  private volatile int pausedBy;

  // Keepalive: set by the timers' thread, cleared by the read loop when anything arrives.
  private volatile long lastReceiveNanos = System.nanoTime();
  private volatile boolean pingOutstanding;
  private volatile long pingSentNanos;
  private volatile Keepalive.Due due;
  /** The read loop's thread, once it runs. */
  private volatile Thread reader;
  /** An idle timeout the timers acted on, for the read loop (or the close) to report once. */
  private volatile TimeoutException timedOut;
  /** Set by the timers before they cut off a dead peer's input: the read loop fails with it. */
  private volatile TimeoutException deadPeer;

  /**
   * Creates the connection over a socket whose handshake is done.
   *
   * @param raw the TCP socket
   * @param socket {@code raw}, or the TLS socket layered over it
   * @param role client or server
   * @param handler where events go
   * @param config limits and timeouts
   * @param subprotocol the negotiated subprotocol, or null
   * @param extensions the negotiated extensions
   * @param released runs once the socket is closed, before the handler hears of it
   */
  BlockingConnection(
      Socket raw,
      Socket socket,
      Role role,
      ConnectionHandler handler,
      ConnectionConfig config,
      String subprotocol,
      List<Extension> extensions,
      Consumer<BlockingConnection> released)
      throws IOException {
    super(new Session(role, config.session(), extensions), handler, config, subprotocol);
    this.raw = raw;
    this.socket = socket;
    this.client = role == Role.CLIENT;
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
    this.released = released;
  }

  /** The client's address from a PROXY protocol header, or null for the socket's. */
  private volatile SocketAddress proxied;

  @Override
  public SocketAddress remoteAddress() {
    SocketAddress p = proxied;
    return p != null ? p : raw.getRemoteSocketAddress();
  }

  /** The client's address from a PROXY protocol header, which replaces the socket's; before run. */
  void proxiedFrom(SocketAddress client) {
    proxied = client;
  }

  @Override
  public SocketAddress localAddress() {
    return raw.getLocalSocketAddress();
  }

  // ---------------------------------------------------------------------------------------------
  // Reading: the connection's own thread

  /**
   * Reports the connection open: {@code onOpen} runs on the calling thread, before any other
   * event. Call once, before {@link #run}.
   *
   * @return false when the handler threw, which failed the connection
   */
  boolean reportOpen() {
    try {
      open();
      return true;
    } catch (RuntimeException | Error e) {
      failOnce(e);
      return false;
    }
  }

  /**
   * Runs the read loop on the calling thread until the socket is closed, starting with {@code
   * first} (bytes that came with the handshake).
   *
   * @param first bytes received after the handshake head, possibly none
   * @param buffer the handshake's read buffer for the loop's small reads, or null for a new one
   */
  void run(ByteBuffer first, byte[] buffer) {
    reader = Thread.currentThread();
    try {
      scheduleTimers();
      ByteBuffer held = first.hasRemaining() && !received(first) ? first : null;
      readLoop(buffer, held);
    } catch (IOException e) {
      if (!closing.get() && !sessionClosed()) {
        failOnce(writeError != null ? writeError : e);
      }
    } catch (RuntimeException | Error e) { // a handler threw: nothing more can be trusted
      failOnce(e);
    } finally {
      closeSocket();
    }
  }

  private void readLoop(byte[] reuse, ByteBuffer pending) throws IOException {
    int smallSize = Math.min(SMALL_READ, config().readBufferSize());
    byte[] small = reuse != null && reuse.length == smallSize ? reuse : new byte[smallSize];
    byte[] buffer = small;
    ByteBuffer held = pending; // bytes the session could not take yet: fed again first
    socket.setSoTimeout(0); // a client's handshake timeout ends here
    while (!closing.get()) {
      if (pausedBy != 0) {
        awaitResumed();
        if (writeError != null && pausedBy != 0) {
          failOnce(writeError); // the peer left while reading was paused
          return;
        }
        long next = progressDue(true); // the pause was not the peer's fault: a new window
        if (next != 0) {
          setReadTimeout(next);
        }
        continue;
      }
      if (held != null) {
        // Not paused, yet bytes wait: the session gave way after a slice of inflation. Let the
        // other connections' threads run first, then feed it again in its turn among the costly.
        ByteBuffer again = held;
        held = CostlySlices.run(() -> received(again)) ? null : again;
        continue;
      }
      int n;
      try {
        n = in.read(buffer);
      } catch (SocketTimeoutException slow) {
        long next = progressDue(false); // a read timed only while a message is incomplete
        watchedUntil = 0;
        setReadTimeout(next);
        continue;
      }
      reportTimedOut();
      if (n < 0) {
        Exception error = writeError != null ? writeError : deadPeer;
        if (error != null) {
          failOnce(error);
        } else {
          finishClosingWrite();
          receiveEnd();
        }
        return;
      }
      ByteBuffer bytes = ByteBuffer.wrap(buffer, 0, n);
      if (!received(bytes)) {
        held = bytes; // reading waits (memory, or a drain); the array is not read into meanwhile
      }
      if (watchedUntil != 0) {
        // A read's timeout restarts with every read: a peer that trickles a byte now and then and
        // stops just before the window ends would be judged a whole window later. The next read
        // waits only for what is left of the window (the reads themselves judge a window that
        // ended, see Connection.watchProgress).
        setReadTimeout(watchedUntil);
      }
      if (n == buffer.length && buffer == small) {
        buffer = new byte[config().readBufferSize()];
      } else if (n < small.length) {
        buffer = small;
      }
    }
  }

  /** When the read timeout of the slow-trickle rule ends; 0 while reads are not timed. */
  private long watchedUntil;

  @Override
  protected void armProgressTimer(long deadlineNanos) {
    if (Thread.currentThread() == reader && watchedUntil != deadlineNanos) {
      setReadTimeout(deadlineNanos);
    }
  }

  /**
   * Times the reads while a message is incomplete (a timed read costs a timer per read on a
   * virtual thread: only then), so that a peer that sends nothing more is judged at the window's
   * end; untimed again at a message boundary.
   */
  private void setReadTimeout(long deadlineNanos) {
    try {
      if (deadlineNanos == 0) {
        if (watchedUntil != 0) {
          watchedUntil = 0;
          socket.setSoTimeout(0);
        }
        return;
      }
      watchedUntil = deadlineNanos;
      long ms = Math.max(1, (deadlineNanos - System.nanoTime()) / 1_000_000 + 1);
      socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, ms));
    } catch (IOException e) {
      // the socket is closing: the read fails on its own
    }
  }

  @Override
  protected void received(long nanos) {
    lastReceiveNanos = nanos;
  }

  /**
   * Sets or clears a reason not to read. While any holds, the loop stops between reads: the
   * socket's receive buffer fills and TCP slows the peer down; the idle and keepalive timers wait
   * too (the close timeout does not).
   */
  @Override
  protected void setPaused(int reason, boolean pause) {
    pauseLock.lock();
    try {
      pausedBy = pause ? pausedBy | reason : pausedBy & ~reason;
      resumed.signalAll();
    } finally {
      pauseLock.unlock();
    }
  }

  /**
   * Waits until no reason to pause holds. While it waits for memory, it asks the budget once a
   * stall timeout whether a stalled holder must go (the largest; perhaps this one).
   */
  private void awaitResumed() {
    long stallNanos = config().memory().stallTimeout().toNanos();
    long probeNanos = Tuning.PAUSED_PROBE.toNanos();
    long now = System.nanoTime();
    long stallAt = now + stallNanos;
    long probeAt = now + probeNanos;
    pauseLock.lock();
    try {
      while (pausedBy != 0 && !closing.get() && writeError == null) {
        boolean memory = (pausedBy & PAUSE_MEMORY) != 0;
        long wait = (memory ? Math.min(stallAt, probeAt) : probeAt) - System.nanoTime();
        if (wait > 0) {
          try {
            resumed.awaitNanos(wait);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
          continue; // woken, or the time is up: look again
        }
        now = System.nanoTime();
        pauseLock.unlock();
        try {
          if (memory && now - stallAt >= 0) {
            stallAt = now + stallNanos;
            config().memory().evictIfStuck(); // the evicted one is woken by its callback
          }
          if (now - probeAt >= 0) {
            probeAt = now + probeNanos;
            probePeer();
          }
        } finally {
          pauseLock.lock();
        }
      }
    } finally {
      pauseLock.unlock();
    }
  }

  /**
   * Reading is paused, so the socket would not tell of the peer's reset: an empty ping's write
   * does (see {@link Tuning#PAUSED_PROBE}). It is skipped while another thread writes: a write
   * into a reset socket fails on its own. A failed write wakes this thread (see {@link
   * #writeFailed}), which then fails the connection.
   */
  private void probePeer() {
    if (writeLock.isLocked() || !isOpen()) {
      return;
    }
    try {
      sendPing(ByteBuffer.allocate(0));
    } catch (IllegalStateException closing) {
      // closing: the close timeout bounds the rest
    }
  }

  private boolean received(ByteBuffer bytes) {
    if (pingOutstanding) {
      pingOutstanding = false;
    }
    boolean all = receive(bytes);
    if (sessionClosed()) {
      // A client waits for the server's end of stream, not forever.
      scheduleCloseTimeout(config().closeTimeout());
      // Our close frame (a reply, or the code we failed with) goes out before the application
      // hears of the close: it may end the process in onClose. Another thread may be writing it.
      finishClosingWrite();
      if (client) {
        closeWritten();
      } else {
        closeSocket(); // RFC 6455 §7.1.1: the server closes TCP first; onClose comes with it
      }
      return true; // a closed session takes (and ignores) whatever is left
    }
    return all;
  }

  /** Schedules the idle and keepalive timers, when the configuration has any. */
  private void scheduleTimers() {
    long next = nextTimerNanos(System.nanoTime());
    if (next != Long.MAX_VALUE) {
      due = Keepalive.schedule(this, next);
      if (closing.get()) {
        due.cancel(); // closed meanwhile: closeSocket may have missed this entry
      }
    }
  }

  /** Returns when the timers next need to run ({@link KeepaliveRules#next}), or never. */
  private long nextTimerNanos(long now) {
    if (!isOpen()) {
      return Long.MAX_VALUE;
    }
    return KeepaliveRules.next(
        config(), now, lastReceiveNanos, pausedBy != 0, pingOutstanding, pingSentNanos);
  }

  /** Runs the timers that are due, then schedules the next; on a {@link Keepalive} thread. */
  void timersDue() {
    if (closing.get()) {
      return;
    }
    if (pausedBy == 0) {
      onTimers();
    }
    scheduleTimers();
  }

  /**
   * Runs on a {@link Keepalive} thread. It acts (pings, closes), but leaves the handler's events to
   * the read loop, which reports them one at a time on its own thread: the idle timeout when the
   * peer's answer (or the end) wakes it, a dead peer when the input this cuts off does.
   */
  private void onTimers() {
    if (!isOpen()) {
      return;
    }
    long now = System.nanoTime();
    KeepaliveRules.Act act =
        KeepaliveRules.due(config(), now, lastReceiveNanos, pingOutstanding, pingSentNanos);
    if (act == KeepaliveRules.Act.IDLE_TIMEOUT) {
      String reason =
          "idle timeout: nothing received for " + config().idleTimeout().toMillis() + " ms";
      timedOut = new TimeoutException(reason);
      try {
        close(CloseCode.GOING_AWAY, reason);
      } catch (IllegalStateException closing) {
        // closed meanwhile
      }
    } else if (act == KeepaliveRules.Act.DEAD_PEER) {
      // RFC 6455 §7.1.7: send 1011 if possible, then drop it; a dead peer cannot answer (1006)
      try {
        close(CloseCode.INTERNAL_ERROR, "no pong");
      } catch (IllegalStateException closing) {
        // closed meanwhile
      }
      deadPeer = config().deadPeer();
      try {
        raw.shutdownInput(); // the read loop wakes at end of stream and fails with deadPeer
      } catch (IOException e) {
        closeSocket(); // not connected any more: nothing to wake
      }
    } else if (act == KeepaliveRules.Act.PING) {
      pingOutstanding = true;
      pingSentNanos = now;
      try {
        sendPing(ByteBuffer.allocate(0));
      } catch (IllegalStateException e) {
        // closed meanwhile by another thread: the close timeout takes over
      }
    }
  }

  /** Reports an idle timeout the timers acted on, once. */
  private void reportTimedOut() {
    if (timedOut != null) {
      TimeoutException e = (TimeoutException) TIMED_OUT.getAndSet(this, null);
      if (e != null) {
        reportError(e);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Writing: the thread that asks

  @Override
  protected void requestFlush() {
    if (inEvent() || writeLock.isHeldByCurrentThread()) {
      return; // inside an event or a write: the flush after it takes these bytes too
    }
    if (Thread.currentThread() == reader && queuedBytes() >= HANDOFF_BYTES) {
      // A writer that holds the lock now checks the queue again after it lets go (see below).
      if (!writeLock.isLocked()) {
        Thread.ofVirtual().name("wsjava-writer").start(this::flush);
      }
      return;
    }
    flush();
  }

  /**
   * A fan-out must not block on this socket: a writer thread of its own takes the queue, unless a
   * writer is at work already (it checks the queue again after it lets go, see {@link #flush()}).
   */
  @Override
  protected void requestFlushNoWait() {
    if (inEvent() || writeLock.isHeldByCurrentThread()) {
      return; // the flush after the event or write takes these bytes too
    }
    if (!writeLock.isLocked()) {
      Thread.ofVirtual().name("wsjava-writer").start(this::flush);
    }
  }

  /** Writes the queue unless another thread is writing it, which then writes these bytes too. */
  private void flush() {
    while (!closing.get() && writeLock.tryLock()) {
      try {
        drain();
      } catch (IOException e) {
        writeFailed(e);
        return;
      } finally {
        writeLock.unlock();
      }
      // Bytes queued by a sender whose tryLock failed while we wrote are ours to write.
      boolean more;
      boolean done;
      lock().lock();
      try {
        more = hasOutbound();
        done = !more && sessionClosed();
      } finally {
        lock().unlock();
      }
      if (done && !client) {
        closeSocket(); // RFC 6455 §7.1.1: the server closes the TCP connection first
      }
      if (!more) {
        return;
      }
    }
  }

  /** Writes until the queue is empty; the caller holds the write lock. */
  private void drain() throws IOException {
    while (true) {
      int count;
      boolean closingHandshake;
      lock().lock();
      try {
        count = gatherOutbound(gathered);
        for (int i = 0; i < count; i++) {
          offsets[i] = gathered[i].arrayOffset() + gathered[i].position();
          lengths[i] = gathered[i].remaining();
        }
        closingHandshake = count > 0 && !isOpen();
        if (count > 0) {
          beginWrite();
        }
      } finally {
        lock().unlock();
      }
      if (count == 0) {
        return;
      }
      if (closingHandshake) {
        // This write may block on a peer that stopped reading: bound it before it starts.
        scheduleCloseTimeout(config().closeTimeout());
      }
      long total = 0;
      try {
        for (int i = 0; i < count; i++) {
          out.write(gathered[i].array(), offsets[i], lengths[i]);
          total += lengths[i];
        }
      } catch (IOException e) {
        lock().lock();
        try {
          endWrite();
        } finally {
          lock().unlock();
        }
        Arrays.fill(gathered, 0, count, null);
        completeWritten();
        throw e;
      }
      lock().lock();
      try {
        for (int i = 0; i < count; i++) {
          gathered[i].position(gathered[i].position() + lengths[i]);
        }
        written(total);
        endWrite();
      } finally {
        lock().unlock();
      }
      Arrays.fill(gathered, 0, count, null);
      completeWritten();
    }
  }

  /**
   * The peer ended its stream after the closing handshake, perhaps while our close frame is still
   * being written by another thread (a sender holding the write lock; TLS makes that window wide).
   * A peer that only shut its output down still reads, so that write must end, and whatever is
   * still queued must go out, before the socket closes: closing now would cut our close frame and
   * the peer would see an abnormal end (1006). The close alarm, armed when the session closed,
   * bounds the wait: it closes the socket, which ends a write the peer never reads.
   */
  private void finishClosingWrite() {
    if (!sessionClosed() || writeLock.isHeldByCurrentThread()) {
      return;
    }
    try {
      if (!writeLock.tryLock(config().closeTimeout().toNanos(), TimeUnit.NANOSECONDS)) {
        return;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    try {
      drain();
    } catch (IOException e) {
      // the peer is gone too: closing the socket is all that is left
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * A write failed. The read loop reports it, so that events stay on one thread: shutting the
   * input down ends its read (a reset socket fails it anyway), and it finds the error waiting.
   */
  private void writeFailed(IOException e) {
    if (closing.get() || sessionClosed()) {
      closeSocket();
      return;
    }
    writeError = e;
    try {
      raw.shutdownInput();
    } catch (IOException notConnected) {
      // the read fails on its own
    }
    pauseLock.lock();
    try {
      resumed.signalAll(); // a read loop waiting while paused finds the error
    } finally {
      pauseLock.unlock();
    }
  }

  private void failOnce(Throwable error) {
    if (failed.compareAndSet(false, true)) {
      fail(error);
    } else {
      closeSocket();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Closing

  @Override
  protected void scheduleCloseTimeout(Duration timeout) {
    if (closing.get() || closeAlarm.get() != null) {
      return;
    }
    Alarm alarm = Alarm.after(timeout, this::closeSocket);
    if (!closeAlarm.compareAndSet(null, alarm) || closing.get()) {
      alarm.cancel();
    }
  }

  @Override
  protected void lingerZero() throws IOException {
    raw.setSoLinger(true, 0);
  }

  @Override
  protected void closeSocket() {
    if (!closing.compareAndSet(false, true)) {
      return;
    }
    try {
      if (socket != raw && cleanEnd() && writeLock.tryLock()) {
        try {
          socket.close(); // close_notify, then TCP
        } finally {
          writeLock.unlock();
        }
      }
    } catch (IOException e) {
      // the TCP close below is what counts
    } finally {
      try {
        raw.close();
      } catch (IOException e) {
        // nothing left to do
      }
      Alarm alarm = closeAlarm.get();
      if (alarm != null) {
        alarm.cancel();
      }
      Keepalive.Due timers = due;
      if (timers != null) {
        timers.cancel();
      }
      reportTimedOut(); // the peer never answered the idle close: before onClose
      TimeoutException dead = deadPeer;
      if (dead != null && failed.compareAndSet(false, true)) {
        reportError(dead); // the dead peer's input was never read again (the 1011 write hung)
      }
      setPaused(0, false); // wakes a paused read loop, which then sees the socket closed
      released.accept(this);
      socketClosed();
    }
  }

  /** Whether the socket is closed or being closed. */
  boolean socketClosing() {
    return closing.get();
  }

  /** Whether the session ended with both close frames passed and nothing left to write. */
  private boolean cleanEnd() {
    lock().lock();
    try {
      return sessionClosed() && !hasOutbound() && writeError == null;
    } finally {
      lock().unlock();
    }
  }

  @Override
  public boolean onIoThread() {
    return Thread.currentThread() == reader;
  }
}
