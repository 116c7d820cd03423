package dev.wsjava.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.session.SessionConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ConnectionConfigTest {
  static final ConnectionConfig.SocketOptions BIG_NAGLE =
      new ConnectionConfig.SocketOptions(100_000, 150_000, false); // under Linux's usual rmem_max

  @Test
  void theDeadPeerTimeoutIsThePingIntervalUnlessSet() {
    ConnectionConfig d = ConnectionConfig.DEFAULTS;
    ConnectionConfig pinging =
        new ConnectionConfig(
            SessionConfig.DEFAULTS, 1024, Duration.ofSeconds(1), Duration.ZERO,
            Duration.ofSeconds(30), Duration.ofSeconds(1), 1024);
    assertThat(pinging.deadPeerTimeout()).isEqualTo(Duration.ofSeconds(30));
    ConnectionConfig quick =
        new ConnectionConfig(
            d.session(), d.maxQueuedBytes(), d.handshakeTimeout(), d.idleTimeout(),
            Duration.ofSeconds(30), d.closeTimeout(), d.readBufferSize(), Duration.ofSeconds(5),
            d.socket());
    assertThat(quick.deadPeerTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(quick.deadPeer()).hasMessageContaining("within 5000 ms of a ping");
  }

  @Test
  void theDefaultsKeepTheOsBuffersAndTurnNagleOff() {
    assertThat(ConnectionConfig.DEFAULTS.socket()).isEqualTo(new ConnectionConfig.SocketOptions(0, 0, true));
    assertThat(ConnectionConfig.DEFAULTS.pongTimeout()).isZero();
  }

  @Test
  void refusesNegativeValues() {
    assertThatThrownBy(() -> new ConnectionConfig.SocketOptions(-1, 0, true))
        .hasMessageContaining("must not be negative");
    ConnectionConfig d = ConnectionConfig.DEFAULTS;
    assertThatThrownBy(
            () ->
                new ConnectionConfig(
                    d.session(), d.maxQueuedBytes(), d.handshakeTimeout(), d.idleTimeout(),
                    d.pingInterval(), d.closeTimeout(), d.readBufferSize(), Duration.ofSeconds(-1),
                    d.socket()))
        .hasMessageContaining("pongTimeout must not be negative");
  }

  @Test
  void setsTheOptionsOnASocketAndAListener() throws Exception {
    try (ServerSocket listener = new ServerSocket()) {
      BIG_NAGLE.applyToListener(listener);
      listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      assertThat(listener.getReceiveBufferSize()).isGreaterThanOrEqualTo(150_000);
      try (Socket s = new Socket()) {
        BIG_NAGLE.applyTo(s);
        s.connect(listener.getLocalSocketAddress());
        assertThat(s.getTcpNoDelay()).isFalse();
        assertThat(s.getSendBufferSize()).isGreaterThanOrEqualTo(100_000); // Linux doubles it
        assertThat(s.getReceiveBufferSize()).isGreaterThanOrEqualTo(150_000);
        try (Socket accepted = listener.accept()) {
          assertThat(accepted.getReceiveBufferSize()).as("inherited").isGreaterThanOrEqualTo(150_000);
        }
      }
    }
  }

  @Test
  void setsTheOptionsOnAChannelAndAListeningChannel() throws Exception {
    try (ServerSocketChannel listener = ServerSocketChannel.open();
        SocketChannel c = SocketChannel.open()) {
      BIG_NAGLE.applyToListener(listener);
      listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      assertThat(listener.getOption(StandardSocketOptions.SO_RCVBUF)).isGreaterThanOrEqualTo(150_000);
      ConnectionConfig.SocketOptions.DEFAULTS.applyTo(c);
      assertThat(c.getOption(StandardSocketOptions.TCP_NODELAY)).isTrue();
      BIG_NAGLE.applyTo(c);
      assertThat(c.getOption(StandardSocketOptions.TCP_NODELAY)).isFalse();
      assertThat(c.getOption(StandardSocketOptions.SO_SNDBUF)).isGreaterThanOrEqualTo(100_000);
      assertThat(c.getOption(StandardSocketOptions.SO_RCVBUF)).isGreaterThanOrEqualTo(150_000);
    }
  }

  @Test
  void zeroLeavesTheOsDefault() throws Exception {
    try (Socket plain = new Socket(); Socket configured = new Socket()) {
      new ConnectionConfig.SocketOptions(0, 0, true).applyTo(configured);
      assertThat(configured.getSendBufferSize()).isEqualTo(plain.getSendBufferSize());
      assertThat(configured.getReceiveBufferSize()).isEqualTo(plain.getReceiveBufferSize());
      assertThat(configured.getTcpNoDelay()).isTrue();
    }
  }
}
