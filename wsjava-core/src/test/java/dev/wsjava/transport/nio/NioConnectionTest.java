package dev.wsjava.transport.nio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.handshake.ServerHandshakeConfig;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.transport.Connection;
import dev.wsjava.transport.ConnectionConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A connection that has been idle since its handshake holds almost nothing: its lock, its session's
 * parser and queue, its timers are made at their first use. These tests drive each first use over
 * loopback with a raw peer: bytes that came with the upgrade request, a message, a send from
 * another thread, a ping, a close from either side. Every wait is bounded.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NioConnectionTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  static EventLoopGroup group;

  @BeforeAll
  static void setUp() {
    group = new EventLoopGroup(1);
  }

  @AfterAll
  static void tearDown() {
    assertThat(group.shutdown(Duration.ofSeconds(5))).isTrue();
  }

  static NioServer server(Events handler) throws IOException {
    return NioServer.builder()
        .bind("127.0.0.1", 0)
        .group(group)
        .connectionConfig(ConnectionConfig.DEFAULTS)
        .handshakeConfig(ServerHandshakeConfig.defaults())
        .handlers(info -> handler)
        .start();
  }

  /** Completes the handshake and waits until the server reported the connection open. */
  static Connection upgrade(RawPeer peer, Events serverSide) throws Exception {
    peer.send(RawPeer.upgradeRequest("/idle"));
    assertThat(peer.readHead()).startsWith("HTTP/1.1 101 ");
    return serverSide.opened.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** What a test does with a connection open and idle since its handshake. */
  interface AfterUpgrade {
    void run(RawPeer peer, Connection serverSide) throws Exception;
  }

  /** Runs {@code test} with a raw peer whose handshake with a server of {@code events} is done. */
  static void idle(Events events, AfterUpgrade test) throws Exception {
    try (NioServer server = server(events);
        RawPeer peer = RawPeer.client(server.port())) {
      test.run(peer, upgrade(peer, events));
    }
  }

  /** Reads the next frame and checks its opcode and text. */
  static void expectFrame(RawPeer peer, Opcode opcode, String text) throws IOException {
    RawPeer.Frame frame = peer.readFrame();
    assertThat(frame.opcode()).isEqualTo(opcode.code());
    assertThat(new String(frame.payload(), StandardCharsets.UTF_8)).isEqualTo(text);
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  // ---- bytes that came with the upgrade request ----

  @Test
  void aPingSentWithTheUpgradeRequestIsAnsweredRightAfterThe101() throws Exception {
    Events serverSide = Events.record();
    try (NioServer server = server(serverSide);
        RawPeer peer = RawPeer.client(server.port())) {
      peer.send(concat(RawPeer.upgradeRequest("/early"), peer.frame(Opcode.PING, utf8("early"))));
      assertThat(peer.readHead()).startsWith("HTTP/1.1 101 ");
      expectFrame(peer, Opcode.PONG, "early");
      assertThat(serverSide.pings.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS))
          .containsExactly(utf8("early"));
    }
  }

  @Test
  void aMessageAndACloseSentWithTheUpgradeRequestAreEchoedAndTheSocketClosed() throws Exception {
    Events serverSide = Events.echo();
    try (NioServer server = server(serverSide);
        RawPeer peer = RawPeer.client(server.port())) {
      byte[] close = peer.frame(Opcode.CLOSE, new byte[] {0x03, (byte) 0xE8}); // 1000
      byte[] frames = concat(peer.frame(Opcode.TEXT, utf8("hello")), close);
      peer.send(concat(RawPeer.upgradeRequest("/early"), frames));
      assertThat(peer.readHead()).startsWith("HTTP/1.1 101 ");
      expectFrame(peer, Opcode.TEXT, "hello");
      RawPeer.Frame answer = peer.readFrame();
      assertThat(answer.opcode()).isEqualTo(Opcode.CLOSE.code());
      assertThat(answer.closeCode()).isEqualTo(1000);
      assertThat(peer.readToEnd()).isZero(); // the server closes TCP first (RFC 6455 §7.1.1)
      assertThat(serverSide.awaitClose(WAIT).code()).isEqualTo(1000);
    }
  }

  // ---- the first use after an idle spell ----

  @Test
  void theFirstMessageAfterIdleIsEchoedEvenWhenItArrivesByteByByte() throws Exception {
    idle(Events.echo(), (peer, c) -> {
      peer.socket.setTcpNoDelay(true);
      for (byte b : peer.frame(Opcode.TEXT, utf8("after a while"))) {
        peer.send(new byte[] {b});
      }
      expectFrame(peer, Opcode.TEXT, "after a while");
    });
  }

  @Test
  void theFirstSendAfterIdleFromAnotherThreadIsWrittenAndItsFutureCompletes() throws Exception {
    idle(Events.record(), (peer, c) -> {
      assertThat(c.isOpen()).isTrue();
      assertThat(c.queuedBytes()).isZero();
      c.sendText("news").get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      expectFrame(peer, Opcode.TEXT, "news");
      c.sendMessage(Opcode.BINARY, ByteBuffer.wrap(new byte[70_000])) // a pooled large buffer
          .get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(peer.readMessage().payload()).hasSize(70_000);
    });
  }

  @Test
  void theFirstPingAfterIdleIsAnsweredWithItsPayload() throws Exception {
    idle(Events.record(), (peer, c) -> {
      peer.send(peer.frame(Opcode.PING, utf8("still there?")));
      expectFrame(peer, Opcode.PONG, "still there?");
    });
  }

  @Test
  void aCloseFromTheServerWhileIdleReachesThePeerAndEndsWithItsAnswer() throws Exception {
    Events serverSide = Events.record();
    idle(serverSide, (peer, c) -> {
      c.close(1001, "going away");
      RawPeer.Frame close = peer.readFrame();
      assertThat(close.opcode()).isEqualTo(Opcode.CLOSE.code());
      assertThat(close.closeCode()).isEqualTo(1001);
      assertThat(new String(close.payload(), 2, close.payload().length - 2, StandardCharsets.UTF_8))
          .isEqualTo("going away");
      peer.send(peer.frame(Opcode.CLOSE, close.payload()));
      assertThat(peer.readToEnd()).isZero();
      assertThat(serverSide.awaitClose(WAIT).code()).isEqualTo(1001);
      c.closed().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    });
  }

  @Test
  void aPeerThatHangsUpWhileIdleIsReportedAs1006() throws Exception {
    Events serverSide = Events.record();
    try (NioServer server = server(serverSide)) {
      Connection c;
      try (RawPeer peer = RawPeer.client(server.port())) {
        c = upgrade(peer, serverSide);
      }
      assertThat(serverSide.awaitClose(WAIT).code()).isEqualTo(1006);
      c.closed().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(c.isOpen()).isFalse();
    }
  }

  // ---- the read after answering ----

  /**
   * Request and answer until the read after answering is skipped 127 events in a row, returning
   * the back-off seen after each answer. Before each next request the peer asks the loop for the
   * back-off: that task runs only after the event that wrote the answer has ended, read after
   * answering included, so every such read finds the socket empty, whatever the scheduler does.
   */
  static List<Integer> backOffFully(RawPeer peer, NioConnection c) throws Exception {
    byte[] request = peer.frame(Opcode.BINARY, new byte[16]);
    List<Integer> seen = new ArrayList<>();
    while (seen.isEmpty() || seen.getLast() < 127) {
      assertThat(seen).as("answers before the back-off reached 127").hasSizeLessThan(2_000);
      peer.send(request);
      assertThat(peer.readFrame().payload()).hasSize(16);
      seen.add(c.currentRereadBackoff().get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
    }
    return seen;
  }

  @Test
  void aPeerThatWaitsForEachAnswerBacksTheReadAfterAnsweringOffToOneEventIn128() throws Exception {
    idle(Events.echo(), (peer, c) -> {
      peer.socket.setTcpNoDelay(true);
      NioConnection conn = (NioConnection) c;
      assertThat(conn.currentRereadBackoff().get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isZero();
      List<Integer> seen = backOffFully(peer, conn);
      // Each read after answering finds nothing: it skips 7, then 15, 31, 63 and 127 events (twice
      // as many plus one each time), so the misses come with answers 1, 9, 25, 57 and 121.
      assertThat(seen).hasSize(121);
      assertThat(seen.subList(0, 8)).containsOnly(7);
      assertThat(seen.subList(8, 24)).containsOnly(15);
      assertThat(seen.subList(24, 56)).containsOnly(31);
      assertThat(seen.subList(56, 120)).containsOnly(63);
      // And it stays at 127: the next miss, with answer 249, keeps it there.
      byte[] request = peer.frame(Opcode.BINARY, new byte[16]);
      for (int i = 122; i <= 250; i++) {
        peer.send(request);
        assertThat(peer.readFrame().payload()).hasSize(16);
        assertThat(conn.currentRereadBackoff().get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
            .as("back-off after answer " + i).isEqualTo(127);
      }
    });
  }

  @Test
  void aReadAfterAnsweringThatFindsTheNextRequestStartsTheBackOffOver() throws Exception {
    // The handler holds each message's event until the peer has sent the next one, so the read
    // after answering finds it waiting: a pipelining peer.
    AtomicBoolean holding = new AtomicBoolean();
    Semaphore received = new Semaphore(0);
    Semaphore nextSent = new Semaphore(0);
    Events serverSide = new Events(true) {
      @Override
      public void onMessage(Connection c, Opcode type, ByteBuffer payload) {
        super.onMessage(c, type, payload);
        if (!holding.get()) {
          return;
        }
        received.release();
        try {
          if (nextSent.tryAcquire(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            Thread.sleep(1); // loopback has it queued by then; a margin all the same
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
    idle(serverSide, (peer, c) -> {
      peer.socket.setTcpNoDelay(true);
      NioConnection conn = (NioConnection) c;
      backOffFully(peer, conn); // each request's event ended before the next request was sent
      byte[] request = peer.frame(Opcode.BINARY, new byte[16]);
      // While the back-off lasts, each event takes one request; the 128th reads after answering.
      int requests = 200;
      holding.set(true);
      peer.send(request);
      for (int i = 1; i <= requests; i++) {
        assertThat(received.tryAcquire(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        if (i < requests) {
          peer.send(request);
        }
        nextSent.release();
      }
      for (int i = 0; i < requests; i++) {
        assertThat(peer.readFrame().payload()).hasSize(16);
      }
      // The reads after answering found requests from the first that was not skipped on, which
      // set the back-off to 0; the last request's found nothing (7), unless that event had
      // reached its cap of reads first (0).
      assertThat(conn.currentRereadBackoff().get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
          .isIn(0, 7);
    });
  }

  @Test
  void anIdleConnectionKnowsBothAddressesAndKeepsThePeersAfterTheClose() throws Exception {
    Events serverSide = Events.record();
    try (NioServer server = server(serverSide)) {
      Connection c;
      InetSocketAddress peerAddress;
      try (RawPeer peer = RawPeer.client(server.port())) {
        c = upgrade(peer, serverSide);
        peerAddress = (InetSocketAddress) peer.socket.getLocalSocketAddress();
        assertThat(c.remoteAddress()).isEqualTo(peerAddress);
        assertThat(((InetSocketAddress) c.localAddress()).getPort()).isEqualTo(server.port());
        assertThat(c.subprotocol()).isNull();
        assertThat(c.extensions()).isEmpty();
      }
      c.closed().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(c.remoteAddress()).isEqualTo(peerAddress);
    }
  }
}
