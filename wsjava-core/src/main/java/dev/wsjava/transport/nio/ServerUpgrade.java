package dev.wsjava.transport.nio;

import dev.wsjava.extension.Extension;
import dev.wsjava.handshake.HttpStatus;
import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.protocol.Role;
import dev.wsjava.session.MemoryBudget;
import dev.wsjava.transport.Acceptor;
import dev.wsjava.transport.HandshakeInfo;
import dev.wsjava.transport.Upgrades;
import dev.wsjava.transport.Verdict;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.List;

/**
 * One accepted socket before it is a WebSocket: the TLS handshake if configured, then whatever the
 * server's {@link UpgradeFront} reads and answers, on the front's clock. When the front reports an
 * accepted upgrade, the server's factory picks the handler; once the front's answers (the 101) are
 * written, the socket, its key, its TLS state and the bytes that followed the request head go to a
 * new {@link NioConnection}. A refusal, a timeout or a hang-up closes the socket.
 *
 * <p>The object is the loop's task twice over, so that an upgrade makes no task objects: the
 * acceptor hands it to its loop to {@link #start}, and then it is the timer at the front's
 * deadline (see {@link #run}).
 *
 * <p>Loop thread only.
 */
final class ServerUpgrade implements Selectable, Runnable {
  /** Reads per readiness event at most. */
  private static final int MAX_READS = 8;

  private final NioServer server;
  private final EventLoop loop;
  private final SocketChannel channel;
  private UpgradeFront front; // dropped at the hand-over, with the rest of the handshake's state
  private SelectionKey key;
  private Io io;
  private Timer timer;
  private long armedDeadline = Long.MAX_VALUE;
  private Timer closeCap;
  private UpgradeFront.Upgrade waiting;
  private Upgrades.Answer waitingAnswer;
  /** An upgrade whose verdict comes later, and the timer that answers 503 if it does not. */
  private UpgradeFront.Upgrade deciding;
  private Timer decisionCap;
  /** While a request body waits for the memory budget: asks it to evict the stuck. */
  private Timer stallTimer;

  /** While a required PROXY protocol header is read: its bytes so far (else null). */
  private ByteBuffer proxyIn;
  /** The client's address from the PROXY header, or null for the socket's own. */
  private java.net.InetSocketAddress proxied;

  /** Request bytes the front left unread until its answers drain; reading stops meanwhile. */
  private ByteBuffer held;

  private boolean inputEnded;
  private boolean lingering;
  private boolean answered;
  private boolean done;

  ServerUpgrade(NioServer server, EventLoop loop, SocketChannel channel, UpgradeFront front) {
    this.server = server;
    this.loop = loop;
    this.channel = channel;
    this.front = front;
  }

  /** Whether this upgrade belongs to that server (a loop group may be shared). */
  boolean isFor(NioServer s) {
    return server == s;
  }

  /** Starts the upgrade, the first time; after that, the front's deadline has passed. */
  @Override
  public void run() {
    if (done) {
      return;
    }
    if (key == null) {
      start();
    } else {
      timedOut();
    }
  }

  /** Registers the socket and starts the front's clock; closes at once in a shutdown. */
  private void start() {
    if (server.isShuttingDown()) {
      close();
      return;
    }
    try {
      key = loop.register(channel, SelectionKey.OP_READ, this);
      if (server.proxyProtocol()) {
        proxyIn = ByteBuffer.allocate(PROXY_FIRST_READ); // io is made once the header is read
      } else {
        io = newIo();
      }
      rearm();
    } catch (IOException | RuntimeException e) {
      close();
    }
  }

  /** Bytes read for a PROXY header at first: a v1 line, or a v2 header with a few TLVs. */
  private static final int PROXY_FIRST_READ = 256;

  private Io newIo() throws IOException {
    javax.net.ssl.SSLContext tls = server.tls(); // read once: a reload may replace it meanwhile
    return tls == null
        ? new PlainIo(channel)
        : TlsIo.server(channel, tls, loop.pool(), readSize(), server.clientAuth());
  }

  /**
   * Reads the PROXY header that must come first, before TLS and HTTP; the bytes after it go to the
   * TLS stream or the front. Returns false while it is incomplete (or the connection closed).
   */
  private boolean readProxyHeader() throws IOException {
    int n = channel.read(proxyIn);
    ByteBuffer in = proxyIn.duplicate().flip();
    dev.wsjava.internal.proxyprotocol.ProxyHeader header;
    try {
      header = dev.wsjava.internal.proxyprotocol.ProxyHeader.parse(in);
    } catch (dev.wsjava.internal.proxyprotocol.ProxyHeaderException e) {
      server.refusedProxyHeader(remoteAddress(), e.getMessage());
      close();
      return false;
    }
    if (header == null) {
      if (n < 0) {
        close(); // hung up before its header was whole: nothing to refuse
      } else if (!proxyIn.hasRemaining()
          && proxyIn.capacity() < dev.wsjava.internal.proxyprotocol.ProxyHeader.V2_MAX) {
        // A v2 header with TLVs past the first read (parse bounds it at V2_MAX): make room.
        proxyIn = ByteBuffer.allocate(dev.wsjava.internal.proxyprotocol.ProxyHeader.V2_MAX)
            .put(proxyIn.flip());
        return readProxyHeader();
      }
      return false;
    }
    proxied = header.source();
    proxyIn = null;
    io = newIo();
    if (in.hasRemaining()) {
      if (io instanceof TlsIo t) {
        t.preload(in);
      } else {
        held = in; // fed to the front next, as bytes it left are
      }
    }
    return true; // a hang-up right after the header is read again, and handled, by proceed
  }

  private int readSize() {
    return server.connectionConfig().readBufferSize();
  }

  @Override
  public void ready(int readyOps) {
    try {
      proceed();
    } catch (IOException | RuntimeException e) {
      close();
    }
  }

  @Override
  public void forceClose() {
    close();
  }

  private void proceed() throws IOException {
    if (lingering) {
      discardUntilEnd();
      return;
    }
    if (proxyIn != null && (done || !readProxyHeader())) {
      return;
    }
    if (done || deciding != null || !writeFront()) {
      return; // while the application decides, nothing is read and its 101 is not written
    }
    if (waiting != null) {
      hand(waiting, waitingAnswer);
      return;
    }
    if (front.shouldClose()) {
      finish();
      return;
    }
    if (held != null) {
      ByteBuffer h = held;
      held = null;
      if (feed(h)) {
        return;
      }
    }
    if (inputEnded) {
      close();
      return;
    }
    for (int i = 0; i < MAX_READS && !done; i++) {
      ByteBuffer buf = loop.pool().acquire(Math.max(readSize(), io.minReadBuffer()));
      try {
        int n = io.read(buf);
        if (n < 0) {
          inputEnded = true;
          front.receiveEnd();
          if (writeFront()) {
            close();
          } else {
            capClose();
          }
          return;
        }
        if (n == 0) {
          break;
        }
        if (feed(buf.flip())) {
          return;
        }
      } finally {
        loop.pool().release(buf);
      }
    }
    if (!done) {
      rearm();
      interest(io.hasPendingOutput()); // handshake records the socket could not take yet
      if (io.hasBufferedInput()) {
        loop.execute(() -> ready(SelectionKey.OP_READ));
      }
    }
  }

  /**
   * Feeds bytes to the front and writes its answers. Returns true when this event is over: an
   * upgrade, a close, or answers waiting for the socket (unread bytes are then held).
   */
  private boolean feed(ByteBuffer in) throws IOException {
    for (int round = 0; ; round++) {
      UpgradeFront.Upgrade upgrade = front.receive(in, System.nanoTime());
      if (upgrade != null) {
        upgraded(upgrade);
        return true;
      }
      boolean left = in.hasRemaining();
      long wanted = front.stalledFor();
      if (wanted > 0) {
        // A request body waits for memory: keep the rest, stop reading (TCP slows the client).
        held = ByteBuffer.allocate(in.remaining()).put(in).flip();
        interest(false);
        rearm();
        awaitMemory(wanted);
        return true;
      }
      if (front.memory() != null) {
        front.memory().progressed();
      }
      if (!writeFront()) {
        if (left) {
          held = ByteBuffer.allocate(in.remaining()).put(in).flip();
          interest(true);
        }
        rearm();
        return true;
      }
      if (front.shouldClose()) {
        finish();
        return true;
      }
      if (!left) {
        return false;
      }
      if (round == 1000) {
        throw new IllegalStateException("the front neither reads nor answers");
      }
    }
  }

  /**
   * Closes once the answers are written. After an answer, plain TCP lingers: it sends FIN and reads
   * (discarding) to the client's FIN, bounded by the close timeout, so unread request bytes cannot
   * make the kernel reset the connection before the client has read the answer.
   */
  private void finish() throws IOException {
    if (!(io instanceof PlainIo) || inputEnded || !answered) {
      close();
      return;
    }
    lingering = true;
    channel.shutdownOutput();
    capClose();
    key.interestOps(SelectionKey.OP_READ);
    discardUntilEnd();
  }

  private void discardUntilEnd() throws IOException {
    ByteBuffer buf = loop.pool().acquire(readSize());
    try {
      for (int i = 0; i < MAX_READS; i++) {
        int n = channel.read(buf.clear());
        if (n < 0) {
          close();
          return;
        }
        if (n == 0) {
          return;
        }
      }
    } finally {
      loop.pool().release(buf);
    }
  }

  /** Closes after the close timeout if the answers still cannot be written by then. */
  private void capClose() {
    if (closeCap == null) {
      closeCap = loop.schedule(server.connectionConfig().closeTimeout(), this::close);
    }
  }

  /** Writes the front's queue; false (with write interest) while the socket cannot take it all. */
  private boolean writeFront() throws IOException {
    if (!io.flush()) {
      interest(true);
      return false;
    }
    ByteBuffer[] gather = loop.gatherArray();
    while (front.hasOutbound()) {
      int n = front.gatherOutbound(gather, 0);
      long wrote;
      try {
        wrote = io.write(gather, 0, n);
      } finally {
        Arrays.fill(gather, 0, n, null);
      }
      front.written(wrote);
      answered |= wrote > 0;
      if (wrote == 0 || io.hasPendingOutput()) {
        break;
      }
    }
    if (front.hasOutbound() || io.hasPendingOutput()) {
      interest(true);
      return false;
    }
    return true;
  }

  private void interest(boolean write) {
    boolean read = held == null && !inputEnded;
    key.interestOps((read ? SelectionKey.OP_READ : 0) | (write ? SelectionKey.OP_WRITE : 0));
  }

  /** Keeps one timer at the front's deadline. */
  private void rearm() {
    long deadline = front.deadlineNanos();
    if (deadline == armedDeadline) {
      return;
    }
    if (timer != null) {
      timer.cancel();
      timer = null;
    }
    armedDeadline = deadline;
    if (deadline != Long.MAX_VALUE) {
      timer = loop.scheduleAt(deadline, this); // see run()
    }
  }

  private void timedOut() {
    if (lingering || deciding != null) {
      return;
    }
    if (proxyIn != null) {
      server.refusedProxyHeader(remoteAddress(), "no PROXY header within the handshake timeout");
      close();
      return;
    }
    armedDeadline = Long.MAX_VALUE;
    timer = null;
    front.onTimeout(System.nanoTime());
    try {
      if (writeFront() && front.shouldClose()) {
        finish();
        return;
      }
    } catch (IOException e) {
      close();
      return;
    }
    if (front.shouldClose()) {
      capClose(); // the answer cannot be written (the client does not read): do not wait for ever
    }
    rearm();
  }

  private void upgraded(UpgradeFront.Upgrade upgrade) throws IOException {
    Verdict verdict;
    if (server.isShuttingDown()) {
      verdict = Verdict.refuse(HttpStatus.SERVICE_UNAVAILABLE, "the server is shutting down");
    } else {
      List<Extension> extensions = upgrade.extensions();
      HandshakeInfo info =
          new HandshakeInfo(
              upgrade.accepted().request(),
              upgrade.accepted().subprotocol(),
              extensions.isEmpty() ? List.of() : extensions.stream().map(Extension::name).toList(),
              remoteAddress(),
              localAddress(),
              io.session());
      Acceptor acceptor = upgrade.acceptor() != null ? upgrade.acceptor() : server.acceptor();
      verdict = Upgrades.decide(acceptor, info);
    }
    settle(upgrade, verdict);
  }

  /**
   * Acts on the application's verdict: writes the 101 (or its replacement) and hands over, or
   * writes the refusal and closes; a later verdict is waited for with reading stopped, within the
   * handshake timeout.
   */
  private void settle(UpgradeFront.Upgrade upgrade, Verdict verdict) throws IOException {
    if (verdict instanceof Verdict.Later later) {
      deciding = kept(upgrade);
      key.interestOps(0);
      decisionCap =
          loop.schedule(server.connectionConfig().handshakeTimeout(), () -> decided(Upgrades.late()));
      later.stage().whenComplete((v, e) -> {
        Verdict settled = Upgrades.settled(v, e);
        try {
          loop.execute(() -> decided(settled));
        } catch (RuntimeException closedLoop) {
          // the loop is gone: the server closed, and with it this socket
        }
      });
      return;
    }
    Upgrades.Answer answer = Upgrades.answer(verdict, upgrade.accepted());
    if (answer.replacement() != null) {
      front.answer(upgrade, answer.replacement(), answer.refused());
    }
    if (answer.refused()) {
      if (writeFront()) {
        finish();
      }
      return;
    }
    if (writeFront()) {
      hand(upgrade, answer);
      return;
    }
    // The 101 waits for the socket: keep the early frame bytes, which live in a pooled buffer.
    waiting = kept(upgrade);
    waitingAnswer = answer;
  }

  /** The upgrade with its early bytes copied out of the pooled read buffer, to outlive the read. */
  private static UpgradeFront.Upgrade kept(UpgradeFront.Upgrade upgrade) {
    ByteBuffer r = upgrade.received();
    ByteBuffer copy = ByteBuffer.allocate(r.remaining()).put(r.duplicate()).flip();
    return new UpgradeFront.Upgrade(upgrade.accepted(), copy, upgrade.acceptor());
  }

  /** A later verdict arrived (or its time ran out), on the loop. */
  private void decided(Verdict verdict) {
    UpgradeFront.Upgrade upgrade = deciding;
    if (done || upgrade == null) {
      return; // closed meanwhile, or already decided
    }
    deciding = null;
    decisionCap.cancel();
    decisionCap = null;
    try {
      settle(upgrade, verdict);
    } catch (IOException | RuntimeException e) {
      close();
    }
  }

  private SocketAddress localAddress() {
    try {
      return channel.getLocalAddress();
    } catch (IOException e) {
      return null;
    }
  }

  private SocketAddress remoteAddress() {
    if (proxied != null) {
      return proxied;
    }
    try {
      return channel.getRemoteAddress();
    } catch (IOException e) {
      return null;
    }
  }

  /** Hands the socket over to a WebSocket connection; the front's answers are all written. */
  private void hand(UpgradeFront.Upgrade upgrade, Upgrades.Answer answer) {
    done = true;
    cancelTimers();
    ByteBuffer received = upgrade.received();
    if (!received.hasRemaining()) {
      received = null; // the usual case: the client waits for the 101 before it sends
    } else if (received.isReadOnly()) {
      // The session unmasks in place.
      received = ByteBuffer.allocate(received.remaining()).put(received).flip();
    }
    NioConnection connection =
        new NioConnection(
            loop,
            channel,
            key,
            io,
            Role.SERVER,
            Upgrades.config(answer, server.connectionConfig()),
            answer.handler(),
            answer.subprotocol(),
            Upgrades.extensions(answer, upgrade.extensions()),
            server.onConnectionClosed());
    if (proxied != null) {
      connection.proxiedFrom(proxied);
    }
    // The cancelled timers stay queued until their deadline and keep this object: let it keep
    // nothing of the handshake (the front holds the request head, its parser and its queue).
    front = null;
    timer = null;
    closeCap = null;
    waiting = null;
    waitingAnswer = null;
    held = null;
    key = null;
    io = null;
    connection.start(received, null);
    server.afterStart(connection);
  }

  /**
   * Waits for the budget to have room for {@code wanted} bytes: woken then, closed if the budget
   * evicts this connection (the largest holder once someone has waited past the stall timeout).
   */
  private void awaitMemory(long wanted) {
    MemoryBudget.Account memory = front.memory();
    memory.stall(
        wanted,
        () -> onLoop(() -> ready(SelectionKey.OP_READ)),
        () -> onLoop(this::close));
    if (stallTimer == null) {
      stallTimer = loop.schedule(memory.budget().stallTimeout(), this::stallTimedOut);
    }
  }

  private void stallTimedOut() {
    stallTimer = null;
    MemoryBudget.Account memory = front == null ? null : front.memory();
    if (!done && memory != null && memory.isStalled()) {
      memory.budget().evictIfStuck();
      stallTimer = loop.schedule(memory.budget().stallTimeout(), this::stallTimedOut);
    }
  }

  private void onLoop(Runnable task) {
    try {
      loop.execute(task);
    } catch (RuntimeException stopped) {
      // the loop stopped, and this socket with it
    }
  }

  private void cancelTimers() {
    if (timer != null) {
      timer.cancel();
    }
    if (stallTimer != null) {
      stallTimer.cancel();
      stallTimer = null;
    }
    MemoryBudget.Account memory = front == null ? null : front.memory();
    if (memory != null) {
      memory.releaseAll(); // a body being read is dropped (closed) or done (upgraded)
    }
    if (closeCap != null) {
      closeCap.cancel();
    }
    if (decisionCap != null) {
      decisionCap.cancel();
    }
  }

  /** Closes the socket before any upgrade (timeout, refusal, error, hang-up); idempotent. */
  void close() {
    if (done) {
      return;
    }
    done = true;
    cancelTimers();
    ServerHandshake.Rejected refusal = front == null ? null : front.refusal();
    if (refusal != null) {
      server.refused(remoteAddress(), refusal);
    }
    if (waiting != null) {
      waiting.extensions().forEach(Extension::close);
    }
    if (deciding != null) {
      deciding.extensions().forEach(Extension::close);
      deciding = null;
    }
    if (key != null) {
      key.cancel();
    }
    if (io != null) {
      io.close();
    } else {
      try {
        channel.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
    server.upgradeClosed();
  }
}
