package dev.wsjava;

import dev.wsjava.events.Loggers;
import dev.wsjava.handshake.HttpHeadLimits;
import dev.wsjava.handshake.ServerHandshakeConfig;
import dev.wsjava.http.HttpHandler;
import dev.wsjava.internal.http.Router;
import dev.wsjava.transport.Acceptor;
import dev.wsjava.transport.ConnectionConfig;
import dev.wsjava.transport.ServerBuilder;
import dev.wsjava.transport.ServerTransport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;

/**
 * A WebSocket and HTTP/1.1 server: WebSocket routes by path (a listener, or a blocking handler on
 * a virtual thread), plain HTTP routes and static files beside them.
 *
 * <pre>{@code
 * WebSocketServer server = WebSocketServer.builder()
 *     .bind("127.0.0.1", 8080)
 *     .get("/", req -> HttpResponse.text(200, "hello"))
 *     .websocket("/echo", new WebSocketListener() {
 *       public void onText(WebSocket ws, String text) { ws.sendText(text); }
 *     })
 *     .start();
 * }</pre>
 *
 * <p>Thread-safe. {@link #close()} shuts down gracefully: every WebSocket gets 1001 and a bounded
 * time to close. Behind a load balancer, {@link #drain} moves clients off the node instead (1012,
 * spread over a window), {@link Builder#requireProxyProtocol()} and {@link Builder#trustedProxies}
 * give it the clients' addresses, and {@link #reloadTls} renews its certificate in place
 * (docs/DEPLOYMENT.md).
 */
public final class WebSocketServer implements AutoCloseable {
  /** How long {@link #close()} waits for connections to close after sending 1001. */
  public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(5);

  /**
   * How long {@link #drain} waits, after the last 1012, for the closing handshakes (and the
   * messages queued before them) before it aborts what is left.
   */
  public static final Duration DRAIN_FLUSH_GRACE = Duration.ofSeconds(5);

  private final ServerTransport transport;
  private final Serving serving;
  private final java.util.concurrent.atomic.AtomicReference<CompletableFuture<Boolean>> drained =
      new java.util.concurrent.atomic.AtomicReference<>();

  private WebSocketServer(ServerTransport transport, Serving serving) {
    this.transport = transport;
    this.serving = serving;
  }

  /**
   * Starts building a server.
   *
   * @return a builder with default settings, bound to localhost:8080 until told otherwise
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the port the server listens on.
   *
   * @return the bound port
   */
  public int port() {
    return transport.port();
  }

  /**
   * Returns the address the server listens on.
   *
   * @return the bound address
   */
  public InetSocketAddress address() {
    return transport.localAddress();
  }

  /**
   * Returns the TCP connections open now: WebSocket connections, plain HTTP connections and those
   * still in their handshake. The WebSocket connections alone are {@link Stats#connectionsOpen()}:
   * in {@link #stats()}, "connections" are always WebSocket connections.
   *
   * @return the count
   */
  public int openTcpConnections() {
    return transport.openConnections();
  }

  /**
   * Returns the server's counters now: connections, refusals by reason, messages and bytes, limit
   * hits. Cheap enough to poll; each value is read on its own, so a snapshot taken under load may
   * be off by the events of the moment.
   *
   * @return a snapshot
   */
  public Stats stats() {
    return new Stats(serving, transport);
  }

  /**
   * Returns a future that completes when the server has stopped: normally once {@link #close()}
   * or {@link #shutdown} returned, or exceptionally, with the error, when one of the server's own
   * threads failed beyond recovery (an {@link OutOfMemoryError} in an event loop's own code, not in
   * one connection's). The server has then stopped accepting and aborted its connections: a
   * process that serves nothing else should exit (the {@code wsjava serve} command exits with a
   * non-zero status). Failures of one connection or one accept never complete it. Each call
   * returns a new dependent future; completing it has no effect on the server.
   *
   * @return the future
   */
  public java.util.concurrent.CompletableFuture<Void> closeFuture() {
    return transport.closeFuture();
  }

  /**
   * What a server counted since it started (see {@link #stats()}). Immutable.
   */
  public static final class Stats {
    private final int open;
    private final long opened;
    private final long[] rejected;
    private final long messageRateClosed;
    private final long messagesIn;
    private final long messagesOut;
    private final long bytesIn;
    private final long bytesOut;
    private final long sendQueueFull;
    private final long descriptorExhaustions;

    private Stats(Serving s, ServerTransport transport) {
      ServerCounters c = s.counters;
      this.open = s.open();
      this.opened = c.opened.sum();
      ServerCounters.Reason[] reasons = ServerCounters.Reason.values();
      this.rejected = new long[reasons.length];
      for (ServerCounters.Reason r : reasons) {
        rejected[r.ordinal()] = c.rejectedCount(r);
      }
      this.messageRateClosed = c.messageRateClosed.sum();
      long[] traffic = s.traffic();
      this.messagesIn = traffic[0];
      this.bytesIn = traffic[1];
      this.messagesOut = traffic[2];
      this.bytesOut = traffic[3];
      this.sendQueueFull = c.sendQueueFull.sum();
      this.descriptorExhaustions = transport.descriptorExhaustions();
    }

    /**
     * Returns the WebSocket connections open now (from their open to their close callback); plain
     * HTTP connections are not counted ({@link WebSocketServer#openTcpConnections()} counts all).
     *
     * @return the count
     */
    public int connectionsOpen() {
      return open;
    }

    /**
     * Returns the WebSocket connections ever opened.
     *
     * @return the count
     */
    public long connectionsTotal() {
      return opened;
    }

    /**
     * Returns the upgrades the handshake hook rejected.
     *
     * @return the count
     */
    public long rejectedByApplication() {
      return rejected[ServerCounters.Reason.APPLICATION.ordinal()];
    }

    /**
     * Returns the upgrades refused 503 because the server held {@link Builder#maxConnections}.
     *
     * @return the count
     */
    public long rejectedServerFull() {
      return rejected[ServerCounters.Reason.SERVER_FULL.ordinal()];
    }

    /**
     * Returns the upgrades refused 429 because their address held {@link
     * Builder#maxConnectionsPerAddress}.
     *
     * @return the count
     */
    public long rejectedAddressFull() {
      return rejected[ServerCounters.Reason.ADDRESS_FULL.ordinal()];
    }

    /**
     * Returns the upgrade requests refused by RFC 6455 §4.2 (400, 426: a field missing or wrong)
     * or by the Origin policy (403), before any hook or limit saw them.
     *
     * @return the count
     */
    public long rejectedByProtocol() {
      return rejected[ServerCounters.Reason.PROTOCOL.ordinal()];
    }

    /**
     * Returns the upgrades refused 429 for {@link Builder#maxHandshakeRatePerAddress}.
     *
     * @return the count
     */
    public long rejectedHandshakeRate() {
      return rejected[ServerCounters.Reason.HANDSHAKE_RATE.ordinal()];
    }

    /**
     * Returns the connections closed without an answer because a server that {@link
     * Builder#requireProxyProtocol() requires the PROXY protocol} got no valid header from them
     * (none, a malformed one, or none within the handshake timeout).
     *
     * @return the count
     */
    public long rejectedProxyHeader() {
      return rejected[ServerCounters.Reason.PROXY_HEADER.ordinal()];
    }

    /**
     * Returns the connections closed 1008 for {@link Builder#maxMessageRate}.
     *
     * @return the count
     */
    public long closedForMessageRate() {
      return messageRateClosed;
    }

    /**
     * Returns the data messages received, whole (the one that put a connection over its message
     * rate included: it was received, though not delivered).
     *
     * @return the count
     */
    public long messagesIn() {
      return messagesIn;
    }

    /**
     * Returns the data messages sent: whole ones, fragmented ones (at their final fragment) and
     * topic deliveries (one per subscriber).
     *
     * @return the count
     */
    public long messagesOut() {
      return messagesOut;
    }

    /**
     * Returns the payload bytes of the messages received (after decompression).
     *
     * @return the count
     */
    public long bytesIn() {
      return bytesIn;
    }

    /**
     * Returns the payload bytes of the messages sent (text as UTF-8, before compression; a topic's
     * message counts its frame's payload once per subscriber).
     *
     * @return the count
     */
    public long bytesOut() {
      return bytesOut;
    }

    /**
     * Returns the sends refused because a connection's outbound queue was full.
     *
     * @return the count
     */
    public long sendQueueFull() {
      return sendQueueFull;
    }

    /**
     * Returns how many times the server stopped accepting because the process or the system had
     * no file descriptor left (EMFILE, ENFILE): one per episode, however many accepts failed in
     * it. Accepting resumes by itself (pauses of 10 ms doubling up to 1 s) and open connections
     * are served meanwhile; each episode is logged once and recorded as a {@code
     * dev.wsjava.AcceptPaused} Flight Recorder event.
     *
     * @return the count
     */
    public long descriptorExhaustions() {
      return descriptorExhaustions;
    }

    @Override
    public String toString() {
      return "Stats[open=" + open + ", total=" + opened + ", rejected=" + java.util.Arrays.toString(rejected)
          + ", messageRateClosed=" + messageRateClosed + ", in=" + messagesIn + "/" + bytesIn
          + ", out=" + messagesOut + "/" + bytesOut + ", sendQueueFull=" + sendQueueFull
          + ", descriptorExhaustions=" + descriptorExhaustions + "]";
    }
  }

  /**
   * Stops accepting, sends 1001 to every WebSocket, waits up to {@code grace}, then aborts what
   * is left.
   *
   * @param grace the longest wait
   * @return true when everything closed in time
   * @throws InterruptedException when interrupted while waiting
   */
  public boolean shutdown(Duration grace) throws InterruptedException {
    boolean clean = transport.shutdown(grace);
    Loggers.SERVER.log(
        System.Logger.Level.DEBUG,
        () -> "stopped port " + port() + (clean ? "" : " (connections aborted after the grace)")
            + "; " + stats());
    return clean;
  }

  /**
   * Drains the server, as before a restart or a deploy: stops accepting (the listening socket
   * closes, so a balancer's health check takes the node out), refuses upgrades already under way
   * with 503, closes every WebSocket with 1012 (service restart) one after the other, evenly spread
   * over {@code window} so that their clients do not all reconnect to the other nodes at once, then
   * waits up to {@link #DRAIN_FLUSH_GRACE} for the closing handshakes (what was queued before the
   * close is sent first) and stops, aborting what is left. Runs on a thread of its own; calling it
   * again returns the same future.
   *
   * @param window how long the closes are spread over; zero closes all at once
   * @return completes with true when every connection closed cleanly, false when some were aborted
   */
  public CompletableFuture<Boolean> drain(Duration window) {
    return drain(window, Clock.SYSTEM);
  }

  /** {@link #drain(Duration)} on a clock a test drives. */
  CompletableFuture<Boolean> drain(Duration window, Clock clock) {
    if (window.isNegative()) {
      throw new IllegalArgumentException("the drain window must not be negative: " + window);
    }
    CompletableFuture<Boolean> done = new CompletableFuture<>();
    if (!drained.compareAndSet(null, done)) {
      return drained.get();
    }
    serving.draining = true;
    transport.stopAccepting();
    List<dev.wsjava.transport.Connection> open = serving.openConnections();
    Loggers.SERVER.log(
        System.Logger.Level.INFO,
        () -> "draining port " + port() + ": " + open.size() + " connection(s) close with 1012 over "
            + window);
    Thread.ofPlatform().name("wsjava-drain-" + port()).start(() -> {
      try {
        Drain.spread(open, window.toNanos(), clock, WebSocketServer::restart);
        // Upgrades that were under way when accepting stopped opened meanwhile.
        serving.openConnections().forEach(WebSocketServer::restart);
        done.complete(shutdown(DRAIN_FLUSH_GRACE));
      } catch (Throwable e) {
        done.completeExceptionally(e);
      }
    });
    return done;
  }

  private static void restart(dev.wsjava.transport.Connection c) {
    try {
      c.close(CloseCode.SERVICE_RESTART, "service restart: reconnect");
    } catch (RuntimeException e) {
      // closed meanwhile
    }
  }

  /**
   * Serves new connections with this TLS context from now on, for a renewed certificate: open
   * connections keep the one they started with. Thread-safe.
   *
   * @param context the new context (see {@link TlsContexts})
   * @throws IllegalStateException when the server was started without {@link Builder#tls}
   */
  public void reloadTls(SSLContext context) {
    transport.reloadTls(Objects.requireNonNull(context, "context"));
    Loggers.SERVER.log(System.Logger.Level.INFO, () -> "port " + port() + ": TLS context reloaded");
  }

  /** Shuts down with {@link #DEFAULT_SHUTDOWN_GRACE}. */
  @Override
  public void close() {
    transport.close();
    Loggers.SERVER.log(System.Logger.Level.DEBUG, () -> "stopped port " + port() + "; " + stats());
  }

  /** The handshake rules of a route (or of the server's routes) with these settings. */
  private static ServerHandshakeConfig handshakeConfig(
      WebSocketConfig config, Predicate<String> originPolicy) {
    return ServerHandshakeConfig.defaults()
        .withOriginPolicy(originPolicy)
        .withSubprotocolSelector(Transports.subprotocolSelector(config.subprotocols()))
        .withExtensions(Transports.extensions(config))
        .withLimits(HttpHeadLimits.defaults());
  }

  /** Configures and starts a {@link WebSocketServer}. Not thread-safe. */
  public static final class Builder {
    private String host = "localhost";
    private int port = 8080;
    private WebSocketConfig config = WebSocketConfig.defaults();
    private SSLContext tls;
    private ServerBuilder.ClientAuth clientAuth = ServerBuilder.ClientAuth.NONE;
    private Predicate<String> originPolicy = origin -> true;
    private final Router.Builder<Acceptor> routes = Router.builder();
    private final Hook hook = new Hook();
    /** The server this builder starts, for the requests' {@code server()}. */
    private final ServerRef self = new ServerRef();
    /** Each WebSocket route's hook (its own decision, or the server's), by path. */
    private final Map<String, Hook> routeHooks = new LinkedHashMap<>();
    /** What routes with settings of their own change in the server's, by path. */
    private final Map<String, Consumer<WebSocketConfig.Builder>> routeSettings = new LinkedHashMap<>();
    private int maxConnections = Integer.MAX_VALUE;
    private int maxPerAddress = Integer.MAX_VALUE;
    private RateLimit handshakeRate;
    private RateLimit messageRate;
    private java.util.function.LongSupplier clock = System::nanoTime;
    private boolean proxyProtocol;
    private dev.wsjava.internal.proxyprotocol.TrustedProxies trustedProxies =
        dev.wsjava.internal.proxyprotocol.TrustedProxies.none();

    private Builder() {}

    /**
     * Sets the address to listen on.
     *
     * @param host a host name or address, for example {@code 127.0.0.1} or {@code 0.0.0.0}
     * @param port the port, 0 for any free one
     * @return this builder
     */
    public Builder bind(String host, int port) {
      this.host = Objects.requireNonNull(host, "host");
      this.port = port;
      return this;
    }

    /**
     * Sets the configuration (transport, limits, deflate, timeouts, ...).
     *
     * @param value the configuration
     * @return this builder
     */
    public Builder config(WebSocketConfig value) {
      config = Objects.requireNonNull(value, "config");
      return this;
    }

    /**
     * Serves {@code wss://} and {@code https://} with this context (see {@link TlsContexts}).
     *
     * @param context the server's TLS context
     * @return this builder
     */
    public Builder tls(SSLContext context) {
      tls = Objects.requireNonNull(context, "context");
      return this;
    }

    /**
     * Mutual TLS: every client must present a certificate that the {@link #tls} context's trust
     * managers accept (see {@link TlsContexts#fromPkcs12(Path, char[], Path)}), or its TLS
     * handshake fails. The handshake hook sees the chain ({@link
     * HandshakeRequest#peerCertificates()}). Replaces {@link #requestClientCertificates()}.
     *
     * @return this builder
     */
    public Builder requireClientCertificates() {
      clientAuth = ServerBuilder.ClientAuth.REQUIRE;
      return this;
    }

    /**
     * Mutual TLS where the client may decline: a client asked for a certificate may present none
     * (its {@link HandshakeRequest#peerCertificates()} are then empty, and the hook decides), but
     * one it presents must be trusted. Replaces {@link #requireClientCertificates()}.
     *
     * @return this builder
     */
    public Builder requestClientCertificates() {
      clientAuth = ServerBuilder.ClientAuth.REQUEST;
      return this;
    }

    /**
     * Requires every connection to start with a PROXY protocol header, version 1 or 2, as a load
     * balancer in front sends it (HAProxy's {@code send-proxy} or {@code send-proxy-v2}, AWS NLB,
     * GCP and Azure TCP balancers with the PROXY protocol on). It is read before TLS and HTTP,
     * within the handshake timeout, and its source address becomes the client's: {@link
     * HandshakeRequest#remoteAddress()}, {@link WebSocket#remoteAddress()}, the per-address limits,
     * logs and events see it. A connection without a valid header is closed without an answer and
     * counted ({@link Stats#rejectedProxyHeader()}). A header that says to use the connection's own
     * addresses (the balancer's health checks: {@code LOCAL}, {@code UNKNOWN}) is accepted.
     *
     * <p>Only for a port that nothing but the balancer can reach: whoever can connect can claim
     * any address. Without this option no header is looked for, and a client sending one is
     * answered 400 like any request that is not HTTP.
     *
     * @return this builder
     */
    public Builder requireProxyProtocol() {
      proxyProtocol = true;
      return this;
    }

    /**
     * Believes the {@code Forwarded} (RFC 7239) and {@code X-Forwarded-For} fields of requests
     * that come from these addresses (balancers that speak HTTP, such as nginx): the client is then
     * the right-most address in the fields that is not one of them ({@code Forwarded} when the
     * request has it, else {@code X-Forwarded-For}), and the per-address limits, logs, events and
     * {@link HandshakeRequest#remoteAddress()} see that client. Requests from other addresses are
     * taken as they come, their fields ignored. Replaces the proxies set before; none by default.
     *
     * @param cidrs IP addresses ({@code 127.0.0.1}, {@code ::1}) or ranges ({@code 10.0.0.0/8},
     *     {@code fd00::/8}); host names are refused
     * @return this builder
     * @throws IllegalArgumentException naming an entry that is not an address or range
     */
    public Builder trustedProxies(String... cidrs) {
      trustedProxies = dev.wsjava.internal.proxyprotocol.TrustedProxies.of(List.of(cidrs));
      return this;
    }

    /**
     * Accepts WebSocket upgrades only from origins this predicate allows (403 otherwise). The
     * predicate gets {@code null} when the request has no {@code Origin} (non-browser clients).
     *
     * @param policy the origin check
     * @return this builder
     */
    public Builder originPolicy(Predicate<String> policy) {
      originPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * Accepts WebSocket upgrades only from these exact origins (and from clients sending none).
     *
     * @param origins for example {@code https://example.com}
     * @return this builder
     */
    public Builder allowOrigins(String... origins) {
      List<String> allowed = List.of(origins);
      return originPolicy(origin -> origin == null || allowed.contains(origin));
    }

    /**
     * Caps the WebSocket connections open at once; an upgrade beyond it is answered 503 with
     * {@code Retry-After} (counted in {@link Stats#rejectedServerFull()}). Upgrades decided at the
     * same instant see the same count, so a burst may pass the cap by the handshakes in flight.
     *
     * @param value at least 1; unlimited by default
     * @return this builder
     */
    public Builder maxConnections(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("maxConnections must be positive: " + value);
      }
      maxConnections = value;
      return this;
    }

    /**
     * Caps the WebSocket connections one remote IP address holds at once; an upgrade beyond it is
     * answered 429 with {@code Retry-After} ({@link Stats#rejectedAddressFull()}). Behind a proxy
     * every client shares the proxy's address, unless the proxy tells the client's ({@link
     * #requireProxyProtocol()}, {@link #trustedProxies}). Opt-in: the library sets no cap unless
     * asked (the {@code wsjava serve} command sets one by default).
     *
     * @param value at least 1; unlimited by default
     * @return this builder
     */
    public Builder maxConnectionsPerAddress(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("maxConnectionsPerAddress must be positive: " + value);
      }
      maxPerAddress = value;
      return this;
    }

    /**
     * Caps how fast one remote IP address may open WebSocket connections: {@code count} upgrades
     * per {@code window}, in bursts of up to {@code count}. One beyond is answered 429 with {@code
     * Retry-After} saying when the next would pass ({@link Stats#rejectedHandshakeRate()}).
     * Opt-in: no limit unless asked (the {@code wsjava serve} command sets one by default).
     *
     * @param count upgrades per window, at least 1
     * @param window the window, positive
     * @return this builder
     */
    public Builder maxHandshakeRatePerAddress(int count, Duration window) {
      handshakeRate = RateLimit.of(count, window);
      return this;
    }

    /**
     * Caps how fast one connection's peer may send messages: {@code count} per {@code window}, in
     * bursts of up to {@code count}. The message beyond is dropped and the connection closed with
     * 1008 (policy violation; {@link Stats#closedForMessageRate()}). Off by default.
     *
     * @param count messages per window, at least 1
     * @param window the window, positive
     * @return this builder
     */
    public Builder maxMessageRate(int count, Duration window) {
      messageRate = RateLimit.of(count, window);
      return this;
    }

    /** The clock of the rate limits, in nanoseconds; tests drive it by hand. */
    Builder clock(java.util.function.LongSupplier nanos) {
      clock = Objects.requireNonNull(nanos, "clock");
      return this;
    }

    /**
     * Lets the application decide every WebSocket upgrade before the 101: it sees the whole
     * request ({@link HandshakeRequest}: headers, cookies, query and path parameters, addresses,
     * the TLS peer) and accepts (choosing the subprotocol, adding 101 fields, attaching state) or
     * rejects with any status. It runs on the connection's I/O thread after the RFC's own checks
     * and the origin policy pass, so it must be quick: a check that calls out belongs in {@link
     * #onHandshakeAsync}. A hook that throws is answered 500. Replaces a hook set before.
     *
     * @param hook the decision, made for every upgrade on every WebSocket route
     * @return this builder
     */
    public Builder onHandshake(Function<HandshakeRequest, HandshakeDecision> hook) {
      this.hook.sync = Objects.requireNonNull(hook, "hook");
      this.hook.async = null;
      return this;
    }

    /**
     * Like {@link #onHandshake}, for a decision that completes later (a token checked by another
     * service): the connection reads nothing meanwhile, and is answered 503 when the decision takes
     * longer than the handshake timeout ({@link WebSocketConfig#handshakeTimeout()}), 500 when it
     * fails. The stage may complete on any thread. Replaces a hook set before.
     *
     * @param hook returns the decision's stage
     * @return this builder
     */
    public Builder onHandshakeAsync(
        Function<HandshakeRequest, ? extends CompletionStage<HandshakeDecision>> hook) {
      this.hook.async = Objects.requireNonNull(hook, "hook");
      this.hook.sync = null;
      return this;
    }

    /**
     * Adds a WebSocket route whose connections report to {@code listener} (one listener for
     * every connection of the route; it tells them apart by the {@link WebSocket} argument). The
     * route runs with the server's settings ({@link #config}) and handshake hook ({@link
     * #onHandshake}).
     *
     * @param path the request path, for example {@code /echo}, or a template such as {@code
     *     /rooms/{room}} whose parameters the socket's {@link WebSocket#request()} holds (a
     *     literal segment beats a parameter when several templates match)
     * @param listener the event callbacks
     * @return this builder
     */
    public Builder websocket(String path, WebSocketListener listener) {
      return websocket(path, listener, null);
    }

    /**
     * Adds a WebSocket route with settings of its own: {@code settings} gets a builder holding the
     * server's configuration ({@link #config}, whenever it is set) and changes what this route
     * needs, for example {@code cfg -> cfg.maxMessageSize(64 << 10)} or {@code cfg ->
     * cfg.streamMessages(true)}. The precedence is one rule: what the route sets overrides the
     * server; what it leaves unset is the server's. A route may set the per-connection settings:
     * the limits, streaming, deflate, subprotocols, the send-queue bound, the outbound frame size,
     * the idle, ping, pong and close timeouts and the progress rule; the others are the server's
     * alone (transport, event loops, read buffer size, socket options, handshake timeout, memory
     * budget: every route shares the server's one budget), and a route that changes one makes
     * {@link #start()} fail. The route's handshake hook is set with {@link #onHandshake(String,
     * Function)}.
     *
     * @param path the request path, or a template such as {@code /rooms/{room}}
     * @param listener the event callbacks
     * @param settings changes the server's settings for this route; null for none
     * @return this builder
     */
    public Builder websocket(
        String path, WebSocketListener listener, Consumer<WebSocketConfig.Builder> settings) {
      Objects.requireNonNull(listener, "listener");
      return addWebSocket(
          path,
          (request, attachment) ->
              new WebSocketImpl(listener, shared(path, request.target()), request, attachment),
          settings);
    }

    /**
     * Adds a WebSocket route served in blocking style: each connection runs {@code handler} on a
     * virtual thread of its own. The route runs with the server's settings and hook.
     *
     * @param path the request path, or a template such as {@code /rooms/{room}}
     * @param handler the code that serves one connection
     * @return this builder
     */
    public Builder websocket(String path, WebSocketHandler handler) {
      return websocket(path, handler, null);
    }

    /**
     * Adds a WebSocket route served in blocking style, with settings of its own; {@code settings}
     * works as in {@link #websocket(String, WebSocketListener, Consumer)}, for example a streaming
     * upload route: {@code cfg -> cfg.streamMessages(true).maxStreamedMessageSize(1L << 30)}.
     *
     * @param path the request path, or a template such as {@code /rooms/{room}}
     * @param handler the code that serves one connection
     * @param settings changes the server's settings for this route; null for none
     * @return this builder
     */
    public Builder websocket(
        String path, WebSocketHandler handler, Consumer<WebSocketConfig.Builder> settings) {
      Objects.requireNonNull(handler, "handler");
      return addWebSocket(
          path,
          (request, attachment) ->
              BlockingHandlers.start(handler, shared(path, request.target()), request, attachment),
          settings);
    }

    private Builder addWebSocket(
        String path,
        java.util.function.BiFunction<HandshakeRequest, Object, WebSocketImpl> make,
        Consumer<WebSocketConfig.Builder> settings) {
      Hook route = routeHook(path);
      routes.websocket(path, route.acceptor(path, make));
      if (settings != null) {
        routeSettings.put(path, settings);
      }
      return this;
    }

    /** The hook of a route: its own decision once set, else the server's. */
    private Hook routeHook(String path) {
      return routeHooks.computeIfAbsent(Objects.requireNonNull(path, "path"), p -> new Hook(hook));
    }

    /**
     * Gives one WebSocket route a handshake hook of its own, which decides that route's upgrades
     * instead of the server's hook ({@link #onHandshake(Function)}); routes without one use the
     * server's. Runs as the server's hook does (on the I/O thread, after the RFC's checks, the
     * origin policy and the connection limits). Replaces a hook this route had.
     *
     * @param path the route's path, exactly as given to {@code websocket(...)}, before or after
     *     this call; {@link #start()} fails when there is no such WebSocket route
     * @param hook the decision, made for every upgrade on this route
     * @return this builder
     */
    public Builder onHandshake(String path, Function<HandshakeRequest, HandshakeDecision> hook) {
      Hook route = routeHook(path);
      route.sync = Objects.requireNonNull(hook, "hook");
      route.async = null;
      return this;
    }

    /**
     * Like {@link #onHandshake(String, Function)}, for a decision that completes later (see {@link
     * #onHandshakeAsync(Function)}).
     *
     * @param path the route's path, exactly as given to {@code websocket(...)}
     * @param hook returns the decision's stage
     * @return this builder
     */
    public Builder onHandshakeAsync(
        String path, Function<HandshakeRequest, ? extends CompletionStage<HandshakeDecision>> hook) {
      Hook route = routeHook(path);
      route.async = Objects.requireNonNull(hook, "hook");
      route.sync = null;
      return this;
    }

    /** The request target, as the route's own string when they are equal: one copy, not one each. */
    private static String shared(String path, String target) {
      return target.equals(path) ? path : target;
    }

    /**
     * Adds a plain HTTP GET (and HEAD) route.
     *
     * @param path the request path, for example {@code /}, or a template such as {@code
     *     /users/{id}} (the handler reads {@link
     *     dev.wsjava.http.HttpRequest#pathParam})
     * @param handler answers the request; runs on the connection's I/O thread, so keep it short
     * @return this builder
     */
    public Builder get(String path, HttpHandler handler) {
      routes.get(path, served(handler));
      return this;
    }

    /** The handler, given requests that know their server. */
    private HttpHandler served(HttpHandler handler) {
      Objects.requireNonNull(handler, "handler");
      ServerRef ref = self;
      return request -> {
        if (request instanceof dev.wsjava.internal.http.Request r) {
          r.servedBy(ref::get);
        }
        return handler.handle(request);
      };
    }

    /**
     * Adds a plain HTTP route for any method.
     *
     * @param method for example {@code POST}
     * @param path the request path, or a template
     * @param handler answers the request
     * @return this builder
     */
    public Builder route(String method, String path, HttpHandler handler) {
      routes.route(method, path, served(handler));
      return this;
    }

    /**
     * Serves the files under {@code directory} at {@code urlPrefix} (no listing; {@code
     * index.html} for a directory; nothing outside the directory).
     *
     * @param urlPrefix for example {@code /static}
     * @param directory the directory to serve
     * @return this builder
     */
    public Builder staticFiles(String urlPrefix, Path directory) {
      routes.staticFiles(urlPrefix, directory);
      return this;
    }

    /**
     * Binds and starts the server.
     *
     * @return the running server
     * @throws IOException when the address cannot be bound
     */
    public WebSocketServer start() throws IOException {
      ConnectionConfig connection = config.connectionConfig(false);
      for (Map.Entry<String, Hook> e : routeHooks.entrySet()) {
        String path = e.getKey();
        Hook route = e.getValue();
        Consumer<WebSocketConfig.Builder> settings = routeSettings.get(path);
        route.connectionConfig = null;
        if (settings == null) {
          continue;
        }
        WebSocketConfig.Builder b = config.toBuilder();
        settings.accept(b);
        WebSocketConfig own = b.build();
        String serverWide = config.serverWideDifference(own);
        if (serverWide != null) {
          throw new IllegalArgumentException(
              "route " + path + " sets " + serverWide + ", a server-wide setting: set it in config(...)");
        }
        // One memory budget for the whole server, whatever the route.
        route.connectionConfig = own.connectionConfig(false).withMemory(connection.memory());
        routes.websocketHandshake(path, handshakeConfig(own, originPolicy)); // throws when no such route
      }
      for (String path : routeHooks.keySet()) {
        if (!routes.hasWebSocket(path)) {
          throw new IllegalStateException("onHandshake(\"" + path + "\", ...): no WebSocket route " + path);
        }
      }
      Router<Acceptor> router = routes.handshake(handshakeConfig(config, originPolicy)).build();
      if (clientAuth != ServerBuilder.ClientAuth.NONE && tls == null) {
        throw new IllegalStateException("client certificates need TLS: set tls(...) too");
      }
      Serving serving =
          new Serving(maxConnections, maxPerAddress, handshakeRate, messageRate, clock, trustedProxies);
      serving.server = self;
      hook.serving = serving;
      hook.server = self;
      routeHooks.values().forEach(h -> {
        h.serving = serving;
        h.server = self;
      });
      WebSocketServer server =
          new WebSocketServer(
              Transports.server(config, connection, host, port, tls, clientAuth, proxyProtocol, router,
                  serving::refusedByProtocol),
              serving);
      self.set(server);
      Loggers.SERVER.log(
          System.Logger.Level.DEBUG,
          () ->
              "serving "
                  + router
                  + " at "
                  + (tls == null ? "ws://" : "wss://")
                  + server.address().getHostString()
                  + ":"
                  + server.port()
                  + " on the "
                  + config.transport()
                  + " transport");
      return server;
    }
  }
}
