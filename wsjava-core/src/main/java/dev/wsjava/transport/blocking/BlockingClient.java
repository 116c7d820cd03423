package dev.wsjava.transport.blocking;

import dev.wsjava.extension.Extension;
import dev.wsjava.handshake.ClientHandshake;
import dev.wsjava.handshake.ClientHandshakeConfig;
import dev.wsjava.handshake.HandshakeException;
import dev.wsjava.protocol.Role;
import dev.wsjava.proxy.ProxySpec;
import dev.wsjava.proxy.Tunnel;
import dev.wsjava.proxy.TunnelException;
import dev.wsjava.transport.ClientTransport;
import dev.wsjava.transport.Connection;
import dev.wsjava.transport.ConnectionConfig;
import dev.wsjava.transport.Descriptors;
import dev.wsjava.transport.ConnectionHandler;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;

/**
 * A WebSocket client on a blocking socket: connects ({@code ws} or {@code wss}; ports 80 and 443
 * by default), runs the RFC 6455 §4.1 handshake within the handshake timeout, and starts a {@link
 * BlockingConnection} on its own virtual thread. Thread-safe: one client opens any number of
 * connections, and {@link #close()} aborts those still open.
 *
 * <pre>{@code
 * BlockingClient client = BlockingClient.builder().build();
 * Connection c = client.connectBlocking(URI.create("wss://example.com/chat"), handler);
 * c.sendText("hello");
 * }</pre>
 *
 * <p>Over TLS the server's certificate is checked against the {@link SSLContext}'s trust (the
 * JDK's default trust store unless one is given) and must name the host; SNI names it too.
 */
public final class BlockingClient implements ClientTransport {
  /** Bytes read at once while the response head arrives (the read loop then takes the buffer). */
  private static final int HANDSHAKE_READ = BlockingConnection.SMALL_READ;

  private final ClientHandshakeConfig handshakeConfig;
  private final ConnectionConfig connectionConfig;
  private final SSLContext tls;
  private final boolean verifyHostname;
  private final SecureRandom random = new SecureRandom();
  private final Set<BlockingConnection> open = ConcurrentHashMap.newKeySet();

  private BlockingClient(Builder b) {
    Descriptors.exhausted(null); // loaded now, to explain a connect that finds no descriptor left
    this.handshakeConfig = b.handshakeConfig;
    this.connectionConfig = b.connectionConfig;
    this.tls = b.tls;
    this.verifyHostname = b.verifyHostname;
  }

  /**
   * Returns a builder with the defaults: default handshake and connection configuration, the
   * JDK's default {@link SSLContext} for {@code wss}, host names verified.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Connects and upgrades, blocking until the connection is open or has failed. The handler's
   * {@code onOpen} runs on the calling thread before this returns; later events come on the
   * connection's own thread.
   *
   * @param uri a {@code ws} or {@code wss} URI
   * @param handler receives the connection's events, on its own thread
   * @return the open connection
   * @throws HandshakeException when the server's answer is not a valid 101; {@link
   *     HandshakeException#status()} is the status it answered (0 when its answer was not HTTP)
   * @throws IOException when the connection, TLS or the handshake fails or times out
   * @throws IllegalArgumentException when the URI is not a WebSocket URI (RFC 6455 §3)
   */
  public Connection connectBlocking(URI uri, ConnectionHandler handler)
      throws IOException, HandshakeException {
    return connectBlocking(uri, null, handler);
  }

  /**
   * Connects through a proxy (or directly) and upgrades, blocking until the connection is open or
   * has failed. Through a proxy the server's host name is not resolved here (the proxy resolves
   * it), and TLS runs through the tunnel for the server's host name. The handshake timeout covers
   * the connect to the proxy and the tunnel setup too.
   *
   * @param uri a {@code ws} or {@code wss} URI
   * @param proxy the proxy to tunnel through, or null to connect directly
   * @param handler receives the connection's events, on its own thread
   * @return the open connection
   * @throws TunnelException when the proxy could not be reached, refused the tunnel, or broke its
   *     protocol
   * @throws HandshakeException when the server's answer is not a valid 101
   * @throws IOException when the connection, TLS or the handshake fails or times out
   */
  public Connection connectBlocking(URI uri, ProxySpec proxy, ConnectionHandler handler)
      throws IOException, HandshakeException {
    Objects.requireNonNull(handler, "handler");
    ClientHandshake handshake = ClientHandshake.start(uri, handshakeConfig, random);
    boolean secure = uri.getScheme().toLowerCase(Locale.ROOT).equals("wss");
    String host = unbracket(uri.getHost());
    int port = uri.getPort() >= 0 ? uri.getPort() : secure ? 443 : 80;
    Tunnel tunnel = proxy == null ? null : proxy.open(host, port);
    long deadline = System.nanoTime() + connectionConfig.handshakeTimeout().toNanos();
    Socket raw = new Socket();
    Alarm alarm = null;
    BlockingConnection connection = null;
    boolean tunnelOpen = tunnel == null;
    try {
      connectionConfig.socket().applyTo(raw);
      ByteBuffer early = ByteBuffer.allocate(0);
      if (tunnel == null) {
        raw.connect(new InetSocketAddress(host, port), BlockingServer.millisLeft(deadline));
      } else {
        early = tunnel(raw, tunnel, deadline, uri);
        tunnelOpen = true;
        if (secure && early.hasRemaining()) {
          throw TunnelException.bytesBeforeTls(proxy, early.remaining());
        }
      }
      Socket socket = raw;
      if (secure) {
        Duration timeout = connectionConfig.handshakeTimeout();
        alarm = Alarm.after(timeout, () -> BlockingServer.closeQuietly(raw));
        socket = Tls.client(context(), raw, host, port, verifyHostname, millisLeft(deadline, uri));
      }
      OutputStream out = socket.getOutputStream();
      BlockingServer.write(out, handshake.request());
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[HANDSHAKE_READ];
      ByteBuffer received = early;
      ClientHandshake.Result result = early.hasRemaining() ? handshake.receive(early) : null;
      while (result == null) {
        socket.setSoTimeout(millisLeft(deadline, uri));
        int n = in.read(buffer);
        if (n < 0) {
          throw new EOFException(
              "the server closed the connection before answering the handshake: " + uri);
        }
        received = ByteBuffer.wrap(buffer, 0, n);
        result = handshake.receive(received);
      }
      if (alarm != null) {
        alarm.cancel();
      }
      handler.onHandshakeResponse(result.response());
      try {
        connection =
            new BlockingConnection(
                raw,
                socket,
                Role.CLIENT,
                handler,
                connectionConfig,
                result.subprotocol(),
                result.extensions(),
                open::remove);
      } finally {
        if (connection == null) {
          result.extensions().forEach(Extension::close);
        }
      }
      ByteBuffer rest = ByteBuffer.allocate(received.remaining()).put(received).flip();
      BlockingConnection opened = connection;
      open.add(opened);
      if (opened.socketClosing()) {
        open.remove(opened);
      }
      if (opened.reportOpen()) {
        Thread.ofVirtual().name("wsjava-client").start(() -> opened.run(rest, buffer));
      }
      return opened;
    } catch (HandshakeException e) {
      String message = "WebSocket handshake with " + uri + " failed: " + e.getMessage();
      throw e.response() != null
          ? new HandshakeException(e.response(), message, e)
          : new HandshakeException(message, e);
    } catch (IOException e) {
      if ((alarm != null && alarm.fired()) || e instanceof SocketTimeoutException) {
        SocketTimeoutException timeout =
            tunnelOpen
                ? timedOut(uri)
                : new SocketTimeoutException(
                    timedOut(uri).getMessage()
                        + " (proxy "
                        + proxy
                        + " had not opened the tunnel)");
        timeout.initCause(e);
        throw timeout;
      }
      throw Descriptors.clientError(uri, e);
    } finally {
      if (alarm != null) {
        alarm.cancel();
      }
      if (connection == null) {
        BlockingServer.closeQuietly(raw);
      }
    }
  }

  /**
   * Connects to the proxy and sets up the tunnel, within the handshake deadline.
   *
   * @return the bytes that came through the tunnel with the proxy's last answer
   */
  private ByteBuffer tunnel(Socket raw, Tunnel tunnel, long deadline, URI uri) throws IOException {
    ProxySpec proxy = tunnel.proxy();
    InetSocketAddress address = new InetSocketAddress(proxy.host(), proxy.port());
    try {
      if (address.isUnresolved()) {
        throw new UnknownHostException("cannot resolve " + proxy.host());
      }
      raw.connect(address, BlockingServer.millisLeft(deadline));
    } catch (SocketTimeoutException e) {
      throw e;
    } catch (IOException e) {
      throw TunnelException.unreachable(proxy, e);
    }
    try {
      OutputStream out = raw.getOutputStream();
      InputStream in = raw.getInputStream();
      byte[] buffer = new byte[HANDSHAKE_READ];
      while (true) {
        ByteBuffer send = tunnel.output();
        if (send != null && send.hasRemaining()) {
          BlockingServer.write(out, send);
        }
        raw.setSoTimeout(millisLeft(deadline, uri));
        int n = in.read(buffer);
        if (n < 0) {
          throw tunnel.endOfStream();
        }
        ByteBuffer received = ByteBuffer.wrap(buffer, 0, n);
        if (tunnel.receive(received) == Tunnel.Step.DONE) {
          return ByteBuffer.allocate(received.remaining()).put(received).flip();
        }
      }
    } catch (TunnelException | SocketTimeoutException e) {
      throw e;
    } catch (IOException e) {
      throw new TunnelException(
          proxy, "proxy " + proxy + " failed while opening the tunnel: " + e.getMessage(), e);
    }
  }

  /**
   * Connects and upgrades on a new virtual thread.
   *
   * @param uri a {@code ws} or {@code wss} URI
   * @param proxy the proxy to tunnel through, or null to connect directly
   * @param handler receives the connection's events
   * @return completed with the open connection, or exceptionally with what {@link
   *     #connectBlocking} throws
   */
  @Override
  public CompletableFuture<Connection> connect(URI uri, ProxySpec proxy, ConnectionHandler handler) {
    CompletableFuture<Connection> future = new CompletableFuture<>();
    Thread.ofVirtual()
        .name("wsjava-connect")
        .start(
            () -> {
              try {
                future.complete(connectBlocking(uri, proxy, handler));
              } catch (Exception | Error e) {
                future.completeExceptionally(e);
              }
            });
    return future;
  }

  /**
   * Returns how many connections this client opened that are still open.
   *
   * @return the count
   */
  public int openConnections() {
    return open.size();
  }

  /** Aborts every connection this client opened that is still open. */
  @Override
  public void close() {
    open.forEach(BlockingConnection::abort);
  }

  private SSLContext context() throws IOException {
    if (tls != null) {
      return tls;
    }
    try {
      return SSLContext.getDefault();
    } catch (NoSuchAlgorithmException e) {
      throw new IOException("no default SSLContext for wss", e);
    }
  }

  private int millisLeft(long deadline, URI uri) throws SocketTimeoutException {
    int left = BlockingServer.millisLeft(deadline);
    if (left <= 0) {
      throw timedOut(uri);
    }
    return left;
  }

  private SocketTimeoutException timedOut(URI uri) {
    return new SocketTimeoutException(
        "WebSocket handshake with "
            + uri
            + " did not complete within "
            + connectionConfig.handshakeTimeout().toMillis()
            + " ms");
  }

  /** {@code [::1]} is how a URI writes an IPv6 host; sockets want {@code ::1}. */
  private static String unbracket(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  /** Configures a {@link BlockingClient}. Not thread-safe. */
  public static final class Builder {
    private ClientHandshakeConfig handshakeConfig = ClientHandshakeConfig.defaults();
    private ConnectionConfig connectionConfig = ConnectionConfig.DEFAULTS;
    private SSLContext tls;
    private boolean verifyHostname = true;

    private Builder() {}

    /**
     * Sets what the handshake asks for: origin, subprotocols, extensions, extra headers.
     *
     * @param value the handshake configuration
     * @return this builder
     */
    public Builder handshakeConfig(ClientHandshakeConfig value) {
      this.handshakeConfig = Objects.requireNonNull(value, "handshakeConfig");
      return this;
    }

    /**
     * Sets the limits and timeouts of each connection; the handshake timeout also bounds the TCP
     * connect and the TLS handshake.
     *
     * @param value the connection configuration
     * @return this builder
     */
    public Builder connectionConfig(ConnectionConfig value) {
      this.connectionConfig = Objects.requireNonNull(value, "connectionConfig");
      return this;
    }

    /**
     * Sets the TLS context for {@code wss}: its trust managers decide which certificates are
     * trusted.
     *
     * @param context the context, or null for {@link SSLContext#getDefault()}
     * @return this builder
     */
    public Builder sslContext(SSLContext context) {
      this.tls = context;
      return this;
    }

    /**
     * INSECURE, for development only: accepts a trusted certificate that does not name the host.
     * Anyone holding any certificate the context trusts can then impersonate the server.
     *
     * @return this builder
     */
    public Builder insecureSkipHostnameVerification() {
      this.verifyHostname = false;
      return this;
    }

    /**
     * Builds the client.
     *
     * @return the client
     */
    public BlockingClient build() {
      return new BlockingClient(this);
    }
  }
}
