package dev.wsjava.transport;

import dev.wsjava.handshake.ServerHandshakeConfig;
import dev.wsjava.internal.http.HttpLimits;
import dev.wsjava.internal.http.Router;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Objects;
import java.util.function.Function;
import javax.net.ssl.SSLContext;

/**
 * What every server transport's builder sets: the address, TLS, the connection and handshake
 * configuration, and what to serve (a handler factory for every path, or a router). Transports
 * add their own settings and {@code start()}. Not thread-safe.
 *
 * @param <B> the concrete builder, returned by every setter
 */
public abstract class ServerBuilder<B extends ServerBuilder<B>> {
  private String host;
  private int port;
  /**
   * As many as the system allows: Linux, macOS and Windows cap a larger backlog at their limit
   * ({@code net.core.somaxconn}, 4096 on current Linux) instead of refusing it. With 1024, a burst
   * of 10,000 connects overflowed the accept queue whenever the loops fell behind, and each
   * dropped SYN cost its client a one-second retransmission.
   */
  static final int MAX_BACKLOG = 65_535;

  private int backlog = MAX_BACKLOG;
  private ServerHandshakeConfig handshakeConfig = ServerHandshakeConfig.defaults();
  private ConnectionConfig connectionConfig = ConnectionConfig.DEFAULTS;
  private SSLContext tls;
  private ClientAuth clientAuth = ClientAuth.NONE;
  private Acceptor handlers;
  private Router<Acceptor> router;
  private HttpLimits httpLimits = HttpLimits.defaults();
  private Refusals refusals = (remote, status, reason) -> {};
  private boolean proxyProtocol;

  /** For subclasses. */
  protected ServerBuilder() {}

  /**
   * Returns this builder as its concrete type.
   *
   * @return this
   */
  protected abstract B self();

  /**
   * Sets the address to listen on.
   *
   * @param host a host name or IP literal, or null for all interfaces (the default)
   * @param port 0 to 65535; 0 (the default) lets the system pick one
   * @return this builder
   */
  public B bind(String host, int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0 to 65535: " + port);
    }
    this.host = host;
    this.port = port;
    return self();
  }

  /**
   * Sets how many connections may wait to be accepted.
   *
   * @param value at least 1; by default as many as the system allows ({@link #MAX_BACKLOG},
   *     capped by the system), so bursts of connects are not dropped
   * @return this builder
   */
  public B backlog(int value) {
    if (value < 1) {
      throw new IllegalArgumentException("backlog must be positive: " + value);
    }
    this.backlog = value;
    return self();
  }

  /**
   * Sets how upgrade requests are answered when serving {@link #handlers}: origins, subprotocols,
   * extensions, head limits. (A {@link Router} carries its own.)
   *
   * @param value the handshake configuration
   * @return this builder
   */
  public B handshakeConfig(ServerHandshakeConfig value) {
    this.handshakeConfig = Objects.requireNonNull(value, "handshakeConfig");
    return self();
  }

  /**
   * Sets the limits, timeouts and buffer sizes of every connection; its handshake timeout bounds
   * the TLS handshake, and with {@link #handlers} the upgrade request too.
   *
   * @param value the connection configuration
   * @return this builder
   */
  public B connectionConfig(ConnectionConfig value) {
    this.connectionConfig = Objects.requireNonNull(value, "connectionConfig");
    return self();
  }

  /**
   * Serves {@code wss}: every connection starts with a TLS handshake (TLS 1.3 or 1.2).
   *
   * @param context holds the server's key and certificate; null for plain {@code ws}
   * @return this builder
   */
  public B tls(SSLContext context) {
    this.tls = context;
    return self();
  }

  /**
   * Sets whether the TLS handshake asks the client for a certificate (mutual TLS), checked against
   * the trust managers of the {@link #tls} context.
   *
   * @param value {@link ClientAuth#NONE} by default
   * @return this builder
   */
  public B clientAuth(ClientAuth value) {
    this.clientAuth = Objects.requireNonNull(value, "clientAuth");
    return self();
  }

  /**
   * Requires every connection to start with a PROXY protocol header (version 1 or 2, as HAProxy's
   * {@code send-proxy} and {@code send-proxy-v2} and cloud L4 balancers send it), read before TLS
   * and HTTP within the handshake timeout; its source address is then the connection's remote
   * address. A connection without a valid header is closed without an answer and reported to
   * {@link #refusals} with status 0. Off by default, and then a header is not looked for: a client
   * sending one is answered 400 like any request that is not HTTP.
   *
   * @param required whether the header is required
   * @return this builder
   */
  public B proxyProtocol(boolean required) {
    this.proxyProtocol = required;
    return self();
  }

  /** Whether a TLS server asks its clients for certificates. */
  public enum ClientAuth {
    /** Does not ask. */
    NONE,
    /** Asks; a client may present none, and the connection goes on without. */
    REQUEST,
    /** Asks, and fails the TLS handshake of a client that presents none or an untrusted one. */
    REQUIRE;

    /**
     * Applies this to TLS parameters.
     *
     * @param p the engine's or socket's parameters
     */
    public void applyTo(javax.net.ssl.SSLParameters p) {
      if (this == REQUIRE) {
        p.setNeedClientAuth(true);
      } else if (this == REQUEST) {
        p.setWantClientAuth(true);
      }
    }
  }

  /**
   * Serves WebSocket on every path. The factory runs once a connection's upgrade is accepted,
   * before the 101 is sent; it may return null to answer 404 instead, and an exception is
   * answered 500.
   *
   * @param factory given the handshake, returns the connection's handler
   * @return this builder
   */
  public B handlers(Function<HandshakeInfo, ConnectionHandler> factory) {
    return acceptor(Acceptor.of(Objects.requireNonNull(factory, "factory")));
  }

  /**
   * Serves WebSocket on every path, each upgrade decided by {@code acceptor} before the 101 (see
   * {@link Verdict}).
   *
   * @param acceptor decides each upgrade
   * @return this builder
   */
  public B acceptor(Acceptor acceptor) {
    this.handlers = Objects.requireNonNull(acceptor, "acceptor");
    return self();
  }

  /**
   * Tells {@code listener} of every upgrade request the transport refuses by itself, before any
   * acceptor sees it: a request RFC 6455 §4.2 does not allow (400, 426), a refused Origin (403).
   * Refusals an acceptor decides are not reported here, nor connections that never completed a
   * request (the handshake timeout).
   *
   * @param listener called on the connection's I/O thread; must be quick and must not throw
   * @return this builder
   */
  public B refusals(Refusals listener) {
    this.refusals = Objects.requireNonNull(listener, "listener");
    return self();
  }

  /** Hears of the upgrade requests a transport refused by itself (see {@link #refusals}). */
  @FunctionalInterface
  public interface Refusals {
    /**
     * An upgrade request was answered with a refusal and its connection is closing.
     *
     * @param remote the peer's address
     * @param status the HTTP status answered; 0 when nothing could be answered (a missing or bad
     *     PROXY protocol header)
     * @param reason why, for a log
     */
    void refused(SocketAddress remote, int status, String reason);
  }

  /**
   * Serves a router: plain HTTP routes, and WebSocket routes whose data is their {@link
   * Acceptor}.
   *
   * @param value the routes
   * @param limits limits and timeouts of the HTTP connections
   * @return this builder
   */
  public B router(Router<Acceptor> value, HttpLimits limits) {
    this.router = Objects.requireNonNull(value, "router");
    this.httpLimits = Objects.requireNonNull(limits, "limits");
    return self();
  }

  /**
   * Returns what was set, checked: exactly one of handlers and router.
   *
   * @return the options
   * @throws IllegalStateException unless exactly one of handlers and router was set
   */
  public Options options() {
    if ((handlers == null) == (router == null)) {
      throw new IllegalStateException("set exactly one of handlers(...) and router(...)");
    }
    return new Options(
        host == null ? new InetSocketAddress(port) : new InetSocketAddress(host, port),
        backlog, handshakeConfig, connectionConfig, tls, clientAuth, handlers, router, httpLimits,
        refusals, proxyProtocol);
  }

  /**
   * A server's settings, as its builder collected them.
   *
   * @param address where to listen
   * @param backlog the accept backlog
   * @param handshakeConfig how upgrades are answered with {@code handlers}
   * @param connectionConfig each connection's limits and timeouts
   * @param tls the TLS context, or null
   * @param clientAuth whether TLS asks for client certificates
   * @param handlers the acceptor for every path, or null with a router
   * @param router the routes, or null with handlers
   * @param httpLimits the HTTP front's limits
   * @param refusals told of the upgrades the transport refused by itself
   * @param proxyProtocol whether every connection must start with a PROXY protocol header
   */
  public record Options(
      InetSocketAddress address,
      int backlog,
      ServerHandshakeConfig handshakeConfig,
      ConnectionConfig connectionConfig,
      SSLContext tls,
      ClientAuth clientAuth,
      Acceptor handlers,
      Router<Acceptor> router,
      HttpLimits httpLimits,
      Refusals refusals,
      boolean proxyProtocol) {}
}
