package dev.wsjava.transport.blocking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.extension.ExtensionFactory;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.handshake.ClientHandshakeConfig;
import dev.wsjava.handshake.HandshakeException;
import dev.wsjava.handshake.ServerHandshakeConfig;
import dev.wsjava.CloseCode;
import dev.wsjava.protocol.Hex;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.internal.http.HttpLimits;
import dev.wsjava.http.HttpResponse;
import dev.wsjava.internal.http.Router;
import dev.wsjava.transport.Connection;
import dev.wsjava.transport.Acceptor;
import dev.wsjava.transport.ConnectionHandler;
import dev.wsjava.transport.HandshakeInfo;
import dev.wsjava.transport.ConnectionConfig;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** End to end on loopback: BlockingClient against BlockingServer, ws and wss, deflate or not. */
@Timeout(60)
class BlockingServerTest {
  /** The sizes around every length encoding of RFC 6455 §5.2, and the 16 MiB default limit. */
  static final int[] SIZES = {0, 1, 125, 126, 65535, 65536, 16 << 20};

  @TempDir static Path dir;
  static TestTls tls;

  final BlockingQueue<Recorder> serverSide = new LinkedBlockingQueue<>();
  final List<BlockingServer> servers = new ArrayList<>();

  @BeforeAll
  static void makeCertificate() throws Exception {
    tls = TestTls.create(dir, "dns:localhost,ip:127.0.0.1");
  }

  @AfterEach
  void stopServers() throws Exception {
    for (BlockingServer s : servers) {
      s.shutdown(Duration.ofSeconds(2));
      assertThat(s.openConnections()).as("connections left after shutdown").isZero();
    }
  }

  BlockingServer.Builder echoServer() {
    return BlockingServer.builder()
        .bind("127.0.0.1", 0)
        .handlers(
            info -> {
              Recorder r = Recorder.echo();
              serverSide.add(r);
              return r;
            });
  }

  BlockingServer start(BlockingServer.Builder b) throws Exception {
    BlockingServer s = b.start();
    servers.add(s);
    return s;
  }

  static final BlockingClient CLIENT = BlockingClient.builder().build();

  static URI uri(BlockingServer s, boolean secure, String path) {
    return URI.create((secure ? "wss" : "ws") + "://localhost:" + s.port() + path);
  }

  static byte[] payload(SplittableRandom random, int size) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) random.nextInt(64); // compressible enough that 16 MiB deflates under the limit
    }
    return b;
  }

  static void await(BooleanSupplier condition, String what) throws InterruptedException {
    dev.wsjava.Await.until(what, Duration.ofSeconds(10), condition);
  }

  // ---------------------------------------------------------------------------------------------

  @ParameterizedTest(name = "tls {0}, deflate {1}")
  @CsvSource({"false, false", "false, true", "true, false", "true, true"})
  void echoesEveryPayloadSizeWholeAndIntact(boolean secure, boolean deflate) throws Exception {
    List<ExtensionFactory> ext = deflate ? List.of(PerMessageDeflate.defaults()) : List.of();
    BlockingServer server =
        start(
            echoServer()
                .tls(secure ? tls.server : null)
                .handshakeConfig(ServerHandshakeConfig.defaults().withExtensions(ext)));
    BlockingClient client =
        BlockingClient.builder()
            .sslContext(tls.client)
            .handshakeConfig(ClientHandshakeConfig.defaults().withExtensions(ext))
            .build();
    Recorder events = Recorder.quiet();
    Connection c = client.connectBlocking(uri(server, secure, "/echo"), events);
    assertThat(c.extensions()).isEqualTo(deflate ? List.of("permessage-deflate") : List.of());

    SplittableRandom random = new SplittableRandom(secure ? 1 : 2);
    for (int size : SIZES) {
      byte[] sent = payload(random, size);
      c.sendMessage(Opcode.BINARY, ByteBuffer.wrap(sent)).get(10, TimeUnit.SECONDS);
      Recorder.Message echoed = events.next();
      assertThat(echoed.type()).isEqualTo(Opcode.BINARY);
      assertThat(echoed.bytes().length).as("size").isEqualTo(size);
      assertThat(echoed.bytes()).as("payload of " + size + " bytes").isEqualTo(sent);
    }
    c.sendText("héllo, wörld").get(10, TimeUnit.SECONDS);
    Recorder.Message text = events.next();
    assertThat(text.type()).isEqualTo(Opcode.TEXT);
    assertThat(new String(text.bytes(), StandardCharsets.UTF_8)).isEqualTo("héllo, wörld");

    c.close(CloseCode.NORMAL, "done").get(10, TimeUnit.SECONDS);
    // The server echoes the code without the reason (RFC 6455 §5.5.1).
    assertThat(events.close()).isEqualTo(new Recorder.Close(CloseCode.NORMAL, ""));
    assertThat(serverSide.take().close()).isEqualTo(new Recorder.Close(CloseCode.NORMAL, "done"));
    assertThat(events.errors).isEmpty();
    await(() -> server.openConnections() == 0, "server released the connection");
  }

  @Test
  void framesFromManyThreadsOnOneConnectionNeverInterleave() throws Exception {
    BlockingServer server = start(echoServer());
    Recorder events = Recorder.quiet();
    Connection c = CLIENT.connectBlocking(uri(server, false, "/"), events);
    int threads = 8;
    int perThread = 200;
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> senders = new ArrayList<>();
    List<CompletableFuture<Void>> sends = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      senders.add(
          Thread.ofVirtual()
              .start(
                  () -> {
                    SplittableRandom random = new SplittableRandom(id);
                    try {
                      go.await();
                    } catch (InterruptedException e) {
                      return;
                    }
                    for (int i = 0; i < perThread; i++) {
                      // Sizes across a shared 4 KiB chunk and past it, so both buffer kinds mix.
                      int size = 8 + random.nextInt(i % 10 == 0 ? 70_000 : 3000);
                      sends.add(c.sendMessage(Opcode.BINARY, ByteBuffer.wrap(tagged(id, i, size))));
                    }
                  }));
    }
    go.countDown();
    for (Thread t : senders) {
      t.join();
    }
    CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
    int[] nextSeq = new int[threads];
    for (int n = 0; n < threads * perThread; n++) {
      byte[] m = events.next().bytes();
      ByteBuffer b = ByteBuffer.wrap(m);
      int id = b.getInt();
      int seq = b.getInt();
      assertThat(seq).as("order of thread " + id).isEqualTo(nextSeq[id]++);
      assertThat(m).as("message " + id + "/" + seq).isEqualTo(tagged(id, seq, m.length));
    }
    assertThat(events.errors).isEmpty();
    c.close(CloseCode.NORMAL, "").get(10, TimeUnit.SECONDS);
  }

  /** A message that names its sender and number and fills the rest with a pattern of both. */
  static byte[] tagged(int thread, int seq, int size) {
    ByteBuffer b = ByteBuffer.allocate(size).putInt(thread).putInt(seq);
    while (b.hasRemaining()) {
      b.put((byte) (thread * 31 + seq + b.position()));
    }
    return b.array();
  }

  @Test
  void servesTwoHundredFiftyConcurrentConnectionsAndLeaksNone() throws Exception {
    BlockingServer server = start(echoServer());
    BlockingClient client = BlockingClient.builder().build();
    int n = 250;
    List<Recorder> recorders = new ArrayList<>();
    List<CompletableFuture<Connection>> connecting = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Recorder r = Recorder.quiet();
      recorders.add(r);
      connecting.add(client.connect(uri(server, false, "/" + i), r));
    }
    List<Connection> open = new ArrayList<>();
    for (CompletableFuture<Connection> f : connecting) {
      open.add(f.get(20, TimeUnit.SECONDS));
    }
    assertThat(server.openConnections()).isEqualTo(n);
    for (int i = 0; i < n; i++) {
      open.get(i).sendText("client " + i);
    }
    for (int i = 0; i < n; i++) {
      assertThat(new String(recorders.get(i).next().bytes(), StandardCharsets.UTF_8))
          .isEqualTo("client " + i);
    }
    for (Connection c : open) {
      c.close(CloseCode.NORMAL, "");
    }
    for (Connection c : open) {
      c.closed().get(10, TimeUnit.SECONDS);
    }
    await(() -> server.openConnections() == 0, "every connection released");
    for (Recorder r : serverSide) {
      assertThat(r.close().code()).isEqualTo(CloseCode.NORMAL);
      assertThat(r.closes.get()).as("onClose once").isEqualTo(1);
    }
  }

  @Test
  void cutsOffAClientThatSendsNothingAfterTheHandshakeTimeout() throws Exception {
    ConnectionConfig config = Configs.handshakeTimeout(Duration.ofMillis(300));
    BlockingServer server = start(echoServer().connectionConfig(config));
    try (Socket idle = new Socket("127.0.0.1", server.port())) {
      idle.setSoTimeout(5000);
      long start = System.nanoTime();
      byte[] answer = idle.getInputStream().readAllBytes();
      long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertThat(new String(answer, StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 408 ");
      assertThat(elapsed).isBetween(250L, 3000L);
    }
    await(() -> server.openConnections() == 0, "the idle socket released");
  }

  @Test
  void cutsOffATlsClientThatNeverSendsAClientHello() throws Exception {
    ConnectionConfig config = Configs.handshakeTimeout(Duration.ofMillis(300));
    BlockingServer server = start(echoServer().tls(tls.server).connectionConfig(config));
    try (Socket idle = new Socket("127.0.0.1", server.port())) {
      idle.setSoTimeout(5000);
      long start = System.nanoTime();
      assertThat(idle.getInputStream().read()).isEqualTo(-1);
      long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertThat(elapsed).isBetween(250L, 3000L);
    }
    await(() -> server.openConnections() == 0, "the idle socket released");
  }

  @Test
  void handsTheSessionAFrameThatArrivedWithTheUpgradeRequest() throws Exception {
    BlockingServer server = start(echoServer());
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(5000);
      String request =
          "GET /chat HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
      // RFC 6455 §5.7: a masked text frame "Hello", sent in the same write as the request.
      byte[] frame = Hex.bytes("81 85 37 fa 21 3d 7f 9f 4d 51 58");
      OutputStream out = s.getOutputStream();
      out.write(concat(request.getBytes(StandardCharsets.ISO_8859_1), frame));
      InputStream in = s.getInputStream();
      String head = readHead(in);
      assertThat(head).startsWith("HTTP/1.1 101 ");
      assertThat(head).contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
      // The echo comes back unmasked (RFC 6455 §5.7: 81 05 "Hello").
      assertThat(Hex.of(in.readNBytes(7))).isEqualTo("81 05 48 65 6c 6c 6f");
    }
    Recorder r = serverSide.poll(5, TimeUnit.SECONDS);
    assertThat(r).isNotNull();
    assertThat(new String(r.next().bytes(), StandardCharsets.UTF_8)).isEqualTo("Hello");
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  /** Reads an HTTP head up to and including its empty line, byte by byte. */
  static String readHead(InputStream in) throws Exception {
    StringBuilder sb = new StringBuilder();
    while (!sb.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new AssertionError("stream ended inside the head: " + sb);
      }
      sb.append((char) b);
    }
    return sb.toString();
  }

  @Test
  void answersA404WhenTheFactoryHasNoHandlerForThePath() throws Exception {
    BlockingServer server =
        start(
            BlockingServer.builder()
                .bind("127.0.0.1", 0)
                .handlers(info -> info.path().equals("/chat") ? Recorder.echo() : null));
    BlockingClient client = BlockingClient.builder().build();
    URI nowhere = uri(server, false, "/nowhere");
    assertThatThrownBy(() -> client.connectBlocking(nowhere, Recorder.quiet()))
        .isInstanceOf(HandshakeException.class)
        .hasMessageContaining("/nowhere")
        .hasMessageContaining("404")
        .satisfies(e -> assertThat(((HandshakeException) e).status()).isEqualTo(404));
    Connection c = client.connectBlocking(uri(server, false, "/chat?room=1"), Recorder.quiet());
    assertThat(c.isOpen()).isTrue();
    c.close(CloseCode.NORMAL, "").get(5, TimeUnit.SECONDS);
  }

  @Test
  void answersAPlainGetWith426() throws Exception {
    BlockingServer server = start(echoServer());
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(5000);
      s.getOutputStream()
          .write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
      assertThat(answer).startsWith("HTTP/1.1 426 ").contains("Upgrade: websocket");
    }
  }

  @Test
  void shutdownClosesEveryConnectionWith1001() throws Exception {
    BlockingServer server = echoServer().start();
    BlockingClient client = BlockingClient.builder().build();
    List<Recorder> clients = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Recorder r = Recorder.quiet();
      clients.add(r);
      client.connectBlocking(uri(server, false, "/"), r);
    }
    assertThat(server.shutdown(Duration.ofSeconds(5))).isTrue();
    for (Recorder r : clients) {
      assertThat(r.close())
          .isEqualTo(new Recorder.Close(CloseCode.GOING_AWAY, "server shutting down"));
    }
    assertThat(server.openConnections()).isZero();
    assertThatThrownBy(() -> client.connectBlocking(uri(server, false, "/"), Recorder.quiet()))
        .isInstanceOf(java.io.IOException.class);
  }

  @Test
  void shutdownAbortsAPeerThatDoesNotAnswerTheClose() throws Exception {
    BlockingServer server = echoServer().start();
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.getOutputStream()
          .write(
              ("GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      + "Sec-WebSocket-Version: 13\r\n\r\n")
                  .getBytes(StandardCharsets.ISO_8859_1));
      assertThat(readHead(s.getInputStream())).startsWith("HTTP/1.1 101 ");
      await(() -> server.openConnections() == 1, "connection open");
      long start = System.nanoTime();
      assertThat(server.shutdown(Duration.ofMillis(300))).isFalse();
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(250L, 3000L);
      assertThat(server.openConnections()).isZero();
      // It got the close frame (1001) and then the end of the stream.
      s.setSoTimeout(5000);
      byte[] rest = s.getInputStream().readAllBytes();
      assertThat(Hex.of(java.util.Arrays.copyOf(rest, 4))).isEqualTo("88 16 03 e9");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Behind the HTTP front

  BlockingServer routed(HttpLimits limits) throws Exception {
    Router<Acceptor> router =
        Router.<Acceptor>builder()
            .get("/hello", request -> HttpResponse.text(200, "hi " + request.path()))
            .websocket(
                "/ws",
                Acceptor.of(
                    info -> {
                      Recorder r = Recorder.echo();
                      serverSide.add(r);
                      return r;
                    }))
            .build();
    return start(BlockingServer.builder().bind("127.0.0.1", 0).router(router, limits));
  }

  @Test
  void answersPlainRoutesOverOneKeepAliveConnectionBesideWebSocketRoutes() throws Exception {
    BlockingServer server = routed(HttpLimits.defaults());
    try (RawPeer peer = new RawPeer(new Socket("127.0.0.1", server.port()))) {
      // Two pipelined requests in one write, answered in order on the same connection.
      peer.write(
          "GET /hello HTTP/1.1\r\nHost: a\r\n\r\nGET /nowhere HTTP/1.1\r\nHost: a\r\n\r\n");
      String first = peer.readHead();
      assertThat(first).startsWith("HTTP/1.1 200 ").contains("Content-Length: 9\r\n");
      assertThat(new String(peer.in.readNBytes(9), StandardCharsets.UTF_8)).isEqualTo("hi /hello");
      String second = peer.readHead();
      assertThat(second).startsWith("HTTP/1.1 404 ");
      await(() -> server.openConnections() == 1, "the keep-alive connection counted");
    }
    await(() -> server.openConnections() == 0, "the closed connection released");

    Recorder events = Recorder.quiet();
    Connection c = CLIENT.connectBlocking(uri(server, false, "/ws"), events);
    c.sendText("over the router");
    assertThat(new String(events.next().bytes(), StandardCharsets.UTF_8))
        .isEqualTo("over the router");
    c.close(CloseCode.NORMAL, "").get(5, TimeUnit.SECONDS);
  }

  @Test
  void answersRequestAfterRequestOnOneKeepAliveConnectionThenUpgradesIt() throws Exception {
    BlockingServer server = routed(HttpLimits.defaults());
    try (RawPeer peer = new RawPeer(new Socket("127.0.0.1", server.port()))) {
      // One request at a time, each after the last answer: the connection's thread gives way
      // every 16 reads, and every answer must still come, whole and in order.
      for (int i = 0; i < 40; i++) {
        peer.write(i % 2 == 0 ? "GET /hello HTTP/1.1\r\nHost: a\r\n\r\n"
            : "GET /nowhere HTTP/1.1\r\nHost: a\r\n\r\n");
        String head = peer.readHead();
        if (i % 2 == 0) {
          assertThat(head).startsWith("HTTP/1.1 200 ").contains("Content-Length: 9\r\n");
          assertThat(new String(peer.in.readNBytes(9), StandardCharsets.UTF_8))
              .isEqualTo("hi /hello");
        } else {
          assertThat(head).startsWith("HTTP/1.1 404 ");
          peer.in.readNBytes(contentLength(head));
        }
      }
      // The read loop takes over the buffer the requests were read into: frames that come in
      // later reads, small and larger than it, arrive intact.
      peer.write(RawPeer.UPGRADE.replace("GET / ", "GET /ws "));
      assertThat(peer.readHead()).startsWith("HTTP/1.1 101 ");
      peer.write(Hex.bytes("81 85 37 fa 21 3d 7f 9f 4d 51 58"));
      assertThat(peer.readFrame()).isEqualTo("81 05 48 65 6c 6c 6f");
      byte[] big = new byte[5000];
      for (int i = 0; i < big.length; i++) {
        big[i] = (byte) ('a' + i % 26);
      }
      peer.write(maskedText(big, 0x37fa213d));
      byte[] echo = peer.in.readNBytes(4 + big.length);
      assertThat(Hex.of(java.util.Arrays.copyOf(echo, 4))).isEqualTo("81 7e 13 88");
      assertThat(java.util.Arrays.copyOfRange(echo, 4, echo.length)).isEqualTo(big);
    }
  }

  static int contentLength(String head) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("(?i)content-length: (\\d+)").matcher(head);
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  /** A masked text frame with a 16-bit length, as a client sends it. */
  static byte[] maskedText(byte[] payload, int key) {
    return masked(0x81, payload, key);
  }

  /** A masked binary frame with a 64-bit length, as a client sends it. */
  static byte[] maskedBinary(byte[] payload, int key) {
    return masked(0x82, payload, key);
  }

  /** A masked frame: a 16-bit length below 64 KiB, a 64-bit one from there. */
  static byte[] masked(int first, byte[] payload, int key) {
    int lengthBytes = payload.length < 65536 ? 2 : 8;
    int header = 2 + lengthBytes + 4;
    byte[] frame = new byte[header + payload.length];
    frame[0] = (byte) first;
    frame[1] = (byte) (0x80 | (lengthBytes == 2 ? 126 : 127));
    for (int i = 0; i < lengthBytes; i++) {
      frame[2 + i] = (byte) ((long) payload.length >>> (8 * (lengthBytes - 1 - i)));
    }
    for (int i = 0; i < 4; i++) {
      frame[header - 4 + i] = (byte) (key >>> (24 - 8 * i));
    }
    for (int i = 0; i < payload.length; i++) {
      frame[header + i] = (byte) (payload[i] ^ frame[header - 4 + (i & 3)]);
    }
    return frame;
  }

  @Test
  void theRoutedUpgradeHandsTheSessionTheFrameThatCameWithIt() throws Exception {
    BlockingServer server = routed(HttpLimits.defaults());
    try (RawPeer peer = new RawPeer(new Socket("127.0.0.1", server.port()))) {
      // A plain request first, then the upgrade and a masked "Hello" (RFC 6455 §5.7) in one write.
      peer.write("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n");
      assertThat(peer.readHead()).startsWith("HTTP/1.1 200 ");
      peer.in.readNBytes(9);
      peer.write(
          concat(
              RawPeer.UPGRADE.replace("GET / ", "GET /ws ").getBytes(StandardCharsets.ISO_8859_1),
              Hex.bytes("81 85 37 fa 21 3d 7f 9f 4d 51 58")));
      assertThat(peer.readHead()).startsWith("HTTP/1.1 101 ");
      assertThat(peer.readFrame()).isEqualTo("81 05 48 65 6c 6c 6f");
    }
  }

  @Test
  void closesAnIdleKeepAliveConnectionSilently() throws Exception {
    BlockingServer server =
        routed(HttpLimits.defaults().withIdleTimeoutNanos(TimeUnit.MILLISECONDS.toNanos(200)));
    try (RawPeer peer = new RawPeer(new Socket("127.0.0.1", server.port()))) {
      peer.write("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n");
      assertThat(peer.readHead()).startsWith("HTTP/1.1 200 ");
      peer.in.readNBytes(9);
      long start = System.nanoTime();
      assertThat(peer.atEnd()).isTrue();
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(150L, 3000L);
    }
  }

  @Test
  void speaksTls13ByDefaultAndTls12WhenTheClientAsks() throws Exception {
    BlockingServer server = start(echoServer().tls(tls.server));
    for (String version : List.of("TLSv1.3", "TLSv1.2")) {
      try (SSLSocket s =
          (SSLSocket) tls.client.getSocketFactory().createSocket("localhost", server.port())) {
        if (version.equals("TLSv1.2")) {
          s.setEnabledProtocols(new String[] {"TLSv1.2"});
        }
        s.startHandshake();
        assertThat(s.getSession().getProtocol()).isEqualTo(version);
      }
    }
  }
}
