package dev.wsjava.transport.blocking;

import dev.wsjava.extension.Extension;
import dev.wsjava.handshake.HttpStatus;
import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.handshake.ServerHandshakeConfig;
import dev.wsjava.protocol.CloseCode;
import dev.wsjava.protocol.Role;
import dev.wsjava.transport.ConnectionConfig;
import dev.wsjava.transport.ConnectionHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import javax.net.ssl.SSLContext;

/**
 * A WebSocket server on blocking sockets and virtual threads. A virtual thread accepts; each
 * connection gets its own virtual thread, which runs the TLS handshake (when configured), reads
 * the upgrade request within the handshake timeout, asks the handler factory for the
 * connection's handler, answers 101, and then becomes the connection's read loop.
 *
 * <pre>{@code
 * BlockingServer server = BlockingServer.builder()
 *     .port(8080)
 *     .handlers(info -> new ChatHandler(info.path()))
 *     .start();
 * ...
 * server.shutdown(Duration.ofSeconds(5));
 * }</pre>
 *
 * <p>Shutdown is graceful: stop accepting, close every connection with 1001, wait a bounded time
 * for the closing handshakes, then abort what is left.
 */
public final class BlockingServer implements AutoCloseable {
  /** How long {@link #close()} waits for connections to close before aborting them. */
  public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(5);

  /** Bytes read at once while the request head arrives; a browser's upgrade fits. */
  private static final int HANDSHAKE_READ = 2048;

  private final ServerSocket listener;
  private final ServerHandshakeConfig handshakeConfig;
  private final ConnectionConfig connectionConfig;
  private final SSLContext tls;
  private final Function<HandshakeInfo, ConnectionHandler> handlers;
  private final Thread acceptor;
  private final Thread.Builder connectionThreads = Thread.ofVirtual().name("wsjava-conn-", 1);
  private final Set<Socket> handshaking = ConcurrentHashMap.newKeySet();
  private final Set<BlockingConnection> connections = ConcurrentHashMap.newKeySet();
  private volatile boolean stopping;

  private BlockingServer(Builder b) throws IOException {
    this.handshakeConfig = b.handshake;
    this.connectionConfig = b.connection;
    this.tls = b.tls;
    this.handlers = Objects.requireNonNull(b.handlers, "handlers must be set");
    this.listener = new ServerSocket();
    listener.setReuseAddress(true);
    listener.bind(
        b.host == null ? new InetSocketAddress(b.port) : new InetSocketAddress(b.host, b.port),
        b.backlog);
    this.acceptor = Thread.ofVirtual().name("wsjava-accept-" + port()).start(this::acceptLoop);
  }

  /**
   * Returns a builder with the defaults: all interfaces, a free port, default handshake and
   * connection configuration, no TLS.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the port the server listens on (the one picked when port 0 was asked for).
   *
   * @return the bound port
   */
  public int port() {
    return listener.getLocalPort();
  }

  /**
   * Returns the address the server listens on.
   *
   * @return the bound address
   */
  public InetSocketAddress address() {
    return (InetSocketAddress) listener.getLocalSocketAddress();
  }

  /**
   * Returns how many TCP connections the server holds open: in the handshake or open as
   * WebSocket.
   *
   * @return the count
   */
  public int openConnections() {
    return handshaking.size() + connections.size();
  }

  /**
   * Shuts down gracefully: stops accepting, drops connections still in their handshake, closes
   * every open connection with 1001, waits up to {@code grace} for them to close, then aborts the
   * rest. Calling it again waits again.
   *
   * @param grace how long to wait for closing handshakes
   * @return true when every connection closed within {@code grace}
   * @throws InterruptedException when interrupted while waiting; connections are aborted first
   */
  public boolean shutdown(Duration grace) throws InterruptedException {
    stopping = true;
    closeQuietly(listener);
    acceptor.join(grace);
    handshaking.removeIf(
        s -> {
          closeQuietly(s);
          return true;
        });
    List<BlockingConnection> open = List.copyOf(connections);
    CompletableFuture<?>[] closed = new CompletableFuture<?>[open.size()];
    for (int i = 0; i < closed.length; i++) {
      closed[i] = open.get(i).close(CloseCode.GOING_AWAY, "server shutting down");
    }
    boolean clean = false;
    try {
      CompletableFuture.allOf(closed).get(grace.toNanos(), TimeUnit.NANOSECONDS);
      clean = true;
    } catch (TimeoutException | ExecutionException e) {
      // abort below
    } finally {
      connections.forEach(BlockingConnection::abort);
    }
    return clean && connections.isEmpty();
  }

  /** Shuts down with {@link #DEFAULT_SHUTDOWN_GRACE}. */
  @Override
  public void close() {
    try {
      shutdown(DEFAULT_SHUTDOWN_GRACE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void acceptLoop() {
    while (!stopping) {
      Socket raw;
      try {
        raw = listener.accept();
      } catch (IOException e) {
        if (stopping || listener.isClosed()) {
          return;
        }
        pause(); // out of file descriptors, or a connection reset while queued: do not spin
        continue;
      }
      handshaking.add(raw);
      if (stopping) {
        closeQuietly(raw);
      }
      connectionThreads.start(() -> serve(raw));
    }
  }

  private static void pause() {
    try {
      Thread.sleep(10);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // One connection, on its own virtual thread

  private void serve(Socket raw) {
    long start = System.nanoTime();
    Alarm alarm = null;
    boolean upgraded = false;
    try {
      raw.setTcpNoDelay(true);
      Socket socket = raw;
      if (tls != null) {
        // The JDK's handshake reads many times; only an alarm bounds its total time.
        alarm = Alarm.after(connectionConfig.handshakeTimeout(), () -> closeQuietly(raw));
        socket = Tls.server(tls, raw, millisLeft(start + handshakeNanos()));
      }
      ServerFront front = new HandshakeFront(handshakeConfig, start + handshakeNanos());
      InputStream in = socket.getInputStream();
      OutputStream out = socket.getOutputStream();
      byte[] buffer = new byte[HANDSHAKE_READ];
      while (true) {
        ServerFront.Step step;
        try {
          int left = millisLeft(front.deadlineNanos());
          if (left <= 0) {
            throw new SocketTimeoutException();
          }
          socket.setSoTimeout(left);
          int n = in.read(buffer);
          if (n < 0) {
            return; // the client left
          }
          step = front.receive(ByteBuffer.wrap(buffer, 0, n), System.nanoTime());
        } catch (SocketTimeoutException e) {
          step = front.timeout(System.nanoTime());
        }
        switch (step) {
          case null -> {}
          case ServerFront.Respond r -> {
            write(out, r.response());
            if (r.close()) {
              return;
            }
          }
          case ServerFront.Upgrade u -> {
            if (alarm != null) {
              alarm.cancel();
            }
            upgraded = true;
            upgrade(raw, socket, out, u);
            return;
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // The client left, broke TLS, or was cut off at the handshake deadline: nothing to report.
    } finally {
      if (alarm != null) {
        alarm.cancel();
      }
      if (!upgraded) {
        closeQuietly(raw);
      }
      handshaking.remove(raw);
    }
  }

  private long handshakeNanos() {
    return connectionConfig.handshakeTimeout().toNanos();
  }

  /** Writes the 101 and runs the connection's read loop on this thread. */
  private void upgrade(Socket raw, Socket socket, OutputStream out, ServerFront.Upgrade upgrade)
      throws IOException {
    ServerHandshake.Accepted accepted = upgrade.accepted();
    List<Extension> extensions = accepted.extensions();
    HandshakeInfo info =
        new HandshakeInfo(
            accepted.request(),
            accepted.subprotocol(),
            extensions.stream().map(Extension::name).toList(),
            raw.getRemoteSocketAddress());
    BlockingConnection connection = null;
    try {
      ConnectionHandler handler;
      try {
        handler = handlers.apply(info);
      } catch (RuntimeException e) {
        write(out, ServerHandshake.reject(HttpStatus.INTERNAL_SERVER_ERROR, e.toString()).response());
        return;
      }
      if (handler == null) {
        write(out, ServerHandshake.reject(HttpStatus.NOT_FOUND, "no handler").response());
        return;
      }
      write(out, upgrade.response());
      connection =
          new BlockingConnection(
              raw,
              socket,
              Role.SERVER,
              handler,
              connectionConfig,
              accepted.subprotocol(),
              extensions,
              connections::remove);
    } finally {
      if (connection == null) {
        extensions.forEach(Extension::close);
        closeQuietly(raw);
      }
    }
    BlockingConnection c = connection;
    if (!c.reportOpen()) {
      return;
    }
    // Counted as open only once onOpen ran, so that shutdown never closes it unreported.
    connections.add(c);
    handshaking.remove(raw);
    if (c.socketClosing()) {
      connections.remove(c); // closed by its own onOpen, before it was counted
    }
    if (stopping) {
      c.close(CloseCode.GOING_AWAY, "server shutting down");
    }
    c.run(upgrade.received());
  }

  static void write(OutputStream out, ByteBuffer bytes) throws IOException {
    byte[] array = new byte[bytes.remaining()];
    bytes.get(array);
    out.write(array);
  }

  static int millisLeft(long deadlineNanos) {
    long left = deadlineNanos - System.nanoTime();
    return left <= 0 ? 0 : (int) Math.min(Integer.MAX_VALUE, Math.max(1, left / 1_000_000));
  }

  static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // closing is all that is left to do
    }
  }

  /** Configures and starts a {@link BlockingServer}. */
  public static final class Builder {
    private String host;
    private int port;
    private int backlog = 1024;
    private ServerHandshakeConfig handshake = ServerHandshakeConfig.defaults();
    private ConnectionConfig connection = ConnectionConfig.DEFAULTS;
    private SSLContext tls;
    private Function<HandshakeInfo, ConnectionHandler> handlers;

    private Builder() {}

    /**
     * Sets the interface to listen on.
     *
     * @param value a host name or address, or null for all interfaces (the default)
     * @return this builder
     */
    public Builder host(String value) {
      this.host = value;
      return this;
    }

    /**
     * Sets the port.
     *
     * @param value 0 (the default) to let the system pick one; see {@link #port()}
     * @return this builder
     */
    public Builder port(int value) {
      if (value < 0 || value > 65535) {
        throw new IllegalArgumentException("port must be 0 to 65535: " + value);
      }
      this.port = value;
      return this;
    }

    /**
     * Sets how many connections may wait to be accepted.
     *
     * @param value at least 1; 1024 by default, so bursts of connects are not refused
     * @return this builder
     */
    public Builder backlog(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("backlog must be positive: " + value);
      }
      this.backlog = value;
      return this;
    }

    /**
     * Sets how upgrade requests are answered: origins, subprotocols, extensions, head limits.
     *
     * @param value the handshake configuration
     * @return this builder
     */
    public Builder handshake(ServerHandshakeConfig value) {
      this.handshake = Objects.requireNonNull(value, "handshake");
      return this;
    }

    /**
     * Sets the limits and timeouts of each connection, the handshake timeout included.
     *
     * @param value the connection configuration
     * @return this builder
     */
    public Builder connection(ConnectionConfig value) {
      this.connection = Objects.requireNonNull(value, "connection");
      return this;
    }

    /**
     * Serves {@code wss}: every connection starts with a TLS handshake (TLS 1.3 or 1.2).
     *
     * @param context holds the server's key and certificate; null for plain {@code ws}
     * @return this builder
     */
    public Builder tls(SSLContext context) {
      this.tls = context;
      return this;
    }

    /**
     * Sets what handles each connection. The factory runs on the connection's thread once its
     * upgrade is accepted, before the 101 is sent; it may return null to answer 404 instead (for
     * an unknown path), and an exception is answered 500.
     *
     * @param factory given the handshake, returns the connection's handler
     * @return this builder
     */
    public Builder handlers(Function<HandshakeInfo, ConnectionHandler> factory) {
      this.handlers = Objects.requireNonNull(factory, "factory");
      return this;
    }

    /**
     * Binds and starts accepting.
     *
     * @return the running server
     * @throws IOException when the address cannot be bound
     * @throws NullPointerException when no handler factory was set
     */
    public BlockingServer start() throws IOException {
      return new BlockingServer(this);
    }
  }
}
