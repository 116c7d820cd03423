package dev.wsjava.transport.nio;

import dev.wsjava.extension.Extension;
import dev.wsjava.CloseCode;
import dev.wsjava.protocol.Role;
import dev.wsjava.session.Session;
import dev.wsjava.transport.Connection;
import dev.wsjava.transport.ConnectionConfig;
import dev.wsjava.transport.ConnectionHandler;
import dev.wsjava.transport.Tuning;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * A WebSocket connection on an {@link EventLoop}: reads feed the session, the session's queue is
 * written with gathering writes, and its {@link ConnectionTimers} watch the peer.
 *
 * <p>Reading: on readiness a read buffer is borrowed from the loop's pool, filled by large reads
 * and handed whole to the session (which consumes every byte, keeping partial frames in its own
 * small state), then given back: an idle connection holds no read buffer, and bytes after a frame
 * in the same read are never lost. Writing: the queued frames go out in one {@code
 * write(ByteBuffer[])}; {@code OP_WRITE} is asked for only while the socket is full. A send from
 * another thread asks for a flush task, queued at most once at a time; on the loop thread the flush
 * runs at once, or right after the read or flush in progress.
 *
 * <p>Closing: once the session is closed and its queue written, a server closes TCP at once; a
 * client waits up to the close timeout for the server to close first (RFC 6455 §7.1.1).
 *
 * <p>Memory: an idle connection holds no buffer, no lock, no timer and no memory-budget account,
 * and its session neither a parser nor a queue; each is made at its first use (see the fields). On
 * a server it is this object (88 bytes), its session (40), the API's facade (56) and the upgrade
 * request's packed head (64 for a plain upgrade): about 250 bytes beside the JDK's socket ({@code
 * ./bench footprint} lists them).
 *
 * <p>Thread-safety: the {@link Connection} methods are safe from any thread; everything else runs
 * on the loop thread.
 */
final class NioConnection extends Connection
    implements Selectable, Runnable, ConnectionTimers.Host {
  private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

  /** The peer's stream ended while our close answer waits: nothing more to read. */
  private static final int PAUSE_END = 8;

  private static final VarHandle FLUSH_SCHEDULED;

  static {
    try {
      FLUSH_SCHEDULED =
          MethodHandles.lookup()
              .findVarHandle(NioConnection.class, "flushScheduled", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  // What an idle connection holds is counted in bytes (thousands of them wait on a server): the
  // socket is reached through its key, plain TCP needs no stream object, the local address is asked
  // of the socket, the role of the session, and timers exist only once one is armed.
  private final EventLoop loop;
  private final SelectionKey key; // its channel is the socket: see channel()
  private final TlsIo tls; // the TLS stream over the socket; null for plain TCP
  private SocketAddress remote; // kept: a closed channel no longer tells it
  private final Consumer<NioConnection> onSocketClosed;
  /** Whether this connection, as its own flush task, waits in the loop's queue; see {@link #run}. */
  private volatile boolean flushScheduled;

  // Loop-thread state.
  private boolean busy;
  private boolean flushAgain;
  private boolean closeRequested;
  private boolean writeInterest;
  /** Why reading is paused: {@code Connection.PAUSE_*} bits and {@link #PAUSE_END}; 0 to read. */
  private int pausedBy;
  /** A read buffer whose bytes the session could not take yet: fed first when reading resumes. */
  private ByteBuffer held;
  private boolean closed;
  private boolean sessionFinished;
  private boolean peerEnded; // end of stream came while our close answer still waited to be written
  private byte rereadSkips; // readiness events left that skip the read after answering
  private byte rereadBackoff; // the skips the last miss set; 0 after a hit
  /**
   * While the events of a short read are handled: how many queued answer bytes are written at
   * once rather than after the read's last event; 0 at other times. Half the read's bytes (at
   * least {@link Tuning#EARLY_WRITE_MIN}), so a batch of small requests is answered in about two
   * writes: the peer handles the first half of the answers while this side works on the second.
   * With 64 requests of 300 bytes in flight this raised echoes per second by 10 to 40 % for one
   * more write per batch.
   */
  private int writeEarlyAt;
  private ConnectionTimers timers; // made when the first timer is armed: see timers()

  /**
   * Creates the connection after a completed handshake; call {@link #start} next, on the loop.
   *
   * @param loop the owning loop
   * @param channel the socket
   * @param key the socket's key with the loop's selector
   * @param io plain or TLS stream over the socket (only a TLS one is kept)
   * @param role client or server
   * @param config queue bounds and timeouts
   * @param handler where events go
   * @param subprotocol the negotiated subprotocol, or null
   * @param extensions the negotiated extensions
   * @param onSocketClosed run once on the loop after the socket closed
   */
  NioConnection(
      EventLoop loop,
      SocketChannel channel,
      SelectionKey key,
      Io io,
      Role role,
      ConnectionConfig config,
      ConnectionHandler handler,
      String subprotocol,
      List<Extension> extensions,
      Consumer<NioConnection> onSocketClosed) {
    super(session(loop, role, config, extensions), handler, config, subprotocol);
    this.loop = loop;
    this.key = key;
    this.tls = io instanceof TlsIo t ? t : null; // plain TCP: the socket is used directly
    this.remote = addressOf(channel, true);
    this.onSocketClosed = onSocketClosed;
  }

  private static Session session(
      EventLoop loop, Role role, ConnectionConfig config, List<Extension> extensions) {
    Session session = new Session(role, config.session(), extensions);
    session.lendFrameBuffersFrom(loop.framePool()); // written from direct memory: no JDK copy
    return session;
  }

  private static SocketAddress addressOf(SocketChannel channel, boolean remote) {
    try {
      return remote ? channel.getRemoteAddress() : channel.getLocalAddress();
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Takes over the socket's key, reports the connection open and feeds the bytes that arrived with
   * the handshake. Loop thread only.
   *
   * @param leftover bytes received after the handshake head, position to limit; consumed
   * @param afterOpen run right after the handler's {@code onOpen}, before any message, or null
   */
  void start(ByteBuffer leftover, Runnable afterOpen) {
    key.attach(this);
    key.interestOps(SelectionKey.OP_READ);
    if (!config().idleTimeout().isZero() || !config().pingInterval().isZero()) {
      timers().armKeepalive();
    }
    open();
    if (afterOpen != null) {
      afterOpen.run();
    }
    if (closed) {
      return;
    }
    if (leftover != null && leftover.hasRemaining() && !closeRequested) {
      busy = true;
      RuntimeException error = null;
      try {
        if (!receive(leftover)) {
          held = leftover; // fed again once reading resumes
        }
      } catch (RuntimeException e) {
        error = e;
      } finally {
        busy = false;
      }
      if (error != null) {
        failed(error);
        return;
      }
    }
    if (closeRequested) {
      closeNow();
      return;
    }
    if (flushAgain) {
      // Only what the leftover bytes queued (replies, or sends of the events they made) waits: a
      // send of onOpen's was written at once. An idle connection writes nothing here, and so
      // never needs its lock.
      flush();
    }
    if (!closed && hasBufferedInput()) {
      loop.execute(this::onReadable);
    }
  }

  @Override
  public SocketAddress remoteAddress() {
    return remote;
  }

  /** The client's address from a PROXY protocol header, which replaces the socket's; before start. */
  void proxiedFrom(SocketAddress client) {
    remote = client;
  }

  @Override
  public SocketAddress localAddress() {
    return addressOf(channel(), false);
  }

  // ---------------------------------------------------------------------------------------------
  // The byte stream: the socket itself for plain TCP, else TLS over it

  private SocketChannel channel() {
    return (SocketChannel) key.channel();
  }

  private int read(ByteBuffer dst) throws IOException {
    return tls == null ? channel().read(dst) : tls.read(dst);
  }

  private long write(ByteBuffer[] srcs, int length) throws IOException {
    return tls == null ? PlainIo.write(channel(), srcs, 0, length) : tls.write(srcs, 0, length);
  }

  /** Whether TLS holds encrypted bytes the socket has not taken yet. */
  private boolean hasPendingOutput() {
    return tls != null && tls.hasPendingOutput();
  }

  /** Whether TLS holds decrypted bytes already read from the socket. */
  private boolean hasBufferedInput() {
    return tls != null && tls.hasBufferedInput();
  }

  private int minReadBuffer() {
    return tls == null ? 0 : tls.minReadBuffer();
  }

  private void closeStream() {
    if (tls != null) {
      tls.close();
    } else {
      PlainIo.close(channel());
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Readiness

  @Override
  public void ready(int readyOps) {
    if ((readyOps & SelectionKey.OP_WRITE) != 0) {
      flush();
    }
    if (!closed && (readyOps & SelectionKey.OP_READ) != 0) {
      onReadable();
    }
  }

  @Override
  public void forceClose() {
    closeNow();
  }

  private boolean readPaused() {
    return pausedBy != 0;
  }

  private void onReadable() {
    if (closed || busy || readPaused()) {
      return;
    }
    busy = true;
    // The size is worked out per readiness event rather than kept: one int less per connection.
    ByteBuffer buf = held;
    boolean fromHeld = buf != null;
    held = null;
    boolean keep = false; // whether buf holds bytes the session could not take yet
    if (!fromHeld) {
      buf = loop.pool().acquire(Math.max(config().readBufferSize(), minReadBuffer()));
    }
    boolean end = false;
    Exception error = null;
    try {
      if (fromHeld) {
        keep = !receive(buf); // what was held, fed again first (perhaps no bytes: see Session)
        if (!keep) {
          loop.pool().release(buf.clear()); // perhaps the handshake's buffer: read into our own
          buf = loop.pool().acquire(Math.max(config().readBufferSize(), minReadBuffer()));
        }
      }
      boolean reread = false; // whether this read is the one after answering
      int reads = Tuning.MAX_READS_PER_EVENT;
      for (int i = 0; i < reads && !closeRequested && !readPaused() && !keep; i++) {
        buf.clear();
        int n = read(buf);
        if (n < 0) {
          end = true;
          break;
        }
        if (n == 0) {
          if (reread) {
            rereadBackoff = (byte) Math.min(Tuning.REREAD_BACKOFF_MAX,
                rereadBackoff == 0 ? Tuning.REREAD_BACKOFF : rereadBackoff * 2 + 1);
            rereadSkips = rereadBackoff;
          }
          break;
        }
        if (reread) {
          rereadBackoff = 0;
          reread = false;
        }
        buf.flip();
        // Answers leave before the burst's end once they are worth a write, so that the peer
        // works on them while this side handles the rest, where the two would take turns. After
        // a full read (more bytes wait) they leave once they come to half a read: the echo of a
        // large message goes before the next one is read. A short read, a burst's last, writes in
        // the middle of its events (see writeEarlyAt).
        boolean full = n >= buf.capacity() - minReadBuffer();
        writeEarlyAt = full ? 0 : Math.max(Tuning.EARLY_WRITE_MIN, n / 2);
        try {
          keep = !receive(buf);
        } finally {
          writeEarlyAt = 0;
        }
        if (keep) {
          break; // reading waits (memory, or a drain): the rest of buf with it
        }
        if (full && flushAgain && queuedBytes() >= buf.capacity() / 2) {
          flushAgain = false;
          writeOut(); // a full socket keeps the rest queued: the selector says when it drains
        }
        if (!full && !hasBufferedInput()) {
          // A short read drained the socket. With nothing to answer, go back to the selector;
          // else write the answers now and read once more: a pipelining peer's next bytes have
          // often arrived meanwhile, and a read costs less than a turn of the selector. When that
          // read lately found nothing, the peer waits for answers: skip it for a while.
          if (!flushAgain) {
            break;
          }
          flushAgain = false;
          writeOut();
          if (writeInterest) {
            break; // the socket is full: the selector says when it drains
          }
          if (rereadSkips > 0) {
            rereadSkips--;
            break;
          }
          reread = true;
        }
      }
    } catch (IOException | RuntimeException e) {
      error = e;
    } finally {
      busy = false;
      if (keep && !closed && !closeRequested) {
        held = buf;
      } else {
        loop.pool().release(buf.clear());
      }
    }
    if (error != null) {
      failed(error);
    } else if (end) {
      if (closeAnswerPending()) {
        finishAfterPeerEnded();
        return;
      }
      receiveEnd();
    } else if (closeRequested) {
      closeNow();
    } else {
      if (flushAgain || hasPendingOutput()) {
        flush(); // replies the read queued, or TLS records the engine wrapped while reading
      }
      if (!closed && !readPaused() && (hasBufferedInput() || held != null)) {
        // More to feed without a read (the session gave way after a slice of inflation, or TLS
        // holds decrypted bytes): the next turn, once the other ready channels were served.
        loop.executeNextTurn(this::onReadable);
      }
    }
  }

  /**
   * Test hook: how many readiness events the last fruitless read after answering made skip that
   * read (0 after one that found bytes), as the loop sees it.
   */
  CompletableFuture<Integer> currentRereadBackoff() {
    CompletableFuture<Integer> backoff = new CompletableFuture<>();
    loop.execute(() -> backoff.complete((int) rereadBackoff));
    return backoff;
  }

  /** Whether the closing handshake is done but our close frame still waits in a full socket. */
  private boolean closeAnswerPending() {
    ReentrantLock lock = lock();
    lock.lock();
    try {
      return sessionClosed() && (hasOutbound() || hasPendingOutput());
    } finally {
      lock.unlock();
    }
  }

  /**
   * The peer ended its stream (it may only have shut its output down, as Jetty does right after
   * its close frame) while our answer waits behind bytes the socket has not taken. A half-closed
   * peer still reads, so the socket stays open until the queue is written and closes then; the
   * close timeout bounds the wait. Closing at once would cut our close frame: the peer would see
   * an abnormal end (1006).
   */
  private void finishAfterPeerEnded() {
    peerEnded = true;
    pausedBy |= PAUSE_END; // nothing more to read: stop the selector reporting the end again
    updateInterest();
    timers().armClose(config().closeTimeout());
    flush();
  }

  /**
   * Sets or clears a reason not to read: while any holds the socket is not read, so the peer meets
   * TCP backpressure; idle and keepalive checks wait. Safe from any thread.
   */
  @Override
  protected void setPaused(int reason, boolean paused) {
    if (loop.inEventLoop()) {
      applyPaused(reason, paused);
      return;
    }
    try {
      loop.execute(() -> applyPaused(reason, paused));
    } catch (RejectedExecutionException e) {
      // the loop stopped
    }
  }

  private void applyPaused(int reason, boolean paused) {
    int was = pausedBy;
    int now = paused ? was | reason : was & ~reason;
    if (reason == PAUSE_MEMORY && paused) {
      timers().armStall(); // even when already paused: the stall is new
    }
    if (closed || was == now) {
      return;
    }
    pausedBy = now;
    if ((was == 0) != (now == 0)) {
      updateInterest();
    }
    if (was == 0 && now != 0) {
      timers().armPausedProbe(); // not read, the socket would not tell of a reset
    }
    if (now == 0 && (held != null || hasBufferedInput())) {
      loop.execute(this::onReadable);
    }
  }

  @Override
  protected void armProgressTimer(long deadlineNanos) {
    timers().armProgress(deadlineNanos);
  }

  // ---------------------------------------------------------------------------------------------
  // Writing

  @Override
  public java.util.concurrent.Executor fanOutExecutor() {
    return loop;
  }

  @Override
  protected void requestFlush() {
    if (loop.inEventLoop()) {
      flush();
    } else if (!writeThrough() && FLUSH_SCHEDULED.compareAndSet(this, false, true)) {
      try {
        loop.execute(this);
      } catch (RejectedExecutionException e) {
        flushScheduled = false; // the loop stopped; it aborts its connections itself
      }
    }
  }

  /**
   * A send from another thread writes the queue itself when the socket takes all of it, so the
   * loop is neither woken nor handed a task, and the send completes before it returns. Under the
   * lock, like the loop's writes, so bytes never interleave. Whatever is left (a full socket, a
   * closing session, TLS, an error) goes to the loop as before, and so does a queue of more than
   * {@link Tuning#WRITE_THROUGH_MAX_BYTES}.
   *
   * @return true when nothing is left for the loop to write
   */
  private boolean writeThrough() {
    if (tls != null) {
      return false; // the engine's state belongs to the loop
    }
    ByteBuffer[] gather = new ByteBuffer[Tuning.WRITE_THROUGH_BUFFERS];
    long wrote = 0;
    boolean rest;
    ReentrantLock lock = lock();
    lock.lock();
    try {
      if (!isOpen() || outboundBytes() > Tuning.WRITE_THROUGH_MAX_BYTES) {
        return false; // closing (the loop writes the close frame and closes), or a large write
      }
      int n = gatherOutbound(gather);
      if (n > 0) {
        wrote = write(gather, n);
        if (wrote > 0) {
          written(wrote);
        }
      }
      rest = hasOutbound();
    } catch (IOException e) {
      return false; // the loop meets the same error and fails the connection
    } finally {
      lock.unlock();
    }
    if (wrote > 0 && completeWrittenElsewhere()) {
      executeOnLoop(this::completeWritten); // onWritable is reported on the loop thread
    }
    return !rest;
  }

  private void executeOnLoop(Runnable task) {
    try {
      loop.execute(task);
    } catch (RejectedExecutionException e) {
      // the loop stopped; it aborts its connections itself
    }
  }

  /**
   * The flush task a send from another thread queues on the loop, at most one at a time: the
   * connection is its own task, so it needs no task object of its own. Loop thread only.
   */
  @Override
  public void run() {
    flushScheduled = false;
    flush();
  }

  private void flush() {
    if (closed) {
      return;
    }
    if (busy) {
      flushAgain = true;
      if (writeEarlyAt > 0 && !writeInterest && queuedBytes() >= writeEarlyAt) {
        writeEarly();
      }
      return;
    }
    busy = true;
    IOException error = null;
    try {
      do {
        flushAgain = false;
        writeOut();
      } while (flushAgain && !closeRequested);
    } catch (IOException e) {
      error = e;
    } finally {
      busy = false;
    }
    if (error != null) {
      failed(error);
    } else if (closeRequested) {
      closeNow();
    }
  }

  /**
   * Writes the answers a handler queued in the middle of a read's events (see {@link
   * #writeEarlyAt}). A send from a callback this write runs waits for the usual flush.
   */
  private void writeEarly() {
    int at = writeEarlyAt;
    writeEarlyAt = 0;
    try {
      writeOut();
    } catch (IOException e) {
      // the flush after the read meets the error again and fails the connection
    } finally {
      flushAgain = true; // so the read's end still flushes (mostly nothing) and reads once more
      writeEarlyAt = at;
    }
  }

  /**
   * An I/O error or a handler's exception: reported and the socket closed, unless the session had
   * already closed (a reset while waiting for the peer's FIN), when the socket simply closes.
   */
  private void failed(Exception error) {
    if (sessionClosed()) {
      closeNow();
    } else {
      fail(error);
    }
  }

  /** Writes until the queue is empty or the socket is full. */
  private void writeOut() throws IOException {
    if (hasPendingOutput() && !tls.flush()) {
      wantWrite(true);
      return;
    }
    ByteBuffer[] gather = loop.gatherArray();
    while (true) {
      long wrote = 0;
      boolean more;
      boolean full = false;
      int n = 0;
      ReentrantLock lock = lock();
      lock.lock();
      try {
        n = gatherOutbound(gather);
        if (n > 0) {
          long total = 0;
          for (int i = 0; i < n; i++) {
            total += gather[i].remaining();
          }
          wrote = write(gather, n);
          if (wrote > 0) {
            written(wrote);
          }
          full = wrote < total || hasPendingOutput();
        }
        more = hasOutbound();
      } finally {
        lock.unlock();
        Arrays.fill(gather, 0, n, null);
      }
      if (wrote > 0) {
        completeWritten(); // may run callbacks that send: they set flushAgain
      }
      if (!more) {
        break;
      }
      if (full) {
        wantWrite(true);
        return;
      }
    }
    if (hasPendingOutput()) {
      wantWrite(true);
      return;
    }
    wantWrite(false);
    if (!sessionFinished && sessionClosed()) {
      sessionFinished = true;
      if (role() == Role.SERVER || peerEnded) {
        closeRequested = true; // the server closes TCP first (RFC 6455 §7.1.1)
      } else {
        timers().armClose(config().closeTimeout()); // the client waits for the server's FIN
        closeWritten(); // our close frame is in the socket: the application may hear of it now
      }
    }
  }

  private void wantWrite(boolean on) {
    if (on != writeInterest) {
      writeInterest = on;
      updateInterest();
    }
  }

  private void updateInterest() {
    if (key.isValid()) {
      key.interestOps(
          (readPaused() ? 0 : SelectionKey.OP_READ) | (writeInterest ? SelectionKey.OP_WRITE : 0));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Closing

  @Override
  protected void closeSocket() {
    if (loop.inEventLoop()) {
      if (busy) {
        closeRequested = true;
      } else {
        closeNow();
      }
      return;
    }
    try {
      loop.execute(this::closeSocket);
    } catch (RejectedExecutionException e) {
      // the loop stopped: it aborted its channels on the way out
    }
  }

  @Override
  protected void lingerZero() throws IOException {
    channel().setOption(java.net.StandardSocketOptions.SO_LINGER, 0);
  }

  @Override
  protected void scheduleCloseTimeout(Duration timeout) {
    if (loop.inEventLoop()) {
      timers().armClose(timeout);
      return;
    }
    try {
      loop.execute(() -> timers().armClose(timeout));
    } catch (RejectedExecutionException e) {
      // the loop stopped
    }
  }

  /** The timers, made at the first one armed; loop thread only. */
  private ConnectionTimers timers() {
    if (timers == null) {
      timers = new ConnectionTimers(this, loop);
    }
    return timers;
  }

  private void closeNow() {
    if (closed) {
      return;
    }
    closed = true;
    closeRequested = false;
    if (timers != null) {
      timers.cancel();
    }
    key.cancel();
    closeStream();
    if (held != null) {
      loop.pool().release(held.clear());
      held = null;
    }
    try {
      socketClosed();
    } finally {
      onSocketClosed.accept(this);
    }
  }

  /**
   * Returns whether this connection reports its socket's close to {@code callback}: how a server
   * tells its own connections from others on a shared loop.
   *
   * @param callback a server's close callback
   * @return true when it is this connection's
   */
  boolean reportsCloseTo(Consumer<NioConnection> callback) {
    return onSocketClosed == callback;
  }

  /**
   * Returns the negotiated TLS protocol.
   *
   * @return for example {@code TLSv1.3}; null for plain TCP
   */
  String tlsProtocol() {
    return tls == null ? null : tls.protocol();
  }

  // ---------------------------------------------------------------------------------------------
  // What the timers see and do (ConnectionTimers.Host)

  @Override
  public ConnectionConfig timerConfig() {
    return config();
  }

  @Override
  protected void received(long nanos) {
    ConnectionTimers t = timers;
    if (t != null) {
      t.lastReceivedNanos = nanos;
    }
  }

  @Override
  public long lastReceivedNanos() {
    return timers.lastReceivedNanos; // asked by the timers only
  }

  @Override
  public boolean readingPaused() {
    return readPaused();
  }

  @Override
  public boolean waitingForMemory() {
    return (pausedBy & PAUSE_MEMORY) != 0;
  }

  @Override
  public boolean socketGone() {
    return closed;
  }

  @Override
  public void idleTimedOut(String reason) {
    closeForTimeout(CloseCode.GOING_AWAY, reason);
  }

  @Override
  public boolean pingQuietPeer() {
    try {
      sendPing(EMPTY.duplicate());
      return true;
    } catch (IllegalStateException e) {
      return false; // closing
    }
  }

  @Override
  public void closeTimedOut() {
    closeSocket();
  }

  @Override
  public boolean probePausedPeer() {
    if (closed || pausedBy == 0 || (pausedBy & PAUSE_END) != 0) {
      return false; // reading again, or the peer's end was read already
    }
    if (writeInterest) {
      return true; // a full socket: the selector reports a reset as writable, and the write fails
    }
    return pingQuietPeer(); // a write into a reset socket fails, and fails the connection
  }

  @Override
  public void memoryStalled() {
    config().memory().evictIfStuck();
  }

  @Override
  public long progressCheck() {
    return progressDue(readPaused());
  }

  /**
   * RFC 6455 §7.1.7, Fail the WebSocket Connection: sends a 1011 close if the socket takes it now,
   * then closes TCP without waiting for an answer a dead peer cannot give; the application sees
   * 1006.
   */
  @Override
  public void peerDead() {
    if (isOpen()) {
      try {
        close(CloseCode.INTERNAL_ERROR, "no pong"); // flushed at once: this is the loop thread
      } catch (IllegalStateException closing) {
        // closed meanwhile
      }
    }
    if (!closed) {
      fail(config().deadPeer());
    }
  }

  @Override
  public boolean onIoThread() {
    return loop.inEventLoop();
  }
}
