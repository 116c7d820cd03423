package dev.wsjava.transport.blocking;

import dev.wsjava.extension.Extension;
import dev.wsjava.handshake.HttpStatus;
import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.handshake.ServerHandshakeConfig;
import dev.wsjava.internal.http.HttpLimits;
import dev.wsjava.internal.http.Router;
import dev.wsjava.internal.proxyprotocol.ProxyHeader;
import dev.wsjava.internal.proxyprotocol.ProxyHeaderException;
import dev.wsjava.CloseCode;
import dev.wsjava.protocol.Role;
import dev.wsjava.session.MemoryBudget;
import dev.wsjava.transport.AcceptBackoff;
import dev.wsjava.transport.AcceptReport;
import dev.wsjava.transport.Acceptor;
import dev.wsjava.transport.ConnectionConfig;
import dev.wsjava.transport.LastResort;
import dev.wsjava.transport.ConnectionHandler;
import dev.wsjava.transport.HandshakeInfo;
import dev.wsjava.transport.Tuning;
import dev.wsjava.transport.Upgrades;
import dev.wsjava.transport.Verdict;
import dev.wsjava.transport.Acceptor;
import dev.wsjava.transport.ServerBuilder;
import dev.wsjava.transport.ServerTransport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.Arrays;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * A WebSocket server on blocking sockets and virtual threads. A virtual thread accepts; each
 * connection gets its own virtual thread, which runs the TLS handshake (when configured), reads
 * HTTP until an upgrade, asks the route's handler factory for the connection's handler, answers
 * 101, and then becomes the connection's read loop.
 *
 * <p>Two ways to route. {@link Builder#handlers} serves WebSocket alone: every request on any path
 * must be an upgrade, within the handshake timeout, and one factory sees each {@link
 * HandshakeInfo} (it may return null to answer 404). {@link Builder#router} serves a {@link
 * Router} instead: plain HTTP routes and static files over keep-alive connections, and WebSocket
 * routes whose data is their handler factory.
 *
 * <pre>{@code
 * BlockingServer server = BlockingServer.builder()
 *     .bind(null, 8080)
 *     .handlers(info -> new ChatHandler(info.path()))
 *     .start();
 * ...
 * server.shutdown(Duration.ofSeconds(5));
 * }</pre>
 *
 * <p>Shutdown is graceful: stop accepting, drop connections still speaking HTTP, close every
 * WebSocket with 1001, wait a bounded time for the closing handshakes, then abort what is left.
 * Thread-safe.
 */
public final class BlockingServer implements ServerTransport {
  /** How long {@link #close()} waits for connections to close before aborting them. */
  public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(5);

  /**
   * Bytes read at once while HTTP arrives; a browser's upgrade request fits. After an upgrade the
   * read loop takes the buffer over for its small reads.
   */
  private static final int HANDSHAKE_READ = BlockingConnection.SMALL_READ;

  /** Reads a connection still speaking HTTP makes in a row before it gives way: {@link #giveWay}. */
  private static final int HTTP_TURN = Tuning.HTTP_TURN;

  private final ServerSocket listener;
  private final ServerHandshakeConfig handshakeConfig;
  private final ConnectionConfig connectionConfig;
  private volatile SSLContext tls; // replaced by reloadTls; each connection reads it once
  private final boolean proxyProtocol;
  private final ServerBuilder.ClientAuth clientAuth;
  private final Acceptor handlers;
  private final Router<Acceptor> router;
  private final HttpLimits httpLimits;
  private final ServerBuilder.Refusals refusals;
  private final Thread acceptor;
  private final Thread.Builder connectionThreads = Thread.ofVirtual().name("wsjava-conn-", 1);
  private final Set<Socket> handshaking = ConcurrentHashMap.newKeySet();
  private final Set<Socket> upgradedSockets = ConcurrentHashMap.newKeySet(); // 101 sent, not yet counted
  private final Set<BlockingConnection> connections = ConcurrentHashMap.newKeySet();
  /** Each connection's release callback: one for the server, not a method reference per socket. */
  private final Consumer<BlockingConnection> released = connections::remove;
  private final Deadlines deadlines;
  private volatile boolean stopping;
  private final CompletableFuture<Void> closed = new CompletableFuture<>();
  private final AcceptReport acceptReport;
  private final AcceptBackoff acceptBackoff;
  private static final System.Logger LOG = dev.wsjava.events.Loggers.SERVER;

  private BlockingServer(ServerBuilder.Options o) throws IOException {
    this.handshakeConfig = o.handshakeConfig();
    this.connectionConfig = o.connectionConfig();
    this.tls = o.tls();
    this.proxyProtocol = o.proxyProtocol();
    this.clientAuth = o.clientAuth();
    this.handlers = o.handlers();
    this.router = o.router();
    this.httpLimits = o.httpLimits();
    this.refusals = o.refusals();
    this.listener = new ServerSocket();
    listener.setReuseAddress(true);
    connectionConfig.socket().applyToListener(listener);
    listener.bind(o.address(), o.backlog());
    Duration shortest = connectionConfig.handshakeTimeout();
    if (router != null) {
      long http = Math.min(httpLimits.requestTimeoutNanos(), httpLimits.idleTimeoutNanos());
      shortest = shortest.compareTo(Duration.ofNanos(http)) < 0 ? shortest : Duration.ofNanos(http);
    }
    this.deadlines = new Deadlines(shortest);
    this.acceptReport = new AcceptReport(LOG, String.valueOf(localAddress()));
    this.acceptBackoff = new AcceptBackoff(System::nanoTime, acceptReport);
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

  @Override
  public int port() {
    return listener.getLocalPort();
  }

  @Override
  public InetSocketAddress localAddress() {
    return (InetSocketAddress) listener.getLocalSocketAddress();
  }

  /**
   * Returns how many TCP connections the server holds open: speaking HTTP (a handshake under way,
   * or plain requests) or open as WebSocket.
   *
   * @return the count
   */
  @Override
  public int openConnections() {
    return handshaking.size() + connections.size();
  }

  /**
   * Shuts down gracefully: stops accepting, drops connections still speaking HTTP, closes every
   * WebSocket with 1001, waits up to {@code grace} for them to close, then aborts the rest.
   * Calling it again waits again.
   *
   * @param grace how long to wait for closing handshakes
   * @return true when every connection closed within {@code grace}
   * @throws InterruptedException when interrupted while waiting; connections are aborted first
   */
  @Override
  public boolean shutdown(Duration grace) throws InterruptedException {
    stopping = true;
    closeQuietly(listener);
    LockSupport.unpark(acceptor); // out of a back-off's pause
    acceptor.join(grace);
    deadlines.stop(); // every connection still in HTTP is closed below
    // Cut off handshakes still under way; one whose 101 already went out is an open connection to
    // the client, so wait (within the grace) for it to be counted and close it with 1001 below.
    long deadline = System.nanoTime() + grace.toNanos();
    handshaking.removeIf(
        s -> {
          if (upgradedSockets.contains(s)) {
            return false;
          }
          closeQuietly(s);
          return true;
        });
    while (!handshaking.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
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
      this.closed.complete(null);
    }
    return clean && connections.isEmpty();
  }

  @Override
  public CompletableFuture<Void> closeFuture() {
    return closed.copy();
  }

  @Override
  public long descriptorExhaustions() {
    return acceptReport.exhaustions();
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

  @Override
  public void stopAccepting() {
    closeQuietly(listener); // the accept loop sees it closed and ends
  }

  @Override
  public void reloadTls(SSLContext context) {
    if (tls == null) {
      throw new IllegalStateException("the server was started without TLS: nothing to reload");
    }
    tls = Objects.requireNonNull(context, "context");
  }

  /**
   * The acceptor's thread. A failed accept (no file descriptor left, most often) backs off (see
   * {@link AcceptBackoff}) while the connections' own threads go on; a connection whose thread
   * cannot start is closed and the acceptor goes on. Only an Error in the acceptor's own code
   * stops it, and then the server fails loudly: it closes its listener and its {@link
   * #closeFuture()} completes with the error.
   */
  private void acceptLoop() {
    try {
      while (!stopping) {
        Socket raw;
        try {
          raw = listener.accept();
        } catch (IOException e) {
          if (stopping || listener.isClosed()) {
            return;
          }
          LockSupport.parkNanos(acceptBackoff.failed(e)); // not interrupted: shutdown closes first
          continue;
        }
        acceptBackoff.accepted();
        start(raw);
      }
    } catch (Throwable t) {
      if (closed.completeExceptionally(t)) {
        LastResort.log(LOG, System.Logger.Level.ERROR,
            "server on " + localAddress() + " failed: its acceptor stopped; it no longer accepts", t);
      }
      closeQuietly(listener);
    } finally {
      acceptBackoff.stopped();
    }
  }

  /** Gives an accepted socket its thread; a failure is that connection's alone. */
  private void start(Socket raw) {
    try {
      handshaking.add(raw);
      if (stopping) {
        closeQuietly(raw);
      }
      connectionThreads.start(() -> runConnection(raw));
    } catch (Throwable t) {
      handshaking.remove(raw);
      closeQuietly(raw);
      LastResort.log(LOG, System.Logger.Level.WARNING, "cannot start a connection; closed it", t);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // One connection, on its own virtual thread

  /**
   * The connection's thread: HTTP until an upgrade, then the WebSocket read loop. The two run one
   * after the other, not nested, so that an idle connection's parked stack (its virtual thread's
   * memory) holds the read loop's frames only.
   */
  private void runConnection(Socket raw) {
    Upgraded upgraded = serve(raw);
    if (upgraded != null) {
      upgraded.connection().run(upgraded.received(), upgraded.buffer());
    }
  }

  /**
   * A connection ready to run: the bytes that came after the request head, and the handshake's
   * read buffer, which the read loop reads into next.
   */
  private record Upgraded(BlockingConnection connection, ByteBuffer received, byte[] buffer) {}

  /** Speaks HTTP until the socket closes (null) or upgrades (the connection to run). */
  private Upgraded serve(Socket raw) {
    long start = System.nanoTime();
    boolean upgraded = false;
    Deadlines.Watch watch = deadlines.watch(raw);
    ServerFront front = null;
    SocketAddress remote = raw.getRemoteSocketAddress();
    try {
      connectionConfig.socket().applyTo(raw);
      ByteBuffer early = ByteBuffer.allocate(0);
      if (proxyProtocol) {
        early = readProxyHeader(raw, start + handshakeNanos(), watch);
        if (early == null) {
          return null;
        }
        ProxyHeader header = ProxyHeader.parse(early); // whole: read above
        if (header.source() != null) {
          remote = header.source();
        }
      }
      SSLContext context = tls; // read once: a reload may replace it meanwhile
      Socket socket = context == null ? raw : tlsHandshake(context, raw, start + handshakeNanos(),
          early.hasRemaining() ? Arrays.copyOfRange(early.array(), early.position(), early.limit())
              : null);
      front =
          router != null
              ? new HttpFront(router, httpLimits, start, connectionConfig.memory().open())
              : new HandshakeFront(handshakeConfig, handlers, start + handshakeNanos());
      InputStream in = socket.getInputStream();
      OutputStream out = socket.getOutputStream();
      byte[] buffer = new byte[HANDSHAKE_READ];
      ByteBuffer received = socket == raw ? early : ByteBuffer.allocate(0);
      int reads = 0;
      while (true) {
        ServerFront.Step step;
        if (received.hasRemaining()) {
          step = front.receive(received, System.nanoTime()); // what a front left for later
        } else {
          if (++reads % HTTP_TURN == 0) {
            giveWay();
          }
          int n = read(in, buffer, front.deadlineNanos(), watch);
          if (n < 0) {
            return null; // the client left
          }
          received = ByteBuffer.wrap(buffer, 0, n);
          long now = System.nanoTime();
          step = n == 0 ? front.timeout(now) : front.receive(received, now);
        }
        switch (step) {
          case null -> {
            long wanted = front.stalledFor();
            if (wanted > 0 && !awaitMemory(front.memory(), wanted, raw)) {
              return null; // evicted: the largest holder once others waited too long
            }
          }
          case ServerFront.Respond r -> {
            if (r.refusal() != null) {
              refusals.refused(remote, r.refusal().status(), r.refusal().reason());
            }
            write(out, r.response());
            if (r.close()) {
              return null;
            }
          }
          case ServerFront.Upgrade u -> {
            upgraded = true;
            watch.done(); // WebSocket keeps its own timers
            BlockingConnection connection = upgrade(raw, socket, out, u, remote);
            return connection == null ? null : new Upgraded(connection, u.received(), buffer);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // The client left, broke TLS, or was cut off at a deadline: nothing to report.
      return null;
    } finally {
      watch.done();
      if (front != null && front.memory() != null) {
        front.memory().releaseAll(); // a body being read is dropped, or the request is done
      }
      if (!upgraded) {
        closeQuietly(raw);
      }
      handshaking.remove(raw);
      upgradedSockets.remove(raw);
    }
  }

  /**
   * A request body waits for the memory budget: reading stops (TCP slows the client) until the
   * budget has room for {@code wanted} bytes. Every stall timeout it asks the budget to evict the
   * largest stuck holder, which may be this one.
   *
   * @return true when memory came back; false when this connection was evicted (its socket closed)
   */
  private static boolean awaitMemory(MemoryBudget.Account memory, long wanted, Socket raw) {
    CompletableFuture<Void> room = new CompletableFuture<>();
    memory.stall(wanted, () -> room.complete(null), () -> {
      room.complete(null);
      closeQuietly(raw);
    });
    long stallNanos = memory.budget().stallTimeout().toNanos();
    while (!room.isDone()) {
      try {
        room.get(stallNanos, TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        memory.budget().evictIfStuck();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      } catch (ExecutionException e) {
        throw new IllegalStateException(e); // never completed exceptionally
      }
    }
    memory.progressed();
    return !memory.evicted();
  }

  /**
   * Lets the other connections run: the shortest sleep, taken by a keep-alive HTTP connection once
   * every {@link #HTTP_TURN} reads. Without it, wrk's 100 keep-alive connections against a server
   * on one core saw a mean of 6.2 ms where most requests took 0.5 ms (p99 213 ms, some near 500
   * ms): under a saturated carrier the JDK's virtual-thread scheduler served a few connections
   * over and over while the others' wake-ups waited. A sleep wakes through the scheduler's shared
   * queue, behind those wake-ups; {@link Thread#yield()}, which requeues on the carrier's own
   * queue, did not help. Measured with the suite's scenario 7 (3 runs): mean latency 6,200 -> 850
   * µs, requests 151,720 -> 146,748 per second. The WebSocket read loop measured no better with
   * the same (scenarios 1 and 4), so it does not sleep.
   */
  private static void giveWay() {
    LockSupport.parkNanos(1);
  }

  /**
   * Reads the PROXY protocol header that must come first, within the handshake deadline.
   *
   * @return the bytes read, the whole header at their position and what followed it after; null
   *     when the connection closed, timed out, or sent no valid header (reported as refused)
   */
  private ByteBuffer readProxyHeader(Socket raw, long deadline, Deadlines.Watch watch)
      throws IOException {
    InputStream in = raw.getInputStream();
    byte[] buffer = new byte[PROXY_FIRST_READ];
    int filled = 0;
    while (true) {
      if (filled == buffer.length) {
        buffer = Arrays.copyOf(buffer, ProxyHeader.V2_MAX); // parse refuses past V2_MAX
      }
      int n = read(in, buffer, filled, deadline, watch);
      if (n < 0) {
        return null; // hung up before its header was whole: nothing to refuse
      }
      if (n == 0) {
        refusals.refused(
            raw.getRemoteSocketAddress(), 0, "no PROXY header within the handshake timeout");
        return null;
      }
      filled += n;
      ByteBuffer bytes = ByteBuffer.wrap(buffer, 0, filled);
      try {
        if (ProxyHeader.parse(bytes.duplicate()) != null) {
          return bytes;
        }
      } catch (ProxyHeaderException e) {
        refusals.refused(raw.getRemoteSocketAddress(), 0, e.getMessage());
        return null;
      }
    }
  }

  /** Bytes read for a PROXY header at first: a v1 line, or a v2 header with a few TLVs. */
  private static final int PROXY_FIRST_READ = 256;

  /** The JDK's TLS handshake reads many times; only an alarm bounds its total time. */
  private Socket tlsHandshake(SSLContext context, Socket raw, long deadline, byte[] early)
      throws IOException {
    Alarm alarm = Alarm.after(connectionConfig.handshakeTimeout(), () -> closeQuietly(raw));
    try {
      return Tls.server(context, raw, millisLeft(deadline), clientAuth, early);
    } finally {
      alarm.cancel();
    }
  }

  /**
   * Reads within {@code deadline}, which the server's {@link Deadlines} keeps (no socket timeout:
   * see there).
   *
   * @return the bytes read, 0 when the deadline passed, -1 at end of stream
   */
  private static int read(InputStream in, byte[] buffer, long deadline, Deadlines.Watch watch)
      throws IOException {
    return read(in, buffer, 0, deadline, watch);
  }

  /** {@link #read(InputStream, byte[], long, Deadlines.Watch)} into {@code buffer} from {@code off}. */
  private static int read(
      InputStream in, byte[] buffer, int off, long deadline, Deadlines.Watch watch)
      throws IOException {
    if (deadline != Long.MAX_VALUE && deadline - System.nanoTime() <= 0) {
      return 0;
    }
    watch.arm(deadline);
    int n;
    try {
      n = in.read(buffer, off, buffer.length - off);
    } catch (IOException e) {
      if (watch.disarm()) {
        return 0; // TLS may take the cut-off input for an error
      }
      throw e;
    }
    return watch.disarm() ? 0 : n;
  }

  private long handshakeNanos() {
    return connectionConfig.handshakeTimeout().toNanos();
  }

  /**
   * Writes the 101 and makes the connection, reported open and counted.
   *
   * @return the connection to run, or null when there is none (refused, or closed already)
   */
  private BlockingConnection upgrade(
      Socket raw, Socket socket, OutputStream out, ServerFront.Upgrade upgrade, SocketAddress remote)
      throws IOException {
    ServerHandshake.Accepted accepted = upgrade.accepted();
    List<Extension> extensions = accepted.extensions();
    BlockingConnection connection = null;
    try {
      Verdict verdict;
      if (stopping) {
        verdict = Verdict.refuse(HttpStatus.SERVICE_UNAVAILABLE, "the server is shutting down");
      } else {
        HandshakeInfo info =
            new HandshakeInfo(
                accepted.request(),
                accepted.subprotocol(),
                extensions.isEmpty() ? List.of() : extensions.stream().map(Extension::name).toList(),
                remote,
                raw.getLocalSocketAddress(),
                socket instanceof SSLSocket s ? s.getSession() : null);
        verdict = Upgrades.decide(upgrade.handlers(), info);
        if (verdict instanceof Verdict.Later later) {
          verdict = Upgrades.await(later, handshakeNanos());
        }
      }
      Upgrades.Answer answer = Upgrades.answer(verdict, accepted);
      if (!answer.refused()) {
        extensions = Upgrades.extensions(answer, extensions);
      }
      ByteBuffer response = upgrade.response();
      if (answer.replacement() != null) {
        response = replaceLast(response, accepted.response().remaining(), answer.replacement());
      }
      if (answer.refused()) {
        write(out, response);
        return null;
      }
      upgradedSockets.add(raw); // the client now sees it open: shutdown closes it with 1001
      write(out, response);
      connection =
          new BlockingConnection(
              raw,
              socket,
              Role.SERVER,
              answer.handler(),
              Upgrades.config(answer, connectionConfig),
              answer.subprotocol(),
              extensions,
              released);
      if (!remote.equals(raw.getRemoteSocketAddress())) {
        connection.proxiedFrom(remote);
      }
    } finally {
      if (connection == null) {
        upgradedSockets.remove(raw);
        extensions.forEach(Extension::close);
        closeQuietly(raw);
      }
    }
    BlockingConnection c = connection;
    if (!c.reportOpen()) {
      return null;
    }
    // Counted as open only once onOpen ran, so that shutdown never closes it unreported.
    connections.add(c);
    handshaking.remove(raw);
    upgradedSockets.remove(raw);
    if (c.socketClosing()) {
      connections.remove(c); // closed by its own onOpen, before it was counted
    }
    if (stopping) {
      c.close(CloseCode.GOING_AWAY, "server shutting down");
    }
    return c;
  }

  /** The answers before an upgrade's 101 (its last {@code drop} bytes), then {@code last}. */
  private static ByteBuffer replaceLast(ByteBuffer answers, int drop, ByteBuffer last) {
    int keep = answers.remaining() - drop;
    if (keep <= 0) {
      return last;
    }
    return ByteBuffer.allocate(keep + last.remaining())
        .put(answers.slice(answers.position(), keep))
        .put(last.duplicate())
        .flip();
  }

  /** Writes the buffer's remaining bytes, from its array when it lends one. */
  static void write(OutputStream out, ByteBuffer bytes) throws IOException {
    int n = bytes.remaining();
    if (bytes.hasArray()) {
      out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), n);
      bytes.position(bytes.limit());
    } else {
      byte[] array = new byte[n];
      bytes.get(array);
      out.write(array);
    }
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

  /** Configures and starts a {@link BlockingServer}. Not thread-safe. */
  public static final class Builder extends ServerBuilder<Builder> {
    private Builder() {}

    @Override
    protected Builder self() {
      return this;
    }

    /**
     * Binds and starts accepting.
     *
     * @return the running server
     * @throws IOException when the address cannot be bound
     * @throws IllegalStateException unless exactly one of handlers and router was set
     */
    public BlockingServer start() throws IOException {
      return new BlockingServer(options());
    }
  }
}
