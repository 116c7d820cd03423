package dev.wsjava.transport.blocking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.CloseCode;
import dev.wsjava.protocol.FrameEncoder;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.ProtocolException;
import dev.wsjava.transport.Connection;
import dev.wsjava.WebSocketClosedException;
import dev.wsjava.transport.ConnectionConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The connection's lifecycle on loopback: close codes, timers, misbehaving peers. */
@Timeout(30)
class BlockingConnectionTest {
  final BlockingQueue<Recorder> serverSide = new LinkedBlockingQueue<>();
  final List<AutoCloseable> resources = new ArrayList<>();

  @AfterEach
  void release() throws Exception {
    for (AutoCloseable r : resources.reversed()) {
      r.close();
    }
  }

  BlockingServer server(ConnectionConfig config, boolean echo) throws Exception {
    BlockingServer s =
        BlockingServer.builder()
            .bind("127.0.0.1", 0)
            .connectionConfig(config)
            .handlers(
                info -> {
                  Recorder r = new Recorder(echo);
                  serverSide.add(r);
                  return r;
                })
            .start();
    resources.add(s);
    return s;
  }

  Recorder nextServerSide() throws InterruptedException {
    Recorder r = serverSide.poll(10, TimeUnit.SECONDS);
    assertThat(r).as("a server-side connection").isNotNull();
    return r;
  }

  static Connection connect(BlockingServer s, ConnectionConfig config, Recorder events)
      throws Exception {
    return BlockingClient.builder()
        .connectionConfig(config)
        .build()
        .connectBlocking(URI.create("ws://127.0.0.1:" + s.port() + "/"), events);
  }

  static long millisSince(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }

  // ---------------------------------------------------------------------------------------------
  // Bytes split anywhere

  static BlockingServer shared;

  @BeforeAll
  static void startSharedEchoServer() throws Exception {
    shared =
        BlockingServer.builder().bind("127.0.0.1", 0).handlers(info -> Recorder.echo()).start();
  }

  @AfterAll
  static void stopSharedEchoServer() throws Exception {
    assertThat(shared.shutdown(Duration.ofSeconds(2))).isTrue();
  }

  /**
   * A peer writes fragmented messages with pings between fragments, cut into TCP writes at random
   * points: whatever the split, every message comes back whole (the read loop loses no byte).
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#fewer")
  void messagesSurviveAnySplitIntoReads(long seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    int count = 1 + random.nextInt(6);
    List<byte[]> messages = new ArrayList<>();
    ByteBuffer wire = ByteBuffer.allocate(1 << 20);
    for (int m = 0; m < count; m++) {
      byte[] message = new byte[random.nextInt(random.nextBoolean() ? 200 : 70_000)];
      random.nextBytes(message);
      messages.add(message);
      int fragments = 1 + random.nextInt(Math.min(4, message.length + 1));
      int at = 0;
      for (int f = 0; f < fragments; f++) {
        boolean last = f == fragments - 1;
        int end = last ? message.length : at + random.nextInt(message.length - at + 1);
        Opcode op = f == 0 ? Opcode.BINARY : Opcode.CONTINUATION;
        FrameEncoder.encode(wire, last, 0, op, message, at, end - at, true, random.nextInt());
        if (random.nextInt(4) == 0) {
          byte[] none = new byte[0];
          FrameEncoder.encode(wire, true, 0, Opcode.PING, none, 0, 0, true, random.nextInt());
        }
        at = end;
      }
    }
    wire.flip();
    try (RawPeer peer = RawPeer.upgradedClient(shared.port())) {
      peer.socket.setTcpNoDelay(true);
      Thread writer =
          Thread.ofVirtual()
              .start(
                  () -> {
                    try {
                      while (wire.hasRemaining()) {
                        int n = Math.min(wire.remaining(), 1 + random.nextInt(3000));
                        byte[] piece = new byte[n];
                        wire.get(piece);
                        peer.write(piece);
                      }
                    } catch (java.io.IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  });
      for (byte[] expected : messages) {
        RawPeer.Frame frame = peer.readServerMessage(); // skips the pongs answering the pings
        assertThat(frame.first()).isEqualTo(0x82);
        assertThat(frame.payload()).isEqualTo(expected);
      }
      writer.join();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Close codes

  @Test
  void aClientCloseReachesTheServerWithItsCodeAndReason() throws Exception {
    BlockingServer server = server(ConnectionConfig.DEFAULTS, true);
    Recorder client = Recorder.quiet();
    Connection c = connect(server, ConnectionConfig.DEFAULTS, client);
    Recorder remote = nextServerSide();
    c.close(4000, "client bye").get(5, TimeUnit.SECONDS);
    assertThat(remote.close()).isEqualTo(new Recorder.Close(4000, "client bye"));
    assertThat(client.close()).isEqualTo(new Recorder.Close(4000, ""));
    assertThat(client.errors).isEmpty();
    assertThat(remote.errors).isEmpty();
    assertThat(c.isOpen()).isFalse();
  }

  @Test
  void aServerCloseReachesTheClientWithItsCodeAndReason() throws Exception {
    BlockingServer server = server(ConnectionConfig.DEFAULTS, true);
    Recorder client = Recorder.quiet();
    Connection c = connect(server, ConnectionConfig.DEFAULTS, client);
    Recorder remote = nextServerSide();
    remote.opened.get(5, TimeUnit.SECONDS).close(CloseCode.POLICY_VIOLATION, "not allowed");
    assertThat(client.close()).isEqualTo(new Recorder.Close(1008, "not allowed"));
    assertThat(remote.close()).isEqualTo(new Recorder.Close(1008, ""));
    c.closed().get(5, TimeUnit.SECONDS);
    assertThat(client.closes.get()).isEqualTo(1);
    ExecutionException late =
        org.junit.jupiter.api.Assertions.assertThrows(
            ExecutionException.class, () -> c.sendText("late").get(5, TimeUnit.SECONDS));
    assertThat(late.getCause())
        .isInstanceOfSatisfying(
            WebSocketClosedException.class, e -> assertThat(e.code()).isEqualTo(1008));
  }

  @Test
  void theServerClosesTcpRightAfterTheClosingHandshake() throws Exception {
    BlockingServer server = server(Configs.closeTimeout(Duration.ofSeconds(10)), true);
    try (RawPeer peer = RawPeer.upgradedClient(server.port())) {
      long start = System.nanoTime();
      // A masked close frame, code 1000 (mask 00 00 00 00 keeps the bytes readable).
      peer.writeHex("88 82 00 00 00 00 03 e8");
      assertThat(peer.readFrame()).isEqualTo("88 02 03 e8");
      assertThat(peer.atEnd()).isTrue();
      assertThat(millisSince(start)).isLessThan(2000);
    }
    assertThat(nextServerSide().close()).isEqualTo(new Recorder.Close(1000, ""));
  }

  @Test
  void aProtocolViolationIsAnsweredWith1002AndTheSocketCloses() throws Exception {
    BlockingServer server = server(ConnectionConfig.DEFAULTS, true);
    try (RawPeer peer = RawPeer.upgradedClient(server.port())) {
      peer.writeHex("81 05 48 65 6c 6c 6f"); // "Hello" unmasked: clients must mask (§5.1)
      assertThat(peer.readFrame()).startsWith("88 ").contains(" 03 ea "); // 1002
      assertThat(peer.atEnd()).isTrue();
    }
    Recorder remote = nextServerSide();
    assertThat(remote.close().code()).isEqualTo(CloseCode.PROTOCOL_ERROR);
    assertThat(remote.errors).singleElement().isInstanceOf(ProtocolException.class);
  }

  // ---------------------------------------------------------------------------------------------
  // Timers

  @Test
  void anIdleConnectionIsClosedWith1001() throws Exception {
    BlockingServer server = server(Configs.idle(Duration.ofMillis(200), Configs.NONE), true);
    Recorder client = Recorder.quiet();
    long start = System.nanoTime();
    connect(server, ConnectionConfig.DEFAULTS, client);
    assertThat(client.close().code()).isEqualTo(CloseCode.GOING_AWAY);
    assertThat(millisSince(start)).isBetween(150L, 3000L);
    Recorder remote = nextServerSide();
    assertThat(remote.close().code()).isEqualTo(CloseCode.GOING_AWAY);
    assertThat(remote.errors).singleElement().isInstanceOf(TimeoutException.class);
  }

  @Test
  void pingsKeepAQuietLivePeerOpenPastTheIdleTimeout() throws Exception {
    BlockingServer server =
        server(Configs.idle(Duration.ofMillis(300), Duration.ofMillis(100)), true);
    Recorder client = Recorder.quiet();
    Connection c = connect(server, ConnectionConfig.DEFAULTS, client);
    Recorder remote = nextServerSide();
    // Each ping follows 100 ms of quiet: four pongs back mean 400 ms, past the idle timeout.
    remote.awaitPongs(4);
    assertThat(c.isOpen()).isTrue();
    assertThat(client.pings.get()).as("pings the client answered").isGreaterThanOrEqualTo(4);
    assertThat(remote.errors).isEmpty();
    c.close(CloseCode.NORMAL, "").get(5, TimeUnit.SECONDS);
  }

  @Test
  void aPeerThatStopsAnsweringIsClosedWith1011AndThenCutOff() throws Exception {
    ConnectionConfig config =
        Configs.timers(
            Duration.ofSeconds(5), Configs.NONE, Duration.ofMillis(100), Duration.ofMillis(200));
    BlockingServer server = server(config, true);
    try (RawPeer peer = RawPeer.upgradedClient(server.port())) {
      long start = System.nanoTime();
      assertThat(peer.readFrame()).isEqualTo("89 00"); // an empty ping after 100 ms of quiet
      String close = peer.readFrame(); // no pong within 100 ms: close 1011
      assertThat(close).startsWith("88 ").contains(" 03 f3 ");
      assertThat(peer.atEnd()).isTrue(); // and cut off at once: a dead peer cannot answer
      assertThat(millisSince(start)).isBetween(150L, 3000L);
    }
    Recorder remote = nextServerSide();
    assertThat(remote.close().code()).isEqualTo(CloseCode.ABNORMAL);
    assertThat(remote.errors).singleElement().isInstanceOf(TimeoutException.class);
    // onClose comes before the socket closes (and the server forgets it): wait, bounded
    BlockingServerTest.await(() -> server.openConnections() == 0, "the server forgot it");
  }

  @Test
  void theCloseTimeoutAbortsWhenTheServerNeverAnswersTheClose() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Recorder client = Recorder.quiet();
      Thread.ofVirtual()
          .start(
              () -> {
                try (RawPeer peer = RawPeer.acceptRequest(listener)) {
                  peer.write(peer.switching());
                  peer.readFrame(); // the close, never answered
                  peer.atEnd(); // until the client gives up and drops TCP
                } catch (Exception e) {
                  // the test ends it
                }
              });
      Connection c =
          BlockingClient.builder()
              .connectionConfig(Configs.closeTimeout(Duration.ofMillis(250)))
              .build()
              .connectBlocking(URI.create("ws://127.0.0.1:" + listener.getLocalPort()), client);
      long start = System.nanoTime();
      c.close(CloseCode.NORMAL, "").get(5, TimeUnit.SECONDS);
      assertThat(millisSince(start)).isBetween(200L, 3000L);
      assertThat(client.close().code()).isEqualTo(CloseCode.ABNORMAL);
    }
  }

  @Test
  void aClientWaitsForTheServersEndOfStreamAtMostTheCloseTimeout() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Recorder client = Recorder.quiet();
      BlockingQueue<Boolean> sawEnd = new LinkedBlockingQueue<>();
      Thread.ofVirtual()
          .start(
              () -> {
                try (RawPeer peer = RawPeer.acceptRequest(listener)) {
                  // The 101, a first message in the same write, then a close; TCP stays open.
                  peer.write(peer.switching() + "\u0081\u0002hi\u0088\u0002\u0003\u00e8");
                  peer.readFrame(); // the client's close reply
                  sawEnd.add(peer.atEnd());
                } catch (Exception e) {
                  sawEnd.add(false);
                }
              });
      long start = System.nanoTime();
      Connection c =
          BlockingClient.builder()
              .connectionConfig(Configs.closeTimeout(Duration.ofMillis(250)))
              .build()
              .connectBlocking(URI.create("ws://127.0.0.1:" + listener.getLocalPort()), client);
      assertThat(new String(client.next().bytes(), StandardCharsets.UTF_8)).isEqualTo("hi");
      assertThat(client.close()).isEqualTo(new Recorder.Close(1000, ""));
      c.closed().get(5, TimeUnit.SECONDS);
      assertThat(millisSince(start)).isBetween(200L, 3000L);
      assertThat(sawEnd.poll(5, TimeUnit.SECONDS)).isTrue();
      assertThat(client.errors).isEmpty();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Failures stay in their connection

  @Test
  void aHandlerThatThrowsFailsOnlyItsOwnConnection() throws Exception {
    BlockingServer server =
        BlockingServer.builder()
            .bind("127.0.0.1", 0)
            .handlers(
                info ->
                    new Recorder(true) {
                      @Override
                      public void onMessage(Connection c, Opcode type, ByteBuffer payload) {
                        if (payload.remaining() == 4) {
                          throw new IllegalStateException("handler bug");
                        }
                        super.onMessage(c, type, payload);
                      }
                    })
            .start();
    resources.add(server);
    Recorder broken = Recorder.quiet();
    Recorder healthy = Recorder.quiet();
    Connection a = connect(server, ConnectionConfig.DEFAULTS, broken);
    Connection b = connect(server, ConnectionConfig.DEFAULTS, healthy);
    a.sendText("boom");
    assertThat(broken.close().code()).isEqualTo(CloseCode.ABNORMAL);
    b.sendText("still here");
    assertThat(new String(healthy.next().bytes(), StandardCharsets.UTF_8)).isEqualTo("still here");
    b.close(CloseCode.NORMAL, "").get(5, TimeUnit.SECONDS);
    assertThat(server.shutdown(Duration.ofSeconds(2))).isTrue();
    assertThat(server.openConnections()).isZero();
  }

  @Test
  void aPeerThatResetsDuringALongWriteYieldsOneErrorAndOneClose() throws Exception {
    BlockingQueue<Recorder> sides = new LinkedBlockingQueue<>();
    BlockingServer server =
        BlockingServer.builder()
            .bind("127.0.0.1", 0)
            .handlers(
                info -> {
                  Recorder r =
                      new Recorder(false) {
                        @Override
                        public void onOpen(Connection c) {
                          super.onOpen(c);
                          // More than any socket buffer holds: the write blocks until the reset.
                          c.sendMessage(Opcode.BINARY, ByteBuffer.allocate(16 << 20));
                        }
                      };
                  sides.add(r);
                  return r;
                })
            .start();
    resources.add(server);
    RawPeer peer = RawPeer.upgradedClient(server.port());
    Recorder remote = sides.poll(5, TimeUnit.SECONDS);
    Connection c = remote.opened.get(5, TimeUnit.SECONDS);
    BlockingServerTest.await(() -> c.queuedBytes() > 0, "the long write under way");
    peer.socket.setSoLinger(true, 0);
    peer.close(); // RST
    assertThat(remote.close().code()).isEqualTo(CloseCode.ABNORMAL);
    c.closed().get(5, TimeUnit.SECONDS); // completed after the one report of the close
    assertThat(remote.errors).singleElement().isInstanceOf(java.io.IOException.class);
    assertThat(remote.closes.get()).isEqualTo(1);
    assertThat(server.openConnections()).isZero();
  }

  @Test
  void theReadLoopReadsOnWhileAnotherThreadWritesALargeEcho() throws Exception {
    // Small socket buffers on both ends: a peer that sends 4 MiB before it reads anything needs
    // the server to read on while its echoes wait to be written. Were the read loop writing each
    // 512 KiB echo itself, it would stop reading at the first, and both ends would wait forever.
    ConnectionConfig d = ConnectionConfig.DEFAULTS;
    ConnectionConfig small =
        new ConnectionConfig(
            d.session(), d.maxQueuedBytes(), d.handshakeTimeout(), Configs.NONE, Configs.NONE,
            d.closeTimeout(), d.readBufferSize(), d.pongTimeout(),
            new ConnectionConfig.SocketOptions(64 * 1024, 64 * 1024, true));
    BlockingServer server = server(small, true);
    Socket socket = new Socket();
    socket.setReceiveBufferSize(64 * 1024);
    socket.setSendBufferSize(64 * 1024);
    socket.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()));
    try (RawPeer peer = RawPeer.upgraded(socket)) {
      socket.setSoTimeout(20_000);
      byte[][] sent = new byte[8][];
      java.util.Random random = new java.util.Random(8);
      Thread sender = Thread.ofVirtual().start(() -> {
        try {
          for (int i = 0; i < sent.length; i++) {
            sent[i] = new byte[512 * 1024];
            random.nextBytes(sent[i]);
            peer.write(BlockingServerTest.maskedBinary(sent[i], 0x1234abcd + i));
          }
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      assertThat(sender.join(Duration.ofSeconds(20)))
          .as("all 4 MiB sent before a byte was read back").isTrue();
      for (byte[] message : sent) {
        RawPeer.Frame echo = peer.readServerMessage();
        assertThat(echo.first()).isEqualTo(0x82);
        assertThat(echo.payload()).isEqualTo(message);
      }
    }
  }

  /** A recorder whose connection stops reading as it opens. */
  static Recorder pausedOnOpen() {
    return new Recorder(false) {
      @Override
      public void onOpen(Connection c) {
        c.pauseReading(true);
        super.onOpen(c);
      }
    };
  }

  @Test
  void aPausedConnectionReadsNothingUntilResumed() throws Exception {
    BlockingServer server = server(ConnectionConfig.DEFAULTS, true);
    Recorder client = pausedOnOpen(); // before the read loop starts: nothing is read at all
    Connection c = connect(server, ConnectionConfig.DEFAULTS, client);
    nextServerSide().opened.get(5, TimeUnit.SECONDS).sendText("while paused");
    assertThat(client.messages.poll(300, TimeUnit.MILLISECONDS)).isNull();
    c.pauseReading(false);
    assertThat(new String(client.next().bytes(), StandardCharsets.UTF_8)).isEqualTo("while paused");
    c.pauseReading(true);
    c.abort(); // a paused loop still ends with its socket
    assertThat(client.close().code()).isEqualTo(CloseCode.ABNORMAL);
  }

  @Test
  void aPausedConnectionIsNotTakenForIdleAndItsTimersRunAgainOnceResumed() throws Exception {
    BlockingServer server = server(ConnectionConfig.DEFAULTS, true);
    Recorder client = pausedOnOpen(); // a reader that has fallen behind, not a quiet peer
    ConnectionConfig idle = Configs.idle(Duration.ofMillis(200), Configs.NONE);
    Connection c = connect(server, idle, client);
    Recorder remote = nextServerSide();
    // A witness opened after it, with the same timeout and as quiet but reading: its idle
    // timeout closing it means the paused connection's came and went too (the timers run in
    // deadline order). Twice: two idle timeouts and more have gone by.
    for (int round = 0; round < 2; round++) {
      Recorder witness = Recorder.quiet();
      connect(server, idle, witness);
      assertThat(witness.close().code()).isEqualTo(CloseCode.GOING_AWAY);
      nextServerSide();
    }
    assertThat(c.isOpen()).isTrue();
    assertThat(client.errors).isEmpty();
    long resumed = System.nanoTime();
    c.pauseReading(false);
    // Resumed and still quiet: idle again, closed with 1001 (and the timeout reported) soon after.
    assertThat(client.close().code()).isEqualTo(CloseCode.GOING_AWAY);
    assertThat(millisSince(resumed)).isLessThan(3000L);
    assertThat(client.errors).singleElement().isInstanceOf(TimeoutException.class);
    assertThat(remote.close().code()).isEqualTo(CloseCode.GOING_AWAY);
  }

  @Test
  void aSlowReaderFillsTheQueueThenDrainsItAndReportsWritable() throws Exception {
    BlockingServer server =
        BlockingServer.builder()
            .bind("127.0.0.1", 0)
            .handlers(
                info -> {
                  Recorder r = pausedOnOpen(); // a reader that has fallen behind
                  serverSide.add(r);
                  return r;
                })
            .start();
    resources.add(server);
    ConnectionConfig d = ConnectionConfig.DEFAULTS;
    ConnectionConfig small =
        new ConnectionConfig(
            d.session(),
            256 * 1024,
            d.handshakeTimeout(),
            d.idleTimeout(),
            d.pingInterval(),
            d.closeTimeout(),
            d.readBufferSize());
    Recorder client = Recorder.quiet();
    Connection c = connect(server, small, client);
    Connection remote = nextServerSide().opened.get(5, TimeUnit.SECONDS);
    // The sending thread writes, and blocks once the socket buffers are full.
    List<java.util.concurrent.CompletableFuture<Void>> sends =
        new java.util.concurrent.CopyOnWriteArrayList<>();
    Thread writer =
        Thread.ofVirtual()
            .start(() -> sends.add(c.sendMessage(Opcode.BINARY, ByteBuffer.allocate(16 << 20))));
    BlockingServerTest.await(() -> c.queuedBytes() > 0, "the big message queued");
    ExecutionException refused = null;
    for (int i = 0; i < 1000 && refused == null; i++) {
      Thread.sleep(5);
      try {
        c.sendMessage(Opcode.BINARY, ByteBuffer.allocate(64 * 1024)).get(1, TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        refused = e;
      } catch (TimeoutException stillQueued) {
        // queued behind the big one
      }
    }
    assertThat(refused).as("a send refused while the queue is full").isNotNull();
    assertThat(refused.getCause()).isInstanceOf(dev.wsjava.transport.QueueFullException.class);
    assertThat(client.writables.get()).isZero();
    remote.pauseReading(false);
    writer.join(10_000);
    sends.getFirst().get(10, TimeUnit.SECONDS);
    assertThat(client.writables.get()).as("onWritable once drained").isEqualTo(1);
    assertThat(c.queuedBytes()).isZero();
    c.close(CloseCode.NORMAL, "").get(10, TimeUnit.SECONDS);
  }

  @Test
  void closingTheClientAbortsItsOpenConnections() throws Exception {
    BlockingServer server = server(ConnectionConfig.DEFAULTS, true);
    BlockingClient client = BlockingClient.builder().build();
    URI uri = URI.create("ws://127.0.0.1:" + server.port() + "/");
    Recorder a = Recorder.quiet();
    Recorder b = Recorder.quiet();
    client.connectBlocking(uri, a);
    client.connectBlocking(uri, b).close(CloseCode.NORMAL, "").get(5, TimeUnit.SECONDS);
    assertThat(client.openConnections()).isEqualTo(1);
    client.close();
    assertThat(a.close().code()).isEqualTo(CloseCode.ABNORMAL);
    assertThat(client.openConnections()).isZero();
  }

  @Test
  void anAbortedConnectionReports1006Once() throws Exception {
    BlockingServer server = server(ConnectionConfig.DEFAULTS, true);
    Recorder client = Recorder.quiet();
    Connection c = connect(server, ConnectionConfig.DEFAULTS, client);
    Recorder remote = nextServerSide();
    c.abort();
    c.abort();
    assertThat(client.close().code()).isEqualTo(CloseCode.ABNORMAL);
    assertThat(remote.close().code()).isEqualTo(CloseCode.ABNORMAL);
    // Both futures complete after the close was reported (or found reported): none can follow.
    c.closed().get(5, TimeUnit.SECONDS);
    remote.opened.get(5, TimeUnit.SECONDS).closed().get(5, TimeUnit.SECONDS);
    assertThat(client.closes.get()).isEqualTo(1);
    assertThat(remote.closes.get()).isEqualTo(1);
  }
}
