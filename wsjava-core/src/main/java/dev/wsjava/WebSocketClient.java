package dev.wsjava;

import dev.wsjava.handshake.ClientHandshakeConfig;
import dev.wsjava.proxy.TunnelException;
import dev.wsjava.transport.ClientTransport;
import dev.wsjava.transport.Connection;
import dev.wsjava.transport.ConnectionHandler;
import java.io.IOException;
import java.net.URI;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import javax.net.ssl.SSLContext;

/**
 * Opens WebSocket connections to servers. One client may open many connections; on the NIO
 * transport they share its event loops, so make one client and keep it.
 *
 * <pre>{@code
 * try (WebSocketClient client = WebSocketClient.builder().build()) {
 *   WebSocket ws = client.open(URI.create("wss://example.com/echo"));
 *   ws.sendText("hello").join();
 *   System.out.println(ws.receive());
 *   ws.close().join();
 * }
 * }</pre>
 *
 * <p>{@code wss://} checks the server's certificate chain and host name against the JDK's trust
 * store (or the given {@link SSLContext}) and sends SNI. Through a {@link WebSocketProxy}, TLS runs
 * end to end through the tunnel and those checks name the server, not the proxy. Thread-safe.
 */
public final class WebSocketClient implements AutoCloseable {
  private final ClientTransport transport;
  private final Function<URI, Optional<WebSocketProxy>> proxies;
  private final ReconnectPolicy reconnect;
  private final ReconnectListener reconnectListener;
  private final boolean resumeTopics;
  private final Clock clock;
  private final Set<ReconnectingWebSocket> reconnecting = ConcurrentHashMap.newKeySet();

  private WebSocketClient(ClientTransport transport, Builder b) {
    this.transport = transport;
    this.proxies = b.proxies;
    this.reconnect = b.reconnect;
    this.reconnectListener = b.reconnectListener;
    this.resumeTopics = b.resumeTopics;
    this.clock = b.clock;
  }

  /**
   * Starts building a client.
   *
   * @return a builder with default settings
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Connects; events go to {@code listener}.
   *
   * @param uri a {@code ws://} or {@code wss://} URI
   * @param listener the event callbacks
   * @return completed with the open connection, or failed with why (for a refused handshake, the
   *     HTTP status is in the message; {@link ProxyException} when the proxy failed)
   */
  public CompletableFuture<WebSocket> connect(URI uri, WebSocketListener listener) {
    Objects.requireNonNull(listener, "listener");
    return reconnect != null
        ? reconnecting(uri, listener)
        : connect(uri, new WebSocketImpl(listener, target(uri)));
  }

  /**
   * Connects for pull-style use: read with {@link WebSocket#receive()}.
   *
   * @param uri a {@code ws://} or {@code wss://} URI
   * @return completed with the open connection
   */
  public CompletableFuture<WebSocket> connect(URI uri) {
    return reconnect != null
        ? reconnecting(uri, null)
        : connect(uri, new WebSocketImpl(null, target(uri)));
  }

  /**
   * Connects for pull-style use and waits for the connection to open.
   *
   * @param uri a {@code ws://} or {@code wss://} URI
   * @return the open connection
   * @throws IOException when the connection or handshake fails
   * @throws InterruptedException when interrupted while waiting
   */
  public WebSocket open(URI uri) throws IOException, InterruptedException {
    try {
      return connect(uri).get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException(cause.getMessage(), cause);
    }
  }

  private CompletableFuture<WebSocket> reconnecting(URI uri, WebSocketListener listener) {
    ReconnectingWebSocket ws =
        new ReconnectingWebSocket(
            this, uri, target(uri), listener, reconnect, reconnectListener, resumeTopics, clock);
    reconnecting.add(ws);
    ws.closeFuture().whenComplete((v, e) -> reconnecting.remove(ws));
    return ws.start()
        .whenComplete(
            (v, e) -> {
              if (e != null) {
                reconnecting.remove(ws);
              }
            });
  }

  private CompletableFuture<WebSocket> connect(URI uri, WebSocketImpl ws) {
    return open(uri, ws).thenApply(connection -> ws);
  }

  /** Opens one transport connection, through the proxy that applies to {@code uri}, if any. */
  CompletableFuture<Connection> open(URI uri, ConnectionHandler handler) {
    Optional<WebSocketProxy> proxy;
    try {
      proxy = proxies.apply(uri);
    } catch (IllegalArgumentException e) {
      return CompletableFuture.failedFuture(e);
    }
    return transport
        .connect(uri, proxy.map(WebSocketProxy::spec).orElse(null), handler)
        .exceptionallyCompose(e -> CompletableFuture.failedFuture(apiFailure(e)));
  }

  /** The transport's proxy failures become the API's {@link ProxyException}. */
  private static Throwable apiFailure(Throwable e) {
    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    return cause instanceof TunnelException t ? new ProxyException(t.getMessage(), t.getCause()) : cause;
  }

  static String target(URI uri) {
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
  }

  /** Releases the client's threads; its open connections are aborted, and none reconnects. */
  @Override
  public void close() {
    reconnecting.forEach(ReconnectingWebSocket::stop);
    transport.close();
  }

  /** Configures a {@link WebSocketClient}. Not thread-safe. */
  public static final class Builder {
    private WebSocketConfig config = WebSocketConfig.defaults();
    private SSLContext tls;
    private String origin;
    private final Headers.Builder headers = Headers.builder();
    private boolean insecure;
    private Function<URI, Optional<WebSocketProxy>> proxies = uri -> Optional.empty();
    private ReconnectPolicy reconnect;
    private ReconnectListener reconnectListener = new ReconnectListener() {};
    private boolean resumeTopics;
    private Clock clock = Clock.SYSTEM;

    private Builder() {}

    /** Test hook: where reconnections wait out their backoff; the system clock by default. */
    Builder clock(Clock value) {
      clock = Objects.requireNonNull(value, "clock");
      return this;
    }

    /**
     * Makes a reconnecting connection (see {@link #reconnect(ReconnectPolicy)}) resume all its
     * topic subscriptions on whatever node it reaches, without code of the application's: it
     * keeps the latest resume token a server with {@link Topics.Builder#resume} sends (that
     * message, {@code "+ <token>\n"}, is not passed to the listener) and the id of the last
     * message it saw on each topic (the first line {@code "<id> <topic>\n"} of {@link
     * Topics.Envelope#LINE}), presents both in the query of each reconnection, and does not pass
     * on a message whose id is not after the last one seen on its topic. The server's handler
     * calls {@link Topics#resume(WebSocket)}. Works with a {@link WebSocketListener}; a
     * connection read with {@link WebSocket#receive()} is not tracked. Default off.
     *
     * @return this builder
     */
    public Builder resumeTopics() {
      resumeTopics = true;
      return this;
    }

    /**
     * Tunnels every connection through this proxy (HTTP CONNECT or SOCKS5), for {@code ws://} and
     * {@code wss://} alike. Replaces {@link #proxyFromEnvironment()}.
     *
     * @param value the proxy, for example {@code WebSocketProxy.parse("socks5://127.0.0.1:1080")}
     * @return this builder
     */
    public Builder proxy(WebSocketProxy value) {
      Optional<WebSocketProxy> proxy = Optional.of(value);
      proxies = uri -> proxy;
      return this;
    }

    /**
     * Picks each connection's proxy from the environment when it connects, as {@link
     * WebSocketProxy#fromEnvironment(URI)} describes ({@code https_proxy} for {@code wss://},
     * {@code http_proxy} for {@code ws://}, {@code all_proxy}, and the {@code no_proxy}
     * exceptions). A variable that holds no valid proxy fails the connection with an {@link
     * IllegalArgumentException} that names it. Replaces {@link #proxy(WebSocketProxy)}.
     *
     * @return this builder
     */
    public Builder proxyFromEnvironment() {
      proxies = WebSocketProxy::fromEnvironment;
      return this;
    }

    /**
     * Sets the configuration (transport, limits, deflate, subprotocols, timeouts, ...).
     *
     * @param value the configuration
     * @return this builder
     */
    public Builder config(WebSocketConfig value) {
      config = Objects.requireNonNull(value, "config");
      return this;
    }

    /**
     * Uses this TLS context for {@code wss://} (for example {@link TlsContexts#trusting}).
     * Certificate and host name checks stay on.
     *
     * @param context the client's TLS context
     * @return this builder
     */
    public Builder tls(SSLContext context) {
      tls = Objects.requireNonNull(context, "context");
      return this;
    }

    /**
     * Sends this {@code Origin} header with every handshake.
     *
     * @param value for example {@code https://example.com}
     * @return this builder
     */
    public Builder origin(String value) {
      origin = value;
      return this;
    }

    /**
     * Adds a header to every handshake request (for example {@code Authorization}).
     *
     * @param name the header name
     * @param value the header value
     * @return this builder
     */
    public Builder header(String name, String value) {
      headers.add(name, value);
      return this;
    }

    /**
     * INSECURE, for development only: accepts any server certificate and any host name, so
     * anyone on the path can read and change the traffic. Never use it in production.
     *
     * @return this builder
     */
    public Builder insecureTrustAnyCertificateForDevelopmentOnly() {
      insecure = true;
      return this;
    }

    /**
     * Makes each connection reconnect, with this policy's backoff, after it drops. The {@link
     * WebSocket} that {@code connect} returns then stays the same object while its connection is
     * replaced underneath:
     *
     * <ul>
     *   <li>Reconnects after every close except: the application's own {@code close()} or {@code
     *       abort()}, the client's {@link WebSocketClient#close()}, and a server's 1000 (Normal
     *       Closure: the server ended the conversation on purpose). So a dropped TCP connection
     *       (1006), a server going away or restarting (1001, 1012), a server error (1011) and a
     *       dead peer found by keepalive all reconnect. After the attempts run out it closes for
     *       good with 1006.
     *   <li>The first connection is not retried: {@code connect} fails as without this option.
     *   <li>Sends while disconnected fail at once with {@link WebSocketClosedException} (code 1006):
     *       nothing is buffered behind the application's back, so it decides what to resend. Fail
     *       fast rather than an outbox, because an outbox cannot tell what the server received: the
     *       messages queued on the connection that dropped may or may not have arrived, so only the
     *       application (an idempotent id, a resume offset) can resend safely, and a bounded outbox
     *       would still have to fail sends once full. To wait for the connection instead of
     *       failing, send through {@link WebSocket#opened()}: {@code ws.opened().thenCompose(w ->
     *       w.sendText(s))}, or {@code ws.opened().get(timeout, unit)} on a virtual thread, and
     *       resend on {@link WebSocketClosedException}.
     *   <li>The listener's {@link WebSocketListener#onOpen} runs for each new connection (to
     *       resubscribe, say), {@link WebSocketListener#onError} for each failure, and {@link
     *       WebSocketListener#onClose} once, at the final close. {@link WebSocket#receive()} waits
     *       across reconnections and throws only at the final close; {@link
     *       WebSocket#closeFuture()} completes then too.
     * </ul>
     *
     * @param policy the backoff and the bound on attempts
     * @return this builder
     */
    public Builder reconnect(ReconnectPolicy policy) {
      reconnect = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * Makes each connection reconnect after it drops, as {@link #reconnect(ReconnectPolicy)}
     * says, and tells {@code listener} of each attempt and each reconnection.
     *
     * @param policy the backoff and the bound on attempts
     * @param listener hears attempts and reconnections
     * @return this builder
     */
    public Builder reconnect(ReconnectPolicy policy, ReconnectListener listener) {
      reconnectListener = Objects.requireNonNull(listener, "listener");
      return reconnect(policy);
    }

    /**
     * Builds the client.
     *
     * @return the client
     */
    public WebSocketClient build() {
      ClientHandshakeConfig handshake =
          ClientHandshakeConfig.defaults()
              .withOrigin(origin)
              .withSubprotocols(config.subprotocols())
              .withExtensions(Transports.extensions(config))
              .withHeaders(headers.build());
      return new WebSocketClient(Transports.client(config, handshake, tls, insecure), this);
    }
  }
}
