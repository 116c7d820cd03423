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
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
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
      assertThat(peer.readFrame().payload()).hasSize(70_000);
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
