package dev.wsjava;

import dev.wsjava.events.Loggers;
import dev.wsjava.handshake.HttpHeadLimits;
import dev.wsjava.handshake.ServerHandshakeConfig;
import dev.wsjava.http.HttpHandler;
import dev.wsjava.internal.http.Router;
import dev.wsjava.transport.Acceptor;
import dev.wsjava.transport.ServerBuilder;
import dev.wsjava.transport.ServerTransport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
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
 * time to close.
 */
public final class WebSocketServer implements AutoCloseable {
  /** How long {@link #close()} waits for connections to close after sending 1001. */
  public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(5);

  private final ServerTransport transport;
  private final Serving serving;

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
   * Returns the number of open connections (WebSocket and HTTP).
   *
   * @return the count
   */
  public int openConnections() {
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
     * Returns the WebSocket connections open now (from their open to their close callback).
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

  /** Shuts down with {@link #DEFAULT_SHUTDOWN_GRACE}. */
  @Override
  public void close() {
    transport.close();
    Loggers.SERVER.log(System.Logger.Level.DEBUG, () -> "stopped port " + port() + "; " + stats());
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
    private int maxConnections = Integer.MAX_VALUE;
    private int maxPerAddress = Integer.MAX_VALUE;
    private RateLimit handshakeRate;
    private RateLimit messageRate;
    private java.util.function.LongSupplier clock = System::nanoTime;

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
     * every client shares the proxy's address.
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
     * every connection of the route; it tells them apart by the {@link WebSocket} argument).
     *
     * @param path the request path, for example {@code /echo}, or a template such as {@code
     *     /rooms/{room}} whose parameters the socket's {@link WebSocket#request()} holds (see
     *     {@link Router} for how paths are matched)
     * @param listener the event callbacks
     * @return this builder
     */
    public Builder websocket(String path, WebSocketListener listener) {
      Objects.requireNonNull(listener, "listener");
      routes.websocket(
          path,
          hook.acceptor(
              path,
              (request, attachment) ->
                  new WebSocketImpl(
                      listener, shared(path, request.target()), request, attachment)));
      return this;
    }

    /**
     * Adds a WebSocket route served in blocking style: each connection runs {@code handler} on a
     * virtual thread of its own.
     *
     * @param path the request path, or a template such as {@code /rooms/{room}}
     * @param handler the code that serves one connection
     * @return this builder
     */
    public Builder websocket(String path, WebSocketHandler handler) {
      Objects.requireNonNull(handler, "handler");
      routes.websocket(
          path,
          hook.acceptor(
              path,
              (request, attachment) ->
                  BlockingHandlers.start(
                      handler, shared(path, request.target()), request, attachment)));
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
     *     /users/{id}} (the handler reads {@link dev.wsjava.internal.http.Request#pathParam})
     * @param handler answers the request; runs on the connection's I/O thread, so keep it short
     * @return this builder
     */
    public Builder get(String path, HttpHandler handler) {
      routes.get(path, handler);
      return this;
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
      routes.route(method, path, handler);
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
      ServerHandshakeConfig handshake =
          ServerHandshakeConfig.defaults()
              .withOriginPolicy(originPolicy)
              .withSubprotocolSelector(Transports.subprotocolSelector(config.subprotocols()))
              .withExtensions(Transports.extensions(config))
              .withLimits(HttpHeadLimits.defaults());
      Router<Acceptor> router = routes.handshake(handshake).build();
      if (clientAuth != ServerBuilder.ClientAuth.NONE && tls == null) {
        throw new IllegalStateException("client certificates need TLS: set tls(...) too");
      }
      Serving serving = new Serving(maxConnections, maxPerAddress, handshakeRate, messageRate, clock);
      hook.serving = serving;
      WebSocketServer server =
          new WebSocketServer(
              Transports.server(config, host, port, tls, clientAuth, router, serving::refusedByProtocol),
              serving);
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
