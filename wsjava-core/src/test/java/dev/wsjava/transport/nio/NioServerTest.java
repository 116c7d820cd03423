package dev.wsjava.transport.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.handshake.ClientHandshakeConfig;
import dev.wsjava.handshake.HandshakeException;
import dev.wsjava.handshake.ServerHandshakeConfig;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.transport.Connection;
import dev.wsjava.transport.ConnectionConfig;
import dev.wsjava.transport.ConnectionHandler;
import dev.wsjava.transport.HandshakeInfo;
import dev.wsjava.transport.QueueFullException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * End to end on loopback: {@link NioClient} and {@link NioServer} (or a hand-driven raw peer) over
 * ws and wss, deflate on and off. Every wait is bounded.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NioServerTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir static Path dir;
  static SelfSignedCert cert;
  static EventLoopGroup group;

  @BeforeAll
  static void setUp() throws Exception {
    cert = SelfSignedCert.create(dir);
    group = new EventLoopGroup(2);
  }

  @AfterAll
  static void tearDown() {
    assertThat(group.shutdown(Duration.ofSeconds(5))).isTrue();
  }

  // ---- helpers ----

  static ConnectionConfig config() {
    return ConnectionConfig.DEFAULTS;
  }

  static ConnectionConfig withTimeouts(
      Duration handshake, Duration idle, Duration ping, Duration close) {
    ConnectionConfig d = ConnectionConfig.DEFAULTS;
    return new ConnectionConfig(
        d.session(), d.maxQueuedBytes(), handshake, idle, ping, close, d.readBufferSize());
  }

  static NioServer server(
      ConnectionConfig cc,
      ServerHandshakeConfig hc,
      SSLContext tls,
      Function<HandshakeInfo, ConnectionHandler> handlers)
      throws IOException {
    return NioServer.builder()
        .bind("127.0.0.1", 0)
        .group(group)
        .connectionConfig(cc)
        .handshakeConfig(hc)
        .tls(tls)
        .handlers(handlers)
        .start();
  }

  static ConnectionConfig withQueue(long maxQueuedBytes) {
    return sized(maxQueuedBytes, ConnectionConfig.DEFAULTS.readBufferSize());
  }

  static ConnectionConfig withReadBuffer(int size) {
    return sized(ConnectionConfig.DEFAULTS.maxQueuedBytes(), size);
  }

  private static ConnectionConfig sized(long maxQueuedBytes, int readBufferSize) {
    ConnectionConfig d = ConnectionConfig.DEFAULTS;
    return new ConnectionConfig(
        d.session(),
        maxQueuedBytes,
        d.handshakeTimeout(),
        d.idleTimeout(),
        d.pingInterval(),
        d.closeTimeout(),
        readBufferSize);
  }

  /** Records messages, and stops reading after the first: the sender meets backpressure. */
  static Events pausingOnFirstMessage() {
    java.util.concurrent.atomic.AtomicBoolean first =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    return new Events(false) {
      @Override
      public void onMessage(Connection c, Opcode type, ByteBuffer payload) {
        if (first.getAndSet(false)) {
          c.pauseReading(true);
        }
        super.onMessage(c, type, payload);
      }
    };
  }

  static NioServer echoServer(ConnectionConfig cc) throws IOException {
    return server(cc, ServerHandshakeConfig.defaults(), null, info -> Events.echo());
  }

  static NioClient client(ConnectionConfig cc, ClientHandshakeConfig hc) {
    return NioClient.builder()
        .group(group)
        .connectionConfig(cc)
        .handshakeConfig(hc)
        .sslContext(cert.client())
        .build();
  }

  static NioClient client() {
    return client(config(), ClientHandshakeConfig.defaults());
  }

  static URI ws(NioServer s, String path) {
    return URI.create("ws://127.0.0.1:" + s.port() + path);
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    dev.wsjava.Await.until(what, WAIT, condition);
  }

  static void awaitNoConnections(NioServer s, NioClient c) throws InterruptedException {
    await("the server has no connection", () -> s.openConnections() == 0);
    if (c != null) {
      await("the client has no connection", () -> c.openConnections() == 0);
    }
  }

  /** Compressible but varied bytes: random letters from a small alphabet. */
  static byte[] payload(int size, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) ('a' + r.nextInt(16));
    }
    return b;
  }

  static <T> T get(CompletableFuture<T> f) throws Exception {
    return f.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
  }

  // ---- echo ----

  @ParameterizedTest(name = "tls={0} deflate={1}")
  @CsvSource({"false,false", "false,true", "true,false", "true,true"})
  void echoesMessagesOfEveryLengthClassUpTo16MiB(boolean tls, boolean deflate) throws Exception {
    ServerHandshakeConfig shc = ServerHandshakeConfig.defaults();
    ClientHandshakeConfig chc = ClientHandshakeConfig.defaults();
    if (deflate) {
      shc = shc.withExtensions(List.of(PerMessageDeflate.defaults()));
      chc = chc.withExtensions(List.of(PerMessageDeflate.defaults()));
    }
    try (NioServer server = server(config(), shc, tls ? cert.server() : null, i -> Events.echo());
        NioClient client = client(config(), chc)) {
      Events events = Events.record();
      // "localhost" for wss: SNI is sent and the certificate's host name is checked.
      URI uri = URI.create((tls ? "wss" : "ws") + "://localhost:" + server.port() + "/echo");
      Connection c = get(client.connect(uri, events));
      assertThat(c.extensions()).isEqualTo(deflate ? List.of("permessage-deflate") : List.of());
      // 7-bit, 16-bit and 64-bit length forms at their edges (RFC 6455 §5.2), and the limit.
      int[] sizes = {0, 1, 125, 126, 65535, 65536, 16 << 20};
      for (int size : sizes) {
        byte[] sent = payload(size, size);
        get(c.sendMessage(Opcode.BINARY, ByteBuffer.wrap(sent)));
        Events.Message got = events.next(WAIT);
        assertThat(got.type()).isEqualTo(Opcode.BINARY);
        assertThat(got.data().length).isEqualTo(size);
        assertThat(Arrays.equals(got.data(), sent)).as("echo of %d bytes", size).isTrue();
      }
      get(c.sendText("héllo wörld"));
      Events.Message text = events.next(WAIT);
      assertThat(text.type()).isEqualTo(Opcode.TEXT);
      assertThat(new String(text.data(), StandardCharsets.UTF_8)).isEqualTo("héllo wörld");

      get(c.close(1000, "done"));
      assertThat(events.awaitClose(WAIT).code()).isEqualTo(1000);
      assertThat(events.errors).isEmpty();
      awaitNoConnections(server, client);
    }
  }

  @ParameterizedTest(name = "client offers {0}")
  @CsvSource({"TLSv1.3", "TLSv1.2"})
  void speaksTls13AndTls12(String protocol) throws Exception {
    SSLContext only = SSLContext.getInstance(protocol);
    only.init(null, trustManagers(), null);
    try (NioServer server =
            server(config(), ServerHandshakeConfig.defaults(), cert.server(), i -> Events.echo());
        NioClient client = NioClient.builder().group(group).sslContext(only).build()) {
      Events events = Events.record();
      Connection c =
          get(client.connect(URI.create("wss://localhost:" + server.port() + "/"), events));
      assertThat(((NioConnection) c).tlsProtocol()).isEqualTo(protocol);
      get(c.sendText("over " + protocol));
      assertThat(new String(events.next(WAIT).data(), StandardCharsets.UTF_8))
          .isEqualTo("over " + protocol);
      get(c.close(1000, ""));
      awaitNoConnections(server, client);
    }
  }

  static javax.net.ssl.TrustManager[] trustManagers() throws Exception {
    // Trust exactly the test certificate.
    javax.net.ssl.TrustManagerFactory tmf =
        javax.net.ssl.TrustManagerFactory.getInstance(
            javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(cert.trustStore());
    return tmf.getTrustManagers();
  }

  @ParameterizedTest(name = "tls={0}")
  @CsvSource({"false", "true"})
  void echoesThroughTheSmallestReadBuffer(boolean tls) throws Exception {
    ConnectionConfig tiny = withReadBuffer(1024);
    ServerHandshakeConfig shc =
        ServerHandshakeConfig.defaults().withExtensions(List.of(PerMessageDeflate.defaults()));
    ClientHandshakeConfig chc =
        ClientHandshakeConfig.defaults().withExtensions(List.of(PerMessageDeflate.defaults()));
    try (NioServer server = server(tiny, shc, tls ? cert.server() : null, i -> Events.echo());
        NioClient client = client(tiny, chc)) {
      Events events = Events.record();
      URI uri = URI.create((tls ? "wss" : "ws") + "://localhost:" + server.port() + "/");
      Connection c = get(client.connect(uri, events));
      for (int size : new int[] {0, 1000, 1025, 70_000, 300_000}) {
        byte[] sent = payload(size, 7 * size);
        c.sendMessage(Opcode.BINARY, ByteBuffer.wrap(sent));
        assertThat(Arrays.equals(events.next(WAIT).data(), sent)).as("%d bytes", size).isTrue();
      }
      get(c.close(1000, ""));
      awaitNoConnections(server, client);
    }
  }

  /**
   * Request and response traffic makes the loop skip its read after answering for a while; bytes
   * that come in the meantime must still be read, in order, whenever they come.
   */
  @Test
  void echoesInOrderWhenRequestAndResponseTurnsIntoABurstAndBack() throws Exception {
    try (NioServer server = echoServer(config());
        RawPeer peer = RawPeer.client(server.port())) {
      peer.send(RawPeer.upgradeRequest("/echo"));
      assertThat(peer.readHead()).startsWith("HTTP/1.1 101 ");
      int seq = 0;
      for (int phase = 0; phase < 3; phase++) {
        for (int i = 0; i < 20; i++, seq++) { // one in flight: the read after answering finds nothing
          byte[] m = ("one " + seq).getBytes(StandardCharsets.UTF_8);
          peer.send(peer.frame(Opcode.TEXT, m));
          assertThat(peer.readFrame().payload()).isEqualTo(m);
        }
        ByteArrayOutputStream burst = new ByteArrayOutputStream();
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 200; i++, seq++) {
          byte[] m = ("burst " + seq).getBytes(StandardCharsets.UTF_8);
          sent.add(m);
          burst.write(peer.frame(Opcode.BINARY, m));
        }
        peer.send(burst.toByteArray()); // 200 frames in one write
        for (byte[] m : sent) {
          RawPeer.Frame f = peer.readFrame();
          assertThat(f.opcode()).isEqualTo(Opcode.BINARY.code());
          assertThat(f.payload()).isEqualTo(m);
        }
      }
    }
  }

  @ParameterizedTest(name = "{0} messages of {1} bytes, reads of {2}")
  @CsvSource({
    "64, 300, 65536", // one read carries all: its answers go out in about two writes
    "6, 9000, 4096" // each answer is big enough to go out at once, before the next is read
  })
  void answersGoOutInTheMiddleOfAReadOnceTheyReachHalfOfIt(int count, int size, int readBuffer)
      throws Exception {
    List<Long> queuedOnArrival = new java.util.concurrent.CopyOnWriteArrayList<>();
    Events serverSide =
        new Events(true) {
          @Override
          public void onOpen(Connection c) {
            c.pauseReading(true); // until the whole burst waits in the socket
            super.onOpen(c);
          }

          @Override
          public void onMessage(Connection c, Opcode type, ByteBuffer payload) {
            queuedOnArrival.add(c.queuedBytes());
            super.onMessage(c, type, payload);
          }
        };
    try (NioServer server =
            server(withReadBuffer(readBuffer), ServerHandshakeConfig.defaults(), null, i -> serverSide);
        RawPeer peer = RawPeer.client(server.port())) {
      peer.send(RawPeer.upgradeRequest("/echo"));
      assertThat(peer.readHead()).startsWith("HTTP/1.1 101 ");
      ByteArrayOutputStream burst = new ByteArrayOutputStream();
      List<byte[]> sent = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        byte[] m = new byte[size];
        java.util.Arrays.fill(m, (byte) i);
        sent.add(m);
        burst.write(peer.frame(Opcode.BINARY, m));
      }
      peer.send(burst.toByteArray()); // at most 54 KB: the socket's receive buffer holds it
      get(serverSide.opened).pauseReading(false);
      for (byte[] m : sent) {
        assertThat(peer.readFrame().payload()).isEqualTo(m);
      }
      // Answers leave once half a read's worth of them wait (at least 8 KiB): in the middle of a
      // short read, right after a full one. So no message finds more queued than that.
      long bound = Math.max(8192, Math.min(readBuffer, burst.size()) / 2);
      assertThat(queuedOnArrival).hasSize(count).allSatisfy(q -> assertThat(q).isLessThan(bound));
    }
  }

  @Test
  void manyThreadsSendingOnOneConnectionNeverInterleaveFrames() throws Exception {
    int threads = 8;
    int perThread = 250;
    try (NioServer server = echoServer(config());
        NioClient client = client()) {
      Events events = Events.record();
      Connection c = get(client.connect(ws(server, "/"), events));
      List<Thread> senders = new ArrayList<>();
      List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
      for (int t = 0; t < threads; t++) {
        int id = t;
        senders.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      try {
                        SplittableRandom r = new SplittableRandom(id);
                        CompletableFuture<Void> last = null;
                        for (int seq = 0; seq < perThread; seq++) {
                          int size = r.nextInt(10) == 0 ? 70_000 : r.nextInt(3000);
                          byte[] m = tagged(id, seq, size);
                          while (true) {
                            last = c.sendMessage(Opcode.BINARY, ByteBuffer.wrap(m));
                            if (!last.isCompletedExceptionally()) {
                              break;
                            }
                            Thread.sleep(1); // queue full: let the loop drain it
                          }
                          if (seq % 50 == 49) {
                            last.get(20, TimeUnit.SECONDS);
                          }
                        }
                        last.get(20, TimeUnit.SECONDS);
                      } catch (Throwable e) {
                        failures.add(e);
                      }
                    }));
      }
      for (Thread t : senders) {
        t.join(WAIT.toMillis());
      }
      assertThat(failures).isEmpty();
      int[] nextSeq = new int[threads];
      for (int i = 0; i < threads * perThread; i++) {
        byte[] m = events.next(WAIT).data();
        ByteBuffer b = ByteBuffer.wrap(m);
        int id = b.getInt();
        int seq = b.getInt();
        assertThat(seq).as("order of thread %d", id).isEqualTo(nextSeq[id]++);
        assertThat(m).isEqualTo(tagged(id, seq, m.length - 8));
      }
      assertThat(nextSeq).containsOnly(perThread);
      c.close(1000, "");
      awaitNoConnections(server, client);
    }
  }

  /** A message naming its sender and sequence number, then bytes derived from both. */
  static byte[] tagged(int id, int seq, int size) {
    ByteBuffer b = ByteBuffer.allocate(8 + size).putInt(id).putInt(seq);
    for (int i = 0; i < size; i++) {
      b.put((byte) (id * 31 + seq * 7 + i));
    }
    return b.array();
  }

  @Test
  void twoHundredFiftyConcurrentConnectionsEchoAndCloseWithoutLeaks() throws Exception {
    int n = 250;
    try (NioServer server = echoServer(config());
        NioClient client = client()) {
      List<Events> events = new ArrayList<>();
      List<CompletableFuture<Connection>> connecting = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        Events e = Events.record();
        events.add(e);
        connecting.add(client.connect(ws(server, "/c" + i), e));
      }
      List<Connection> connections = new ArrayList<>();
      for (CompletableFuture<Connection> f : connecting) {
        connections.add(get(f));
      }
      await("all are counted", () -> server.openConnections() == n);
      for (int i = 0; i < n; i++) {
        connections.get(i).sendText("hello " + i);
      }
      for (int i = 0; i < n; i++) {
        assertThat(new String(events.get(i).next(WAIT).data(), StandardCharsets.UTF_8))
            .isEqualTo("hello " + i);
      }
      assertThat(idleBuffersLent()).as("idle connections hold no pooled buffer").isZero();
      connections.forEach(c -> c.close(1000, "bye"));
      for (Events e : events) {
        assertThat(e.awaitClose(WAIT).code()).isEqualTo(1000);
      }
      awaitNoConnections(server, client);
    }
  }

  static int idleBuffersLent() throws Exception {
    int lent = 0;
    for (int i = 0; i < group.size(); i++) {
      EventLoop loop = group.loop(i);
      lent += get(loop.call(() -> loop.pool().lent()));
    }
    return lent;
  }

  @Test
  void pausedReadingPushesBackOnTheSenderAndResumingDeliversEverything() throws Exception {
    ConnectionConfig smallQueue = withQueue(1 << 20);
    Events serverSide = pausingOnFirstMessage();
    try (NioServer server =
            server(config(), ServerHandshakeConfig.defaults(), null, i -> serverSide);
        NioClient client = client(smallQueue, ClientHandshakeConfig.defaults())) {
      Connection c = get(client.connect(ws(server, "/"), Events.record()));
      byte[] chunk = new byte[64 * 1024];
      int sent = 0;
      boolean pushedBack = false;
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (!pushedBack && System.nanoTime() - deadline < 0 && sent < 5000) {
        CompletableFuture<Void> f = c.sendMessage(Opcode.BINARY, ByteBuffer.wrap(chunk));
        if (f.isCompletedExceptionally()) {
          assertThat(catchCause(f)).isInstanceOf(QueueFullException.class);
          pushedBack = true;
        } else {
          sent++;
          if (sent % 16 == 0) {
            Thread.sleep(2); // let the loop write what the socket takes
          }
        }
      }
      assertThat(pushedBack).as("the sender met backpressure").isTrue();
      // Resume only once the handler has paused (it records its first message right after).
      await("the server paused on its first message", () -> !serverSide.messages.isEmpty());
      assertThat(serverSide.messages.size()).isLessThan(sent);
      get(serverSide.opened).pauseReading(false);
      for (int i = 0; i < sent; i++) {
        int got = i;
        int total = sent;
        Events.Message m = serverSide.messages.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        if (m == null) {
          throw new AssertionError(
              "message "
                  + got
                  + " of "
                  + total
                  + " missing; client queue "
                  + c.queuedBytes()
                  + ", server queue "
                  + get(serverSide.opened).queuedBytes());
        }
        assertThat(m.data()).hasSize(chunk.length);
      }
      get(c.close(1000, ""));
      awaitNoConnections(server, client);
    }
  }

  @Test
  void aSendFromAnotherThreadIsWrittenBeforeItReturnsWhileEventsStayOnTheLoop() throws Exception {
    ConnectionConfig smallQueue = withQueue(256 * 1024);
    Events serverSide = pausingOnFirstMessage();
    java.util.List<Thread> loopThread = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.List<Thread> writableThreads = new java.util.concurrent.CopyOnWriteArrayList<>();
    Events clientSide =
        new Events(false) {
          @Override
          public void onOpen(Connection c) {
            loopThread.add(Thread.currentThread());
            super.onOpen(c);
          }

          @Override
          public void onWritable(Connection c) {
            writableThreads.add(Thread.currentThread());
          }
        };
    try (NioServer server =
            server(config(), ServerHandshakeConfig.defaults(), null, i -> serverSide);
        NioClient client = client(smallQueue, ClientHandshakeConfig.defaults())) {
      Connection c = get(client.connect(ws(server, "/"), clientSide));
      // Plain TCP with room in the socket: the sender's own write completes the send, even while
      // every loop is busy.
      java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
      java.util.concurrent.CountDownLatch blocked =
          new java.util.concurrent.CountDownLatch(group.size());
      for (int i = 0; i < group.size(); i++) {
        group.loop(i).execute(() -> {
          blocked.countDown();
          try {
            release.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
      }
      CompletableFuture<Void> small;
      try {
        assertThat(blocked.await(5, TimeUnit.SECONDS)).isTrue();
        small = c.sendMessage(Opcode.BINARY, ByteBuffer.wrap(new byte[300]));
        assertThat(small).as("written by the sending thread before send returned").isDone();
      } finally {
        release.countDown();
      }
      assertThat(small).isNotCompletedExceptionally();
      await("the server paused on its first message", () -> !serverSide.messages.isEmpty());
      // Fill the queue past its high-water mark while the server does not read.
      byte[] chunk = new byte[16 * 1024];
      boolean full = false;
      for (int i = 0; i < 10_000 && !full; i++) {
        full = c.sendMessage(Opcode.BINARY, ByteBuffer.wrap(chunk)).isCompletedExceptionally();
      }
      assertThat(full).as("the queue filled up").isTrue();
      get(serverSide.opened).pauseReading(false);
      // Senders keep writing their own bytes as the queue drains; onWritable still comes once,
      // on the loop thread.
      for (int i = 0; i < 200 && writableThreads.isEmpty(); i++) {
        c.sendMessage(Opcode.BINARY, ByteBuffer.wrap(new byte[100]));
        Thread.sleep(1);
      }
      await("onWritable was reported", () -> !writableThreads.isEmpty());
      assertThat(writableThreads).containsOnly(loopThread.get(0));
      get(c.close(1000, ""));
      awaitNoConnections(server, client);
    }
  }

  // ---- closing ----

  @Test
  void theClientsCloseCodeAndReasonReachTheServerAndComeBack() throws Exception {
    Events serverSide = Events.record();
    try (NioServer server =
            server(config(), ServerHandshakeConfig.defaults(), null, i -> serverSide);
        NioClient client = client()) {
      Events events = Events.record();
      Connection c = get(client.connect(ws(server, "/"), events));
      get(c.close(4000, "client bye"));
      assertThat(serverSide.awaitClose(WAIT)).isEqualTo(new Events.Closed(4000, "client bye"));
      assertThat(events.awaitClose(WAIT).code()).isEqualTo(4000); // the server echoes the code
      assertThat(events.closeCalls).isEqualTo(1);
      awaitNoConnections(server, client);
    }
  }

  @Test
  void theServersCloseCodeAndReasonReachTheClient() throws Exception {
    Events serverSide = Events.record();
    try (NioServer server =
            server(config(), ServerHandshakeConfig.defaults(), null, i -> serverSide);
        NioClient client = client()) {
      Events events = Events.record();
      Connection c = get(client.connect(ws(server, "/"), events));
      Connection onServer = get(serverSide.opened);
      onServer.close(4001, "server bye");
      assertThat(events.awaitClose(WAIT)).isEqualTo(new Events.Closed(4001, "server bye"));
      assertThat(serverSide.awaitClose(WAIT).code()).isEqualTo(4001);
      get(c.closed()); // the server closed TCP first, the client followed at once
      awaitNoConnections(server, client);
    }
  }

  @Test
  void serverClosesTcpAfterTheCloseTimeoutWhenThePeerNeverAnswersItsClose() throws Exception {
    Duration closeTimeout = Duration.ofMillis(300);
    ConnectionConfig cc =
        withTimeouts(Duration.ofSeconds(5), Duration.ZERO, Duration.ZERO, closeTimeout);
    Events serverSide = Events.record();
    try (NioServer server = server(cc, ServerHandshakeConfig.defaults(), null, i -> serverSide);
        RawPeer peer = RawPeer.client(server.port())) {
      peer.send(RawPeer.upgradeRequest("/"));
      assertThat(peer.readHead()).startsWith("HTTP/1.1 101 ");
      get(serverSide.opened).close(1000, "going");
      long start = System.nanoTime();
      RawPeer.Frame close = peer.readFrame();
      assertThat(close.opcode()).isEqualTo(0x8);
      assertThat(close.closeCode()).isEqualTo(1000);
      assertThat(peer.readToEnd()).isZero(); // no answer from us: the server gives up and closes
      long elapsed = Duration.ofNanos(System.nanoTime() - start).toMillis();
      assertThat(elapsed).isBetween(200L, 5000L);
      assertThat(serverSide.awaitClose(WAIT).code()).isEqualTo(1006);
      awaitNoConnections(server, null);
    }
  }

  @Test
  void clientWaitsForTheServersFinAndClosesAfterTheCloseTimeout() throws Exception {
    Duration closeTimeout = Duration.ofSeconds(1);
    ConnectionConfig cc =
        withTimeouts(Duration.ofSeconds(5), Duration.ZERO, Duration.ZERO, closeTimeout);
    try (ServerSocket listener = new ServerSocket(0, 5, java.net.InetAddress.getLoopbackAddress());
        NioClient client = client(cc, ClientHandshakeConfig.defaults())) {
      Events events = Events.record();
      CompletableFuture<Connection> connecting =
          client.connect(URI.create("ws://127.0.0.1:" + listener.getLocalPort() + "/"), events);
      try (Socket s = listener.accept();
          RawPeer server = new RawPeer(s, false)) {
        String head = server.readHead();
        Matcher m = Pattern.compile("Sec-WebSocket-Key: (\\S+)").matcher(head);
        assertThat(m.find()).isTrue();
        server.send(RawPeer.switchingProtocols(m.group(1)));
        Connection c = get(connecting);
        c.close(1000, "bye");
        RawPeer.Frame close = server.readFrame();
        assertThat(close.closeCode()).isEqualTo(1000);
        long start = System.nanoTime();
        // Answer the close but keep TCP open: the client must wait, then close by itself.
        server.send(server.frame(Opcode.CLOSE, new byte[] {0x03, (byte) 0xE8}));
        assertThat(events.awaitClose(WAIT).code()).isEqualTo(1000);
        assertThat(c.closed().isDone()).as("still waiting for the server's FIN").isFalse();
        assertThat(server.readToEnd()).isZero();
        long elapsed = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertThat(elapsed).isBetween(500L, 5000L);
        get(c.closed());
      }
      await("the client has no connection", () -> client.openConnections() == 0);
    }
  }

  // ---- timeouts ----

  @Test
  void aQuietConnectionIsClosedWith1001AfterTheIdleTimeout() throws Exception {
    ConnectionConfig cc =
        withTimeouts(
            Duration.ofSeconds(5), Duration.ofMillis(300), Duration.ZERO, Duration.ofSeconds(2));
    Events serverSide = Events.record();
    try (NioServer server = server(cc, ServerHandshakeConfig.defaults(), null, i -> serverSide);
        NioClient client = client()) {
      Events events = Events.record();
      long start = System.nanoTime();
      get(client.connect(ws(server, "/"), events));
      Events.Closed closed = events.awaitClose(WAIT);
      long elapsed = Duration.ofNanos(System.nanoTime() - start).toMillis();
      assertThat(closed.code()).isEqualTo(1001);
      assertThat(closed.reason()).contains("idle");
      assertThat(elapsed).isBetween(250L, 5000L);
      assertThat(serverSide.errors).hasAtLeastOneElementOfType(TimeoutException.class);
      awaitNoConnections(server, client);
    }
  }

  @Test
  void aClientThatSendsNothingIsCutOffAfterTheHandshakeTimeout() throws Exception {
    ConnectionConfig cc =
        withTimeouts(Duration.ofMillis(300), Duration.ZERO, Duration.ZERO, Duration.ofSeconds(2));
    try (NioServer server = echoServer(cc);
        RawPeer peer = RawPeer.client(server.port())) {
      await("the server counts the socket", () -> server.openConnections() == 1);
      long start = System.nanoTime();
      assertThat(peer.readToEnd()).isZero();
      long elapsed = Duration.ofNanos(System.nanoTime() - start).toMillis();
      assertThat(elapsed).isBetween(200L, 5000L);
      awaitNoConnections(server, null);
    }
  }

  @Test
  void aTlsClientThatNeverSendsItsHelloIsCutOffToo() throws Exception {
    ConnectionConfig cc =
        withTimeouts(Duration.ofMillis(300), Duration.ZERO, Duration.ZERO, Duration.ofSeconds(2));
    try (NioServer server =
            server(cc, ServerHandshakeConfig.defaults(), cert.server(), i -> Events.echo());
        RawPeer peer = RawPeer.client(server.port())) {
      assertThat(peer.readToEnd()).isZero();
      awaitNoConnections(server, null);
    }
  }

  @Test
  void aPeerThatNeverAnswersPingsIsClosedWith1011() throws Exception {
    ConnectionConfig cc =
        withTimeouts(
            Duration.ofSeconds(5), Duration.ZERO, Duration.ofMillis(200), Duration.ofMillis(300));
    Events serverSide = Events.record();
    try (NioServer server = server(cc, ServerHandshakeConfig.defaults(), null, i -> serverSide);
        RawPeer peer = RawPeer.client(server.port())) {
      peer.send(RawPeer.upgradeRequest("/"));
      assertThat(peer.readHead()).startsWith("HTTP/1.1 101 ");
      RawPeer.Frame ping = peer.readFrame();
      assertThat(ping.opcode()).isEqualTo(0x9);
      RawPeer.Frame close = peer.readFrame(); // we stay silent
      assertThat(close.opcode()).isEqualTo(0x8);
      assertThat(close.closeCode()).isEqualTo(1011);
      assertThat(peer.readToEnd()).isZero();
      awaitNoConnections(server, null);
    }
  }

  @Test
  void aPeerThatAnswersPingsStaysOpen() throws Exception {
    ConnectionConfig cc =
        withTimeouts(
            Duration.ofSeconds(5), Duration.ZERO, Duration.ofMillis(100), Duration.ofMillis(300));
    Events serverSide = Events.record();
    try (NioServer server = server(cc, ServerHandshakeConfig.defaults(), null, i -> serverSide);
        NioClient client = client()) {
      Events events = Events.record();
      Connection c = get(client.connect(ws(server, "/"), events));
      // A server that took the peer for dead would close instead of pinging on: four pings mean
      // three pongs were taken in time.
      for (int i = 1; i <= 4; i++) {
        assertThat(events.pings.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("ping " + i).isNotNull();
      }
      assertThat(c.isOpen()).isTrue();
      assertThat(serverSide.errors).isEmpty();
      c.close(1000, "");
      awaitNoConnections(server, client);
    }
  }

  // ---- bytes around the handshake ----

  @Test
  void aFrameSentInTheSameWriteAsTheUpgradeRequestIsDelivered() throws Exception {
    Events serverSide = Events.record();
    try (NioServer server =
            server(config(), ServerHandshakeConfig.defaults(), null, i -> serverSide);
        RawPeer peer = RawPeer.client(server.port())) {
      byte[] request = RawPeer.upgradeRequest("/early");
      byte[] frame = peer.frame(Opcode.TEXT, "early".getBytes(StandardCharsets.UTF_8));
      byte[] both = Arrays.copyOf(request, request.length + frame.length);
      System.arraycopy(frame, 0, both, request.length, frame.length);
      peer.send(both);
      assertThat(peer.readHead()).startsWith("HTTP/1.1 101 ");
      assertThat(new String(serverSide.next(WAIT).data(), StandardCharsets.UTF_8))
          .isEqualTo("early");
    }
  }

  @Test
  void aFrameSentInTheSameWriteAsThe101IsDelivered() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 5, java.net.InetAddress.getLoopbackAddress());
        NioClient client = client()) {
      Events events = Events.record();
      CompletableFuture<Connection> connecting =
          client.connect(URI.create("ws://127.0.0.1:" + listener.getLocalPort() + "/"), events);
      try (Socket s = listener.accept();
          RawPeer server = new RawPeer(s, false)) {
        Matcher m = Pattern.compile("Sec-WebSocket-Key: (\\S+)").matcher(server.readHead());
        assertThat(m.find()).isTrue();
        byte[] response = RawPeer.switchingProtocols(m.group(1));
        byte[] frame = server.frame(Opcode.TEXT, "hi".getBytes(StandardCharsets.UTF_8));
        byte[] both = Arrays.copyOf(response, response.length + frame.length);
        System.arraycopy(frame, 0, both, response.length, frame.length);
        server.send(both);
        get(connecting);
        assertThat(new String(events.next(WAIT).data(), StandardCharsets.UTF_8)).isEqualTo("hi");
      }
    }
  }

  @Test
  void aClientWhoseServerNeverAnswersFailsAfterTheHandshakeTimeout() throws Exception {
    ConnectionConfig cc =
        withTimeouts(Duration.ofMillis(300), Duration.ZERO, Duration.ZERO, Duration.ofSeconds(2));
    try (ServerSocket listener = new ServerSocket(0, 5, java.net.InetAddress.getLoopbackAddress());
        NioClient client = client(cc, ClientHandshakeConfig.defaults())) {
      long start = System.nanoTime();
      CompletableFuture<Connection> f =
          client.connect(
              URI.create("ws://127.0.0.1:" + listener.getLocalPort() + "/"), Events.record());
      try (Socket s = listener.accept()) {
        Throwable cause = catchCause(f);
        assertThat(cause)
            .isInstanceOf(java.net.SocketTimeoutException.class)
            .hasMessageContaining("300 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - start).toMillis()).isBetween(200L, 5000L);
        assertThat(s.getInputStream().readAllBytes()).asString().startsWith("GET / HTTP/1.1");
      }
      await("the client has no connection", () -> client.openConnections() == 0);
    }
  }

  // ---- refusals ----

  @Test
  void aRefusedUpgradeFailsTheFutureWithTheHttpStatus() throws Exception {
    try (NioServer server =
            server(
                config(),
                ServerHandshakeConfig.defaults(),
                null,
                info -> info.path().equals("/ok") ? Events.echo() : null);
        NioClient client = client()) {
      CompletableFuture<Connection> f = client.connect(ws(server, "/nope"), Events.record());
      assertThatThrownBy(() -> get(f))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOf(HandshakeException.class)
          .hasMessageContaining("404");
      HandshakeException e = (HandshakeException) catchCause(f);
      assertThat(e.status()).isEqualTo(404);
      Connection ok = get(client.connect(ws(server, "/ok"), Events.record()));
      assertThat(ok.isOpen()).isTrue();
      get(ok.close(1000, ""));
      awaitNoConnections(server, client);
    }
  }

  static Throwable catchCause(CompletableFuture<?> f) {
    try {
      f.join();
      throw new AssertionError("expected failure");
    } catch (java.util.concurrent.CompletionException e) {
      return e.getCause();
    }
  }

  @Test
  void aPlainGetToTheServerIsAnswered426AndClosed() throws Exception {
    try (NioServer server = echoServer(config());
        RawPeer peer = RawPeer.client(server.port())) {
      peer.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      String head = peer.readHead();
      assertThat(head).startsWith("HTTP/1.1 426 ").contains("Upgrade: websocket");
      assertThat(peer.readToEnd()).isPositive(); // the body, then the server's FIN
      peer.socket.close(); // it lingers until the client's
      awaitNoConnections(server, null);
    }
  }

  @Test
  void anErrorAnswerSurvivesBytesTheClientSentAfterTheRequest() throws Exception {
    try (NioServer server = echoServer(config());
        RawPeer peer = RawPeer.client(server.port())) {
      // A plain GET (426) followed by 2 MB the server never parses. The server half-closes and
      // drains them (RFC 9112 §9.6) rather than closing with unread bytes, which makes the kernel
      // send a reset that can drop an answer not yet sent (on loopback Linux sends it first).
      byte[] junk = new byte[2 << 20];
      Thread writer =
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      peer.send(
                          "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                              .getBytes(StandardCharsets.US_ASCII));
                      peer.send(junk);
                      peer.socket.shutdownOutput();
                    } catch (IOException e) {
                      // the server may stop reading once it has closed: the answer still counts
                    }
                  });
      writer.join(WAIT.toMillis());
      awaitNoConnections(server, null); // read late, after the server has closed its socket
      assertThat(peer.readHead()).startsWith("HTTP/1.1 426 ");
    }
  }

  @Test
  void anOversizedUpgradeHeadIsAnswered431AndClosed() throws Exception {
    try (NioServer server = echoServer(config());
        RawPeer peer = RawPeer.client(server.port())) {
      String request = new String(RawPeer.upgradeRequest("/"), StandardCharsets.ISO_8859_1);
      String big = request.replace("\r\n\r\n", "\r\nX-Filler: " + "f".repeat(9000) + "\r\n\r\n");
      peer.send(big.getBytes(StandardCharsets.ISO_8859_1));
      assertThat(peer.readHead()).startsWith("HTTP/1.1 431 ");
      assertThat(peer.readToEnd()).isPositive(); // the body, then the server's FIN
      peer.socket.close(); // it lingers until the client's
      awaitNoConnections(server, null);
    }
  }

  @Test
  void aServerCertificateForAnotherHostIsRefusedUnlessTheCheckIsTurnedOff() throws Exception {
    SelfSignedCert other = SelfSignedCert.create(dir, "dns:other.example");
    try (NioServer server =
            server(config(), ServerHandshakeConfig.defaults(), other.server(), i -> Events.echo());
        NioClient strict = NioClient.builder().group(group).sslContext(other.client()).build();
        NioClient lax =
            NioClient.builder()
                .group(group)
                .sslContext(other.client())
                .insecureSkipHostnameVerification()
                .build()) {
      URI uri = URI.create("wss://localhost:" + server.port() + "/");
      CompletableFuture<Connection> f = strict.connect(uri, Events.record());
      assertThat(catchCause(f)).isInstanceOf(SSLHandshakeException.class);
      Connection c = get(lax.connect(uri, Events.record()));
      assertThat(c.isOpen()).isTrue();
      get(c.close(1000, ""));
      awaitNoConnections(server, strict);
      await("no connection left", () -> lax.openConnections() == 0);
    }
  }

  @Test
  void aClientThatDoesNotTrustTheCertificateFailsTheHandshake() throws Exception {
    try (NioServer server =
            server(config(), ServerHandshakeConfig.defaults(), cert.server(), i -> Events.echo());
        NioClient defaultTrust = NioClient.builder().group(group).build()) {
      CompletableFuture<Connection> f =
          defaultTrust.connect(
              URI.create("wss://localhost:" + server.port() + "/"), Events.record());
      assertThat(catchCause(f)).isInstanceOf(SSLHandshakeException.class);
      awaitNoConnections(server, defaultTrust);
    }
  }

  // ---- shutdown ----

  @Test
  void shutdownSends1001ToEveryConnectionAndStopsAccepting() throws Exception {
    NioServer server = echoServer(config());
    try (NioClient client = client()) {
      List<Events> events = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        Events e = Events.record();
        events.add(e);
        get(client.connect(ws(server, "/"), e));
      }
      assertThat(server.shutdown(Duration.ofSeconds(5))).isTrue();
      for (Events e : events) {
        assertThat(e.awaitClose(WAIT).code()).isEqualTo(1001);
      }
      assertThat(server.openConnections()).isZero();
      CompletableFuture<Connection> late = client.connect(ws(server, "/"), Events.record());
      assertThat(catchCause(late)).isInstanceOf(IOException.class);
      await("the client has no connection", () -> client.openConnections() == 0);
    }
  }

  @Test
  void shutdownClosesOnlyItsOwnConnectionsOnASharedGroup() throws Exception {
    NioServer leaving = echoServer(config());
    try (NioServer staying = echoServer(config());
        NioClient client = client()) {
      Events toLeaving = Events.record();
      get(client.connect(ws(leaving, "/"), toLeaving));
      List<Connection> kept = new ArrayList<>();
      for (int i = 0; i < 4; i++) { // on both loops of the shared group
        kept.add(get(client.connect(ws(staying, "/"), Events.record())));
      }
      assertThat(leaving.shutdown(Duration.ofSeconds(5))).isTrue();
      assertThat(toLeaving.awaitClose(WAIT).code()).isEqualTo(1001);
      assertThat(staying.openConnections()).isEqualTo(4);
      for (Connection c : kept) {
        assertThat(c.isOpen()).isTrue();
        assertThat(get(c.sendText("still here"))).isNull();
      }
    }
  }

  @Test
  void shutdownClosesItsHandshakesUnderWayAndNoOtherServers() throws Exception {
    NioServer leaving = echoServer(config());
    try (NioServer staying = echoServer(config())) {
      byte[] request = RawPeer.upgradeRequest("/");
      byte[] half = Arrays.copyOf(request, request.length / 2);
      List<RawPeer> toLeaving = new ArrayList<>();
      List<RawPeer> toStaying = new ArrayList<>();
      try {
        for (int i = 0; i < 4; i++) { // on both loops of the shared group
          toLeaving.add(RawPeer.client(leaving.port()));
          toStaying.add(RawPeer.client(staying.port()));
        }
        for (RawPeer p : toLeaving) {
          p.send(half);
        }
        for (RawPeer p : toStaying) {
          p.send(half);
        }
        await("both servers hold their handshakes",
            () -> leaving.openConnections() == 4 && staying.openConnections() == 4);
        assertThat(leaving.shutdown(Duration.ofSeconds(5))).isTrue();
        for (RawPeer p : toLeaving) {
          assertThat(p.readToEnd()).isZero(); // closed without a word: no upgrade had begun
        }
        assertThat(staying.openConnections()).isEqualTo(4);
        for (RawPeer p : toStaying) {
          p.send(Arrays.copyOfRange(request, half.length, request.length));
          assertThat(p.readHead()).startsWith("HTTP/1.1 101 ");
        }
      } finally {
        for (RawPeer p : toLeaving) {
          p.close();
        }
        for (RawPeer p : toStaying) {
          p.close();
        }
      }
    }
  }

  @Test
  void aSendAfterTheQueueIsFullFailsFastWithQueueFull() throws Exception {
    ConnectionConfig small = withQueue(64 * 1024);
    // A raw peer that never reads: the server's socket buffers fill, then its queue.
    Events serverSide = Events.record();
    try (NioServer server = server(small, ServerHandshakeConfig.defaults(), null, i -> serverSide);
        RawPeer peer = RawPeer.client(server.port())) {
      peer.send(RawPeer.upgradeRequest("/"));
      assertThat(peer.readHead()).startsWith("HTTP/1.1 101 ");
      Connection c = get(serverSide.opened);
      byte[] chunk = new byte[16 * 1024];
      CompletableFuture<Void> f = null;
      for (int i = 0; i < 10_000; i++) {
        f = c.sendMessage(Opcode.BINARY, ByteBuffer.wrap(chunk));
        if (f.isCompletedExceptionally()) {
          break;
        }
      }
      assertThat(catchCause(f)).isInstanceOf(QueueFullException.class);
      c.abort();
      awaitNoConnections(server, null);
    }
  }
}
