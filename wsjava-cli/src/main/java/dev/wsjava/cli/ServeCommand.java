package dev.wsjava.cli;

import dev.wsjava.HandshakeDecision;
import dev.wsjava.TlsContexts;
import dev.wsjava.Topics;
import dev.wsjava.Transport;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketServer;
import dev.wsjava.cluster.nats.NatsBackplane;
import dev.wsjava.cluster.redis.RedisBackplane;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.http.HttpResponse;
import dev.wsjava.micrometer.WsjavaMetrics;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code wsjava serve}: an echo and chat server with a browser page. {@code /} serves the page,
 * {@code /echo} echoes every message, {@code /chat} sends every message to every client. Runs
 * until Ctrl-C or SIGTERM, then drains: every WebSocket is closed with 1012, spread over the drain
 * window, so that behind a balancer the clients reconnect to the other nodes a few at a time.
 */
@Command(
    name = "serve",
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Echo and chat server with a browser page: / (page), /echo (echo), /chat (everyone's"
          + " messages to everyone; ?nick=NAME), /topics (?sub=A,B subscribes; \"TOPIC TEXT\""
          + " publishes).",
      "Listens on 127.0.0.1 only: --host 0.0.0.0 (or ::) serves other machines too.",
      "--token or --basic-auth admits to /chat only who presents them, named as they say;"
          + " --metrics adds /metrics.",
      "Ctrl-C or SIGTERM drains: stops accepting, closes every WebSocket with 1012 (service"
          + " restart) spread over --drain-window, and stops.",
      ""
    },
    footer = {
      "",
      "A chat client that reads more slowly than the room talks (past --chat-queue) is closed"
          + " with 1008, or reset when it does not even take its close frame within 2 s.",
      "Protective defaults (serve only; the library has none): one client address may hold "
          + ServeCommand.DEFAULT_MAX_PER_ADDRESS + " WebSockets and open "
          + ServeCommand.DEFAULT_HANDSHAKE_RATE + "; --max-per-address 0 and --handshake-rate 0"
          + " lift them.",
      "Sizes take k, m, g (powers of 1024); durations take ms, s, m, h (a bare number is seconds)."
    })
public final class ServeCommand implements Callable<Integer> {
  /**
   * The exit status when the server failed beyond recovery rather than being stopped (sysexits'
   * EX_SOFTWARE): a supervisor restarts the process instead of finding it alive and deaf.
   */
  public static final int FAILED = 70;

  @ParentCommand private WsjavaCommand parent;

  @Spec private CommandSpec spec;

  @Mixin private ListenAddress listen;

  @Option(names = {"-p", "--port"}, paramLabel = "PORT", defaultValue = "8080",
      description = "Port to listen on; 0 picks a free one.")
  private int port;

  @Option(names = "--transport", paramLabel = "nio|blocking", defaultValue = "nio",
      description = "NIO event loops, or blocking sockets on virtual threads.")
  private Transport transport;

  @Option(names = "--busy-poll", paramLabel = "adaptive|off|MICROS", defaultValue = "adaptive",
      description = "How long an NIO event loop polls for more work before it blocks: adaptive"
          + " (50 us; skipped for a while after spins that find nothing), off"
          + " (block at once: the least CPU, slower wake-ups), or adaptive up to MICROS us.")
  private String busyPoll;

  @Option(names = "--keystore", paramLabel = "FILE",
      description = "Serve https/wss with the key and certificate chain in this PKCS12 file.")
  private Path keystore;

  @Option(names = "--keystore-password", paramLabel = "PASSWORD", defaultValue = "${env:WSJAVA_KEYSTORE_PASSWORD}",
      showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER,
      description = "The PKCS12 file's password (default: $WSJAVA_KEYSTORE_PASSWORD).")
  private String keystorePassword;

  @Option(names = "--cert", paramLabel = "PEM",
      description = "Serve https/wss with this certificate chain (leaf first); needs --key.")
  private Path certPem;

  @Option(names = "--key", paramLabel = "PEM",
      description = "The unencrypted PKCS#8 private key for --cert.")
  private Path keyPem;

  @Option(names = "--self-signed",
      description = "Serve https/wss with a certificate for localhost made at start (development"
          + " only); prints its SHA-256 fingerprint and PEM file.")
  private boolean selfSigned;

  @Option(names = "--no-deflate", description = "Do not accept permessage-deflate.")
  private boolean noDeflate;

  @Option(names = "--max-message", paramLabel = "SIZE", defaultValue = "16m",
      converter = Units.SizeConverter.class,
      description = "Largest message (and frame) accepted; larger ones close with 1009.")
  private long maxMessage;

  @Option(names = "--send-queue", paramLabel = "SIZE", defaultValue = "16m",
      converter = Units.SizeConverter.class,
      description = "Bytes that may wait to be sent to one client.")
  private long sendQueue;

  @Option(names = "--chat-queue", paramLabel = "SIZE", defaultValue = "1m",
      converter = Units.SizeConverter.class,
      description = "Bytes of /chat messages that may wait for one member; past it the member is"
          + " closed (1008). Not part of --memory-budget: the messages are shared by every"
          + " member, so size it times the members you expect as the worst case.")
  private long chatQueue;

  @Option(names = "--memory-budget", paramLabel = "SIZE", defaultValue = "0",
      converter = Units.SizeConverter.class,
      description = "Memory all clients together may make the server hold (messages being read,"
          + " send queues); 0 for a quarter of the maximum heap. When it is spent, clients that"
          + " need more are not read until memory comes back.")
  private long memoryBudget;

  @Option(names = "--memory-stall-timeout", paramLabel = "DURATION", defaultValue = "10s",
      description = "How long a client may wait for the spent memory budget before the largest"
          + " holder is closed (1008).")
  private Duration memoryStallTimeout;

  /** The default of --max-per-address: a household or an office behind one NAT fits in it. */
  static final String DEFAULT_MAX_PER_ADDRESS = "256";

  /** The default of --handshake-rate: a reconnect storm of a NAT passes, a flood does not. */
  static final String DEFAULT_HANDSHAKE_RATE = "100/s";

  @Option(names = "--max-per-address", paramLabel = "N", defaultValue = DEFAULT_MAX_PER_ADDRESS,
      description = "WebSockets one client IP address may hold open at once; one more is answered"
          + " 429. 0 for no cap (behind a proxy every client has the proxy's address).")
  private int maxPerAddress;

  @Option(names = "--handshake-rate", paramLabel = "N/s|0", defaultValue = DEFAULT_HANDSHAKE_RATE,
      converter = Units.RateConverter.class,
      description = "WebSocket upgrades one client IP address may make: N a second (N/s; also N/m,"
          + " N/10s), in bursts of up to N; one more is answered 429 with Retry-After. 0 for no"
          + " limit.")
  private Units.Rate handshakeRate;

  @Option(names = "--idle-timeout", paramLabel = "DURATION", defaultValue = "0",
      description = "Close (1001) a connection quiet this long; 0 for never.")
  private Duration idleTimeout;

  @Option(names = "--ping-interval", paramLabel = "DURATION", defaultValue = "0",
      description = "Ping quiet clients this often, close (1011) those that do not answer; 0 for"
          + " never.")
  private Duration pingInterval;

  @Option(names = "--cluster", paramLabel = "URI",
      description = "Share /chat with every server that uses this Redis or NATS, for example"
          + " redis://127.0.0.1:6379 or nats://127.0.0.1:4222 (messages while it is unreachable"
          + " stay on this server).")
  private String cluster;

  @Option(names = "--history", paramLabel = "N", defaultValue = "0",
      description = "With --cluster: keep about N messages of each topic in Redis (streams) or"
          + " NATS (JetStream: nats-server -js), so that a client coming back resumes its topics"
          + " with what it missed, from any server (the page does this when its connection"
          + " drops). Messages then carry their id on a first line (\"ID chat\"); 0 for none.")
  private int history;

  @Option(names = "--resume-key", paramLabel = "KEY", defaultValue = "${env:WSJAVA_RESUME_KEY}",
      description = "The key that signs resume tokens (16 characters or more), the same on every"
          + " server; default $WSJAVA_RESUME_KEY, else one made from the --cluster URI (any"
          + " server of the cluster can then resume any client), else a random one.")
  private String resumeKey;

  @Option(names = "--resume-window", paramLabel = "DURATION", defaultValue = "2m",
      description = "How long a client that left may come back and resume its topics (default"
          + " ${DEFAULT-VALUE}).")
  private Duration resumeWindow;

  @Mixin private SocketBufferOptions socketBuffers;

  @Option(names = "--token", paramLabel = "NAME=TOKEN",
      description = "Admit to /chat only clients presenting a token (Authorization: Bearer TOKEN,"
          + " or ?token=TOKEN); the chat calls them NAME. Repeatable; others get 401.")
  private List<String> tokens = new ArrayList<>();

  @Option(names = "--basic-auth", paramLabel = "USER:PASSWORD",
      description = "Admit to /chat only clients with HTTP Basic credentials; the chat calls them"
          + " USER. Repeatable; others get 401.")
  private List<String> users = new ArrayList<>();

  @Option(names = "--proxy-protocol",
      description = "Require a PROXY protocol header (v1 or v2, as HAProxy's send-proxy and"
          + " send-proxy-v2 and cloud TCP balancers send it) before every connection, and take the"
          + " client's address from it. Only for a port that nothing but the balancer reaches.")
  private boolean proxyProtocol;

  @Option(names = "--trusted-proxy", paramLabel = "CIDR",
      description = "Believe X-Forwarded-For and Forwarded from this address or range (an HTTP"
          + " balancer such as nginx, e.g. 127.0.0.1 or 10.0.0.0/8): the client is the right-most"
          + " address there that is not a trusted proxy. Repeatable.")
  private List<String> trustedProxies = new ArrayList<>();

  @Option(names = "--drain-window", paramLabel = "DURATION", defaultValue = "10s",
      description = "On Ctrl-C or SIGTERM, close the WebSockets with 1012 one after the other over"
          + " this long, so that they reconnect to the other nodes gradually; 0 closes all at once."
          + " With the 5 s left for closing handshakes it fits the 30 s a container platform"
          + " usually waits after SIGTERM.")
  private Duration drainWindow;

  @Option(names = "--log-connections",
      description = "Print a line for every WebSocket upgrade, with the client's address (as the"
          + " PROXY header or a trusted proxy says).")
  private boolean logConnections;

  @Option(names = "--metrics",
      description = "Serve the server's counters at /metrics in Prometheus text format.")
  private boolean metrics;

  /**
   * Starts the server, prints what it serves and waits for Ctrl-C or SIGTERM.
   *
   * @return 0 after a graceful shutdown, {@link #FAILED} when the server failed beyond recovery
   *     (see {@link WebSocketServer#closeFuture()})
   * @throws Exception when the server cannot start (the message says why)
   */
  @Override
  public Integer call() throws Exception {
    Running running = start();
    PrintStream out = parent.io().out();
    for (String line : running.urls()) {
      out.println(line);
    }
    out.flush();
    Throwable failed = Shutdown.await("wsjava-shutdown", () -> {
      parent.io().err().println(
          "wsjava serve: draining, closing " + running.server().stats().connectionsOpen()
              + " WebSocket(s) with 1012 over " + drainWindow.toMillis() + " ms");
      running.drain(drainWindow);
    }, running.server().closeFuture());
    if (failed != null) {
      parent.io().err().println("wsjava serve: the server failed and stopped: " + failed);
      return FAILED;
    }
    return 0;
  }

  /** The event loops' spin that {@code --busy-poll} names. */
  private Duration busyPoll() {
    try {
      return busyPoll(busyPoll);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  /**
   * Reads a {@code --busy-poll} value: {@code adaptive} (the default spin, 50 µs at most), {@code
   * off} (none) or a number of microseconds (the most the adaptive spin polls).
   *
   * @param value the option's text
   * @return the event loops' spin
   * @throws IllegalArgumentException for anything else
   */
  static Duration busyPoll(String value) {
    switch (value) {
      case "adaptive":
        return WebSocketConfig.builder().build().eventLoopSpin();
      case "off":
        return Duration.ZERO;
      default:
        try {
          long micros = Long.parseLong(value);
          if (micros >= 0 && micros <= 1_000_000) {
            return Duration.ofNanos(micros * 1_000);
          }
        } catch (NumberFormatException e) {
          // the message below says what is accepted
        }
        throw new IllegalArgumentException(
            "--busy-poll takes adaptive, off, or microseconds from 0 to 1000000: " + value);
    }
  }

  /**
   * Starts the server with the parsed options and returns at once; for {@link #call()} and for
   * tests, which need the bound port.
   *
   * @return the running server
   * @throws Exception when the options are inconsistent ({@link ParameterException}), TLS
   *     material cannot be read, or the address cannot be bound
   */
  public Running start() throws Exception {
    PrintStream err = parent.io().err();
    Usage.checkListenPort(spec, "--port", port);
    listen.checkResolvable();
    if (maxPerAddress < 0) {
      throw new ParameterException(spec.commandLine(), "--max-per-address takes 0 (no cap) or more");
    }
    if (drainWindow.isNegative()) {
      throw new ParameterException(spec.commandLine(), "--drain-window must not be negative");
    }
    if (maxMessage < 1 || sendQueue < 1 || chatQueue < 1) {
      throw new ParameterException(
          spec.commandLine(), "--max-message, --send-queue and --chat-queue must be positive");
    }
    WebSocketConfig config =
        Units.messagesUpTo(socketBuffers.applyTo(WebSocketConfig.builder()), maxMessage)
            .transport(transport)
            .deflate(noDeflate ? null : PerMessageDeflate.defaults())
            // The echo pauses reading at its high-water mark; a largest message must fit above it.
            .maxQueuedBytes(Math.max(sendQueue, maxMessage + EchoListener.HIGH_WATER))
            .idleTimeout(idleTimeout)
            .pingInterval(pingInterval)
            .memoryBudget(memoryBudget)
            .memoryStallTimeout(memoryStallTimeout)
            .eventLoopSpin(busyPoll())
            .build();
    SelfSignedCertificate generated = selfSigned ? SelfSignedCertificate.create() : null;
    SSLContext tls = tls(generated);
    ChatAuth auth;
    try {
      auth = ChatAuth.of(tokens, users);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    String page = ChatAuth.page(resource("index.html"), auth);
    Topics topics = topics();
    ChatRoom chat = new ChatRoom(topics);
    PrometheusMeterRegistry registry =
        metrics ? new PrometheusMeterRegistry(PrometheusConfig.DEFAULT) : null;
    WebSocketServer.Builder builder =
        WebSocketServer.builder()
            .bind(listen.host, port)
            .config(config)
            .get("/", req -> HttpResponse.html(200, page).withHeader("Cache-Control", "no-store"))
            .websocket("/echo", new EchoListener())
            .websocket("/chat", chat)
            .websocket("/topics", new TopicsRoute(topics));
    if (tls != null) {
      builder.tls(tls);
    }
    // Protective defaults of the CLI only: the library sets no caps unless asked.
    if (maxPerAddress > 0) {
      builder.maxConnectionsPerAddress(maxPerAddress);
    }
    if (!handshakeRate.off()) {
      builder.maxHandshakeRatePerAddress(handshakeRate.count(), handshakeRate.window());
    }
    if (proxyProtocol) {
      builder.requireProxyProtocol();
    }
    try {
      builder.trustedProxies(trustedProxies.toArray(String[]::new));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--trusted-proxy: " + e.getMessage());
    }
    if (auth != null || logConnections) {
      builder.onHandshake(req -> {
        HandshakeDecision d =
            auth != null && req.path().equals("/chat") ? auth.decide(req) : HandshakeDecision.accept();
        if (logConnections) {
          err.println("wsjava serve: " + (d.isAccepted() ? "upgrade " : "refused " + d.status() + " ")
              + req.path() + " from " + address(req.remoteAddress()));
        }
        return d;
      });
    }
    if (registry != null) {
      builder.get(
          "/metrics",
          req ->
              HttpResponse.bytes(
                  200,
                  "text/plain; version=0.0.4; charset=utf-8",
                  registry.scrape().getBytes(StandardCharsets.UTF_8)));
    }
    WebSocketServer server;
    try {
      server = builder.start();
    } catch (IOException e) {
      topics.close();
      if (generated != null) {
        generated.delete();
      }
      throw new IOException("cannot listen on " + listen.host + ":" + port + ": " + Main.describe(e), e);
    }
    if (registry != null) {
      new WsjavaMetrics(server, Tags.of("server", "wsjava-serve")).bindTo(registry);
    }
    TlsWatch watch = null;
    if (keystore != null || certPem != null) {
      WebSocketServer started = server;
      watch = new TlsWatch(keystore != null ? List.of(keystore) : List.of(certPem, keyPem),
          () -> tls(null), started::reloadTls, err).start();
    }
    err.println(
        "wsjava serve: " + transport.name().toLowerCase(Locale.ROOT) + " transport, permessage-deflate "
            + (noDeflate ? "off" : "on") + ", messages up to " + Units.formatSize(maxMessage)
            + socketBuffers.describe()
            + (listen.everyInterface() ? ", listening on every interface" : "")
            + (cluster != null ? ", /chat shared through " + cluster : "")
            + (auth != null ? ", /chat needs " + (users.isEmpty() ? "a token" : "credentials") : "")
            + (registry != null ? ", metrics at /metrics" : "")
            + (proxyProtocol ? ", PROXY protocol required" : "")
            + (trustedProxies.isEmpty() ? "" : ", trusting forwarding fields from " + trustedProxies)
            + (watch != null ? ", certificate reloaded when its files change" : ""));
    if (generated != null) {
      err.println(
          "wsjava serve: self-signed development certificate for localhost, 127.0.0.1, ::1\n"
              + "  SHA-256 " + generated.fingerprint() + "\n"
              + "  PEM     " + generated.certificatePem()
              + "  (wsjava connect --cacert " + generated.certificatePem() + " URL)");
    }
    return new Running(server, chat, topics, urls(tls != null, server.port(), registry != null, auth),
        generated, watch);
  }

  /**
   * The room's topics: a slow member is closed with 1008; with --cluster, shared (Redis, NATS),
   * and with --history, recoverable; every connection gets resume tokens.
   */
  private Topics topics() {
    Topics.Builder b = Topics.builder()
        .maxQueuedBytes(chatQueue)
        .overflow(Topics.Overflow.CLOSE_POLICY_VIOLATION)
        .resume(resumeKey(), resumeWindow);
    boolean redis = cluster != null
        && (cluster.startsWith("redis://") || cluster.startsWith("rediss://"));
    if (history < 0 || (history > 0 && cluster == null)) {
      throw new ParameterException(spec.commandLine(), "--history takes a count of 0 or more, and"
          + " only with --cluster URI (a single server keeps no history), not " + history);
    }
    if (redis) {
      b.backplane(RedisBackplane.builder().uri(cluster).history(history).build());
    } else if (cluster != null) {
      if (!cluster.startsWith("nats://") && !cluster.startsWith("tls://")) {
        throw new ParameterException(spec.commandLine(), "--cluster takes a Redis URI"
            + " (redis://HOST:PORT, rediss://HOST:PORT) or a NATS URL (nats://HOST:PORT,"
            + " tls://HOST:PORT), not " + cluster);
      }
      b.backplane(NatsBackplane.builder().url(cluster).history(history).build());
    }
    return b.build();
  }

  /** The key of the resume tokens: --resume-key, else made from the cluster URI, else random. */
  private byte[] resumeKey() {
    if (resumeWindow.isNegative() || resumeWindow.isZero()) {
      throw new ParameterException(spec.commandLine(), "--resume-window must be more than zero");
    }
    if (resumeKey != null && !resumeKey.isEmpty()) {
      if (resumeKey.length() < 16) {
        throw new ParameterException(spec.commandLine(),
            "--resume-key takes 16 characters or more, not " + resumeKey.length());
      }
      return resumeKey.getBytes(StandardCharsets.UTF_8);
    }
    byte[] key = new byte[32];
    if (cluster == null) {
      new java.security.SecureRandom().nextBytes(key);
      return key;
    }
    try {
      return java.security.MessageDigest.getInstance("SHA-256")
          .digest(("wsjava serve resume " + cluster).getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  private SSLContext tls(SelfSignedCertificate generated)
      throws IOException, GeneralSecurityException {
    int ways = (keystore != null ? 1 : 0) + (certPem != null || keyPem != null ? 1 : 0) + (selfSigned ? 1 : 0);
    if (ways > 1) {
      throw new ParameterException(
          spec.commandLine(), "choose one of --keystore, --cert/--key and --self-signed");
    }
    if (generated != null) {
      return TlsContexts.fromPkcs12(generated.keyStore(), generated.password());
    }
    if (keystore != null) {
      if (keystorePassword == null) {
        throw new ParameterException(
            spec.commandLine(),
            "--keystore needs --keystore-password (or WSJAVA_KEYSTORE_PASSWORD in the environment)");
      }
      return TlsContexts.fromPkcs12(Usage.readableFile(spec, "--keystore", keystore),
          keystorePassword.toCharArray());
    }
    if (certPem != null || keyPem != null) {
      if (certPem == null || keyPem == null) {
        throw new ParameterException(spec.commandLine(), "--cert and --key go together");
      }
      return TlsContexts.fromPem(Usage.readableFile(spec, "--cert", certPem),
          Usage.readableFile(spec, "--key", keyPem));
    }
    return null;
  }

  private List<String> urls(boolean secure, int boundPort, boolean withMetrics, ChatAuth auth) {
    String authority = listen.authority(boundPort);
    String http = secure ? "https://" : "http://";
    String ws = secure ? "wss://" : "ws://";
    List<String> urls = new ArrayList<>();
    urls.add(String.format("%-34s browser page: chat and echo", http + authority + "/"));
    urls.add(String.format("%-34s echo", ws + authority + "/echo"));
    urls.add(String.format("%-34s %s", ws + authority + "/chat",
        auth == null ? "chat (?nick=NAME)" : auth.howToJoin()));
    urls.add(String.format("%-34s topics (?sub=A,B; send \"TOPIC TEXT\")", ws + authority + "/topics"));
    if (withMetrics) {
      urls.add(String.format("%-34s metrics (Prometheus text)", http + authority + "/metrics"));
    }
    return urls;
  }

  /** An address as {@code 127.0.0.1:4711} (or {@code [::1]:4711}), without a leading slash. */
  static String address(java.net.SocketAddress a) {
    if (a instanceof java.net.InetSocketAddress i && i.getAddress() != null) {
      String host = i.getAddress().getHostAddress();
      return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + i.getPort();
    }
    return String.valueOf(a);
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = ServeCommand.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException("missing resource " + name + " (a broken build?)");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** A started server. Thread-safe. */
  public static final class Running implements AutoCloseable {
    private final WebSocketServer server;
    private final ChatRoom chat;
    private final Topics topics;
    private final List<String> urls;
    private final SelfSignedCertificate certificate;
    private final TlsWatch tlsWatch;

    Running(WebSocketServer server, ChatRoom chat, Topics topics, List<String> urls,
        SelfSignedCertificate certificate, TlsWatch tlsWatch) {
      this.tlsWatch = tlsWatch;
      this.server = server;
      this.chat = chat;
      this.topics = topics;
      this.urls = List.copyOf(urls);
      this.certificate = certificate;
    }

    /**
     * Returns the server.
     *
     * @return the running server
     */
    public WebSocketServer server() {
      return server;
    }

    /**
     * Returns the port the server listens on.
     *
     * @return the bound port
     */
    public int port() {
      return server.port();
    }

    /**
     * Returns what the server prints: one line per URL served, the URL first, then what it is.
     *
     * @return the lines
     */
    public List<String> urls() {
      return urls;
    }

    /**
     * Returns the generated certificate's PEM file, for clients to trust.
     *
     * @return the PEM path, or {@code null} without {@code --self-signed}
     */
    public Path certificatePem() {
      return certificate == null ? null : certificate.certificatePem();
    }

    /** The chat room behind {@code /chat}. */
    ChatRoom chat() {
      return chat;
    }

    /** What watches the certificate's files, or null without --keystore and --cert. */
    TlsWatch tlsWatch() {
      return tlsWatch;
    }

    /**
     * Drains (see {@link WebSocketServer#drain}): every WebSocket is closed with 1012, spread over
     * {@code window}; then stops like {@link #close()}.
     *
     * @param window the spread
     */
    public void drain(Duration window) {
      try {
        server.drain(window).get(
            window.plus(WebSocketServer.DRAIN_FLUSH_GRACE).toMillis() + 10_000,
            java.util.concurrent.TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        // stopped anyway below
      }
      close();
    }

    /** Closes every WebSocket with 1001 (bounded wait), stops, and deletes generated files. */
    @Override
    public void close() {
      if (tlsWatch != null) {
        tlsWatch.close();
      }
      server.close();
      topics.close();
      if (certificate != null) {
        certificate.delete();
      }
    }
  }
}
