package dev.wsjava.transport.nio;

import dev.wsjava.extension.Extension;
import dev.wsjava.handshake.HttpStatus;
import dev.wsjava.protocol.Role;
import dev.wsjava.transport.ConnectionHandler;
import dev.wsjava.transport.HandshakeInfo;
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
  private ConnectionHandler waitingHandler;

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
      io =
          server.tls() == null
              ? new PlainIo(channel)
              : TlsIo.server(channel, server.tls(), loop.pool(), readSize());
      rearm();
    } catch (IOException | RuntimeException e) {
      close();
    }
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
    if (done || !writeFront()) {
      return;
    }
    if (waiting != null) {
      hand(waiting, waitingHandler);
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
      interest(false);
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
    if (lingering) {
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
    ConnectionHandler handler = null;
    int status = HttpStatus.NOT_FOUND;
    String refusal;
    if (server.isShuttingDown()) {
      status = HttpStatus.SERVICE_UNAVAILABLE;
      refusal = "the server is shutting down";
    } else {
      List<Extension> extensions = upgrade.extensions();
      HandshakeInfo info =
          new HandshakeInfo(
              upgrade.request(),
              upgrade.subprotocol(),
              extensions.isEmpty() ? List.of() : extensions.stream().map(Extension::name).toList(),
              remoteAddress());
      try {
        handler =
            upgrade.handlers() != null ? upgrade.handlers().apply(info) : server.handlerFor(info);
        refusal = handler == null ? "no handler for " + info.target() : null;
      } catch (RuntimeException e) {
        status = HttpStatus.INTERNAL_SERVER_ERROR;
        refusal = "the handler factory failed: " + e;
      }
    }
    if (handler == null) {
      front.refuse(upgrade, status, refusal);
      if (writeFront()) {
        finish();
      }
      return;
    }
    if (writeFront()) {
      hand(upgrade, handler);
      return;
    }
    // The 101 waits for the socket: keep the early frame bytes, which live in a pooled buffer.
    ByteBuffer r = upgrade.received();
    ByteBuffer copy = ByteBuffer.allocate(r.remaining()).put(r.duplicate()).flip();
    waiting =
        new UpgradeFront.Upgrade(
            upgrade.request(), upgrade.subprotocol(), upgrade.extensions(), copy, null);
    waitingHandler = handler;
  }

  private SocketAddress remoteAddress() {
    try {
      return channel.getRemoteAddress();
    } catch (IOException e) {
      return null;
    }
  }

  /** Hands the socket over to a WebSocket connection; the front's answers are all written. */
  private void hand(UpgradeFront.Upgrade upgrade, ConnectionHandler handler) {
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
            server.connectionConfig(),
            handler,
            upgrade.subprotocol(),
            upgrade.extensions(),
            server.onConnectionClosed());
    // The cancelled timers stay queued until their deadline and keep this object: let it keep
    // nothing of the handshake (the front holds the request head, its parser and its queue).
    front = null;
    timer = null;
    closeCap = null;
    waiting = null;
    waitingHandler = null;
    held = null;
    key = null;
    io = null;
    connection.start(received, null);
    server.afterStart(connection);
  }

  private void cancelTimers() {
    if (timer != null) {
      timer.cancel();
    }
    if (closeCap != null) {
      closeCap.cancel();
    }
  }

  /** Closes the socket before any upgrade (timeout, refusal, error, hang-up); idempotent. */
  void close() {
    if (done) {
      return;
    }
    done = true;
    cancelTimers();
    if (waiting != null) {
      waiting.extensions().forEach(Extension::close);
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
