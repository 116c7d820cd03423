package dev.wsjava.transport.nio;

import dev.wsjava.handshake.ClientHandshake;
import dev.wsjava.handshake.ClientHandshakeConfig;
import dev.wsjava.proxy.ProxySpec;
import dev.wsjava.proxy.Tunnel;
import dev.wsjava.proxy.TunnelException;
import dev.wsjava.transport.ClientTransport;
import dev.wsjava.transport.Descriptors;
import dev.wsjava.transport.Connection;
import dev.wsjava.transport.ConnectionConfig;
import dev.wsjava.transport.ConnectionHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.channels.SocketChannel;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * A WebSocket client on NIO event loops: {@link #connect} opens ws and wss connections, each owned
 * by one loop of the client's {@link EventLoopGroup}.
 *
 * <p>For wss it sends SNI for host names and checks the server's certificate and host name ("HTTPS"
 * endpoint identification) against the trust material of its {@link SSLContext} (the JDK's default
 * unless one is given). Turning the host name check off is possible, named as insecure, and meant
 * only for development.
 *
 * <p>Thread-safe: connect from any thread.
 */
public final class NioClient implements ClientTransport {
  private final EventLoopGroup group;
  private final boolean ownGroup;
  private final ConnectionConfig connectionConfig;
  private final ClientHandshakeConfig handshakeConfig;
  private final SSLContext sslContext;
  private final boolean verifyHostname;
  private final SecureRandom random = new SecureRandom();
  private final AtomicInteger open = new AtomicInteger();
  private final Set<NioConnection> connections = ConcurrentHashMap.newKeySet();
  private final Set<ClientUpgrade> upgrading = ConcurrentHashMap.newKeySet();

  private NioClient(Builder b) {
    Descriptors.exhausted(null); // loaded now, to explain a connect that finds no descriptor left
    this.ownGroup = b.loops.ownsGroup();
    this.group = b.loops.open();
    this.connectionConfig = b.connectionConfig;
    this.handshakeConfig = b.handshakeConfig;
    this.sslContext = b.sslContext;
    this.verifyHostname = b.verifyHostname;
  }

  /**
   * Starts a builder.
   *
   * @return a builder with the defaults: default configs, the JDK's default TLS context with host
   *     name checks, a new event loop group of one loop per processor
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Opens a connection: resolves the host (on the calling thread), connects, runs the TLS handshake
   * for wss and the WebSocket handshake, all within the handshake timeout. Through a proxy, the
   * proxy's host is resolved instead, and the tunnel is set up on the event loop first.
   *
   * @param uri a {@code ws://} or {@code wss://} URI; the port defaults to 80 or 443
   * @param proxy the proxy to tunnel through, or null to connect directly
   * @param handler receives the connection's events, on its loop thread
   * @return completed with the open connection (after {@code onOpen}); failed with {@link
   *     dev.wsjava.handshake.HandshakeException} when the server refused the upgrade (its status,
   *     when there was one, is in {@code status()}), {@link TunnelException} when the proxy could
   *     not be reached or refused, {@link java.net.SocketTimeoutException} on the handshake
   *     timeout, {@link UnknownHostException}, or the I/O or TLS error
   * @throws IllegalStateException after {@link #close()}
   */
  @Override
  public CompletableFuture<Connection> connect(URI uri, ProxySpec proxy, ConnectionHandler handler) {
    Objects.requireNonNull(handler, "handler");
    if (group.isClosed()) {
      throw new IllegalStateException("the client is closed");
    }
    CompletableFuture<Connection> result = new CompletableFuture<>();
    ClientHandshake handshake;
    boolean secure;
    String host;
    int port;
    InetSocketAddress address;
    Tunnel tunnel = null;
    try {
      handshake = ClientHandshake.start(uri, handshakeConfig, random);
      secure = uri.getScheme().toLowerCase(Locale.ROOT).equals("wss");
      host = uri.getHost();
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
      port = uri.getPort() >= 0 ? uri.getPort() : secure ? 443 : 80;
      if (proxy != null) {
        tunnel = proxy.open(host, port);
        address = new InetSocketAddress(proxy.host(), proxy.port());
        if (address.isUnresolved()) {
          throw TunnelException.unreachable(
              proxy, new UnknownHostException("cannot resolve " + proxy.host()));
        }
      } else {
        address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
          throw new UnknownHostException("cannot resolve " + host + " for " + uri);
        }
      }
    } catch (IOException | RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    SocketChannel channel;
    try {
      channel = SocketChannel.open();
      channel.configureBlocking(false);
      connectionConfig.socket().applyTo(channel);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(Descriptors.clientError(uri, e));
    }
    EventLoop loop = group.next();
    open.incrementAndGet();
    ClientUpgrade upgrade =
        new ClientUpgrade(
            this, loop, channel, address, tunnel, host, port, secure, handshake, handler, result);
    upgrading.add(upgrade);
    try {
      loop.execute(upgrade::start);
    } catch (RejectedExecutionException e) {
      upgrading.remove(upgrade);
      open.decrementAndGet();
      try {
        channel.close();
      } catch (IOException ignored) {
        // closing anyway
      }
      return CompletableFuture.failedFuture(new IllegalStateException("the client is closed", e));
    }
    return result;
  }

  /**
   * Returns how many connections are not closed yet, those still connecting included.
   *
   * @return the count
   */
  public int openConnections() {
    return open.get();
  }

  /**
   * Aborts every connection still open (those still connecting fail) and stops the event loops when
   * the client created them. Close connections first for a graceful end.
   */
  @Override
  public void close() {
    for (ClientUpgrade u : upgrading) {
      try {
        u.loop().execute(u::forceClose);
      } catch (RejectedExecutionException e) {
        // its loop stopped and failed it
      }
    }
    connections.forEach(Connection::abort);
    if (ownGroup) {
      group.shutdown(EventLoopGroup.DEFAULT_SHUTDOWN_TIMEOUT);
    }
  }

  // ---- called by ClientUpgrade and NioConnection on their loops ----

  ConnectionConfig connectionConfig() {
    return connectionConfig;
  }

  SSLContext sslContext() throws IOException {
    if (sslContext != null) {
      return sslContext;
    }
    try {
      return SSLContext.getDefault();
    } catch (NoSuchAlgorithmException e) {
      throw new IOException("no default TLS context", e);
    }
  }

  boolean verifyHostname() {
    return verifyHostname;
  }

  void upgraded(ClientUpgrade from, NioConnection c) {
    connections.add(c);
    upgrading.remove(from);
  }

  void upgradeFailed(ClientUpgrade u) {
    if (upgrading.remove(u)) {
      open.decrementAndGet();
    }
  }

  void connectionClosed(NioConnection c) {
    if (connections.remove(c)) {
      open.decrementAndGet();
    }
  }

  /** Configures a {@link NioClient}. Not thread-safe; each setter returns the builder. */
  public static final class Builder {
    private final LoopOptions loops = new LoopOptions();
    private ConnectionConfig connectionConfig = ConnectionConfig.DEFAULTS;
    private ClientHandshakeConfig handshakeConfig = ClientHandshakeConfig.defaults();
    private SSLContext sslContext;
    private boolean verifyHostname = true;

    private Builder() {}

    /**
     * Runs on a shared group instead of a new one; the client then leaves it running on close.
     *
     * @param value the group
     * @return this builder
     */
    public Builder group(EventLoopGroup value) {
      loops.group(value);
      return this;
    }

    /**
     * Sets how many event loops the client's own group has (when no group is given).
     *
     * @param count at least 1
     * @return this builder
     */
    public Builder eventLoops(int count) {
      loops.eventLoops(count);
      return this;
    }

    /**
     * Sets how long the loops of the client's own group (when no group is given) poll after
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
     * Sets the limits, timeouts and buffer sizes of every connection.
     *
     * @param value the configuration
     * @return this builder
     */
    public Builder connectionConfig(ConnectionConfig value) {
      this.connectionConfig = Objects.requireNonNull(value, "connectionConfig");
      return this;
    }

    /**
     * Sets what the upgrade request offers (origin, subprotocols, extensions, extra headers).
     *
     * @param value the configuration
     * @return this builder
     */
    public Builder handshakeConfig(ClientHandshakeConfig value) {
      this.handshakeConfig = Objects.requireNonNull(value, "handshakeConfig");
      return this;
    }

    /**
     * Uses this TLS context for wss (its trust managers decide which servers are trusted).
     *
     * @param value the context; null for the JDK's default
     * @return this builder
     */
    public Builder sslContext(SSLContext value) {
      this.sslContext = value;
      return this;
    }

    /**
     * INSECURE, for development only: accepts a server certificate issued for another host name.
     * The certificate chain is still checked by the context's trust managers.
     *
     * @return this builder
     */
    public Builder insecureSkipHostnameVerification() {
      this.verifyHostname = false;
      return this;
    }

    /**
     * Creates the client and its event loops.
     *
     * @return the client
     */
    public NioClient build() {
      return new NioClient(this);
    }
  }
}
