package dev.wsjava.transport.nio;

import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.handshake.ServerHandshakeConfig;
import dev.wsjava.internal.http.HttpLimits;
import dev.wsjava.internal.http.Router;
import dev.wsjava.CloseCode;
import dev.wsjava.transport.Acceptor;
import dev.wsjava.transport.ConnectionConfig;
import dev.wsjava.transport.ConnectionHandler;
import dev.wsjava.transport.HandshakeInfo;
import dev.wsjava.transport.ServerBuilder;
import dev.wsjava.transport.ServerTransport;
import dev.wsjava.transport.Tuning;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;

/**
 * A WebSocket server on NIO event loops: it binds, accepts on one loop, and gives each connection
 * to the next loop of its {@link EventLoopGroup} for life. Per connection: the TLS handshake when
 * configured, the upgrade (head size and time limits; bytes the client sent after the request head
 * go to the session), then a connection whose {@link ConnectionHandler} the caller's factory
 * chooses from the {@link HandshakeInfo}. With a {@link Router} instead, plain HTTP routes are
 * served beside the WebSocket ones.
 *
 * <p>Shutdown is graceful: {@link #shutdown(Duration)} stops accepting, closes every connection
 * with 1001 (going away), waits up to the grace period for the closing handshakes, then aborts the
 * rest.
 *
 * <p>Thread-safe.
 */
public final class NioServer implements ServerTransport {
  /** How long {@link #close()} waits for connections to close before aborting them. */
  public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(5);

  private static final System.Logger LOG = dev.wsjava.events.Loggers.NIO;

  private final EventLoopGroup group;
  private final boolean ownGroup;
  private final EventLoop acceptLoop;
  private final ServerSocketChannel serverChannel;
  private final InetSocketAddress address;
  private final ConnectionConfig connectionConfig;
  private final ServerHandshakeConfig handshakeConfig;
  private volatile SSLContext tls; // replaced by reloadTls; each connection reads it once
  private final boolean proxyProtocol;
  private final ServerBuilder.ClientAuth clientAuth;
  private final Acceptor handlers;
  private final Router<Acceptor> router;
  private final HttpLimits httpLimits;
  private final ServerBuilder.Refusals refusals;
  // No set of open connections or of upgrades under way: shutdown finds them among its loops'
  // selector keys (see forEachAttachment), so a connection costs no set entry and its open and
  // close touch no shared map; `open` counts them.
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicBoolean shuttingDown = new AtomicBoolean();
  /** One callback for every connection, rather than a method reference made per connection. */
  private final Consumer<NioConnection> onConnectionClosed = this::connectionClosed;
  private SelectionKey acceptKey;

  private NioServer(Builder b) throws IOException {
    ServerBuilder.Options o = b.options();
    this.ownGroup = b.loops.ownsGroup();
    this.group = b.loops.open();
    this.connectionConfig = o.connectionConfig();
    this.handshakeConfig = o.handshakeConfig();
    this.tls = o.tls();
    this.proxyProtocol = o.proxyProtocol();
    this.clientAuth = o.clientAuth();
    this.handlers = o.handlers();
    this.router = o.router();
    this.httpLimits = o.httpLimits();
    this.refusals = o.refusals();
    this.acceptLoop = group.next();
    ServerSocketChannel ch = ServerSocketChannel.open();
    try {
      ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      connectionConfig.socket().applyToListener(ch);
      ch.bind(o.address(), o.backlog());
      ch.configureBlocking(false);
      this.address = (InetSocketAddress) ch.getLocalAddress();
      this.serverChannel = ch;
      Selectable acceptor =
          new Selectable() {
            @Override
            public void ready(int readyOps) {
              acceptSome();
            }

            @Override
            public void forceClose() {
              closeServerChannel();
            }
          };
      acceptKey =
          acceptLoop
              .call(
                  () -> {
                    try {
                      return acceptLoop.register(ch, SelectionKey.OP_ACCEPT, acceptor);
                    } catch (IOException e) {
                      throw new UncheckedIOException(e);
                    }
                  })
              .get(10, TimeUnit.SECONDS);
    } catch (IOException | RuntimeException | ExecutionException | TimeoutException e) {
      ch.close();
      if (ownGroup) {
        group.close();
      }
      throw e instanceof IOException io ? io : new IOException("cannot start the server: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      ch.close();
      if (ownGroup) {
        group.close();
      }
      throw new IOException("interrupted while starting the server", e);
    }
  }

  /**
   * Starts a builder.
   *
   * @return a builder with the defaults: wildcard address, port 0, default configs, no TLS, a new
   *     event loop group of one loop per processor
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the port the server listens on (the one picked when 0 was asked for).
   *
   * @return the bound port
   */
  @Override
  public int port() {
    return address.getPort();
  }

  /**
   * Returns the bound address.
   *
   * @return host and port
   */
  @Override
  public InetSocketAddress localAddress() {
    return address;
  }

  /**
   * Returns how many accepted TCP connections are not closed yet, those still in their handshake
   * included.
   *
   * @return the count
   */
  @Override
  public int openConnections() {
    return open.get();
  }

  /**
   * Stops accepting, closes every connection with 1001, waits up to {@code grace} for them to
   * close, then aborts the rest; stops the event loops when the server created them. Calling it
   * again only waits for the count to reach zero.
   *
   * @param grace the longest wait for closing handshakes
   * @return whether every connection closed (gracefully or aborted) in time
   * @throws IllegalStateException when called from an event loop thread
   */
  @Override
  public boolean shutdown(Duration grace) {
    if (acceptLoop.inEventLoop()) {
      throw new IllegalStateException("shut a server down from outside its event loops");
    }
    long deadline = System.nanoTime() + grace.toNanos();
    if (shuttingDown.compareAndSet(false, true)) {
      try {
        acceptLoop.execute(this::closeServerChannel);
      } catch (RejectedExecutionException e) {
        closeServerChannel();
      }
      // An upgrade its loop has not started yet closes as it starts, and a connection handed over
      // from its upgrade after this point closes itself (see afterStart).
      forEachUpgrade(ServerUpgrade::close);
      forEachConnection(c -> c.close(CloseCode.GOING_AWAY, "server shutting down"));
      awaitNoConnections(deadline);
      forEachConnection(NioConnection::abort);
      forEachUpgrade(ServerUpgrade::close);
    }
    // Aborts run on the loops: give them a moment.
    awaitNoConnections(Math.max(deadline, System.nanoTime() + TimeUnit.SECONDS.toNanos(1)));
    if (ownGroup) {
      group.shutdown(EventLoopGroup.DEFAULT_SHUTDOWN_TIMEOUT);
    }
    return open.get() == 0;
  }

  /** Shuts down with {@link #DEFAULT_SHUTDOWN_GRACE}. */
  @Override
  public void close() {
    shutdown(DEFAULT_SHUTDOWN_GRACE);
  }

  @Override
  public void stopAccepting() {
    try {
      acceptLoop.execute(this::closeServerChannel);
    } catch (RejectedExecutionException e) {
      closeServerChannel();
    }
  }

  @Override
  public void reloadTls(SSLContext context) {
    if (tls == null) {
      throw new IllegalStateException("the server was started without TLS: nothing to reload");
    }
    tls = java.util.Objects.requireNonNull(context, "context");
  }

  private void awaitNoConnections(long deadline) {
    while (open.get() > 0 && System.nanoTime() - deadline < 0) {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void closeServerChannel() {
    if (acceptKey != null) {
      acceptKey.cancel();
    }
    try {
      serverChannel.close();
    } catch (IOException e) {
      LOG.log(System.Logger.Level.DEBUG, "cannot close the server socket", e);
    }
  }

  private void acceptSome() {
    for (int i = 0; i < Tuning.MAX_ACCEPTS; i++) {
      SocketChannel ch;
      try {
        ch = serverChannel.accept();
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "accept failed", e);
        return;
      }
      if (ch == null) {
        return;
      }
      dispatch(ch);
    }
  }

  private void dispatch(SocketChannel ch) {
    open.incrementAndGet();
    try {
      ch.configureBlocking(false);
      connectionConfig.socket().applyTo(ch);
      EventLoop loop = group.next();
      loop.execute(new ServerUpgrade(this, loop, ch, newFront(System.nanoTime())));
    } catch (IOException | RuntimeException e) {
      try {
        ch.close();
      } catch (IOException ignored) {
        // closing anyway
      }
      open.decrementAndGet();
    }
  }

  /**
   * The one place that decides what a server connection speaks before the upgrade: HTTP with routes
   * when a router was given, else the bare WebSocket handshake.
   */
  private UpgradeFront newFront(long nowNanos) {
    return router != null
        ? new HttpFront(router, httpLimits, nowNanos, connectionConfig.memory().open())
        : new HandshakeFront(handshakeConfig, connectionConfig.handshakeTimeout(), nowNanos);
  }

  // ---- called by ServerUpgrade and NioConnection on their loops ----

  ConnectionConfig connectionConfig() {
    return connectionConfig;
  }

  SSLContext tls() {
    return tls;
  }

  boolean proxyProtocol() {
    return proxyProtocol;
  }

  ServerBuilder.ClientAuth clientAuth() {
    return clientAuth;
  }

  boolean isShuttingDown() {
    return shuttingDown.get();
  }

  Acceptor acceptor() {
    return handlers;
  }

  /** Closes a connection that was handed over while a shutdown was starting; after its start. */
  void afterStart(NioConnection c) {
    if (shuttingDown.get()) {
      c.close(CloseCode.GOING_AWAY, "server shutting down");
    }
  }

  /** Reports a connection refused for its PROXY header: nothing was answered (status 0). */
  void refusedProxyHeader(java.net.SocketAddress remote, String reason) {
    refusals.refused(remote, 0, reason);
  }

  /** Reports an upgrade request the front refused (see {@link ServerBuilder#refusals}). */
  void refused(java.net.SocketAddress remote, ServerHandshake.Rejected refusal) {
    refusals.refused(remote, refusal.status(), refusal.reason());
  }

  /** Counts out an upgrade that closed before its hand-over (which happens at most once). */
  void upgradeClosed() {
    open.decrementAndGet();
  }

  /** What a connection runs once its socket closed: {@link #connectionClosed}. */
  Consumer<NioConnection> onConnectionClosed() {
    return onConnectionClosed;
  }

  /** Counts a connection out; its socket closed, which happens once per connection. */
  void connectionClosed(NioConnection c) {
    open.decrementAndGet();
  }

  /**
   * Runs {@code action} on each of this server's WebSocket connections, on the connection's loop:
   * the loops' channels are walked (a shared group may carry other servers' and clients'
   * connections too: those report their close elsewhere, and are left alone).
   */
  private void forEachConnection(Consumer<NioConnection> action) {
    forEachAttachment(a -> {
      if (a instanceof NioConnection c && c.reportsCloseTo(onConnectionClosed)) {
        action.accept(c);
      }
    });
  }

  private void forEachUpgrade(Consumer<ServerUpgrade> action) {
    forEachAttachment(a -> {
      if (a instanceof ServerUpgrade u && u.isFor(this)) {
        action.accept(u);
      }
    });
  }

  /** Runs the action on each loop, for each of its channels' attachments; a group may be shared. */
  private void forEachAttachment(Consumer<Object> action) {
    for (int i = 0; i < group.size(); i++) {
      EventLoop loop = group.loop(i);
      try {
        loop.execute(() -> loop.attachments().forEach(action));
      } catch (RejectedExecutionException e) {
        // that loop stopped: it aborted its channels on the way out
      }
    }
  }

  /**
   * Configures and starts a {@link NioServer}. Not thread-safe; each setter returns the builder.
   */
  public static final class Builder extends ServerBuilder<Builder> {
    private final LoopOptions loops = new LoopOptions();

    private Builder() {}

    @Override
    protected Builder self() {
      return this;
    }

    /**
     * Runs on a shared group instead of a new one; the server then leaves it running on shutdown.
     *
     * @param value the group
     * @return this builder
     */
    public Builder group(EventLoopGroup value) {
      loops.group(value);
      return this;
    }

    /**
     * Sets how many event loops the server's own group has (when no group is given).
     *
     * @param count at least 1
     * @return this builder
     */
    public Builder eventLoops(int count) {
      loops.eventLoops(count);
      return this;
    }

    /**
     * Sets how long the loops of the server's own group (when no group is given) poll after
     * handling I/O before they block; see {@link EventLoopGroup#DEFAULT_SPIN}.
     *
     * @param value zero (block at once) to one second
     * @return this builder
     */
    public Builder eventLoopSpin(Duration value) {
      loops.spin(value);
      return this;
    }

    /**
     * Binds and starts accepting.
     *
     * @return the running server
     * @throws IOException when the address cannot be bound
     * @throws IllegalStateException unless exactly one of handlers and router was set
     */
    public NioServer start() throws IOException {
      return new NioServer(this);
    }
  }
}
