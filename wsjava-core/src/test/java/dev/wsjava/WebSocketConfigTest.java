package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.transport.ConnectionConfig;
import dev.wsjava.transport.nio.EventLoopGroup;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class WebSocketConfigTest {

  @Test
  void socketOptionsAndPongTimeoutReachTheTransportConfig() {
    WebSocketConfig c =
        WebSocketConfig.builder()
            .socketBuffers(1 << 20, 2 << 20)
            .tcpNoDelay(false)
            .pingInterval(Duration.ofSeconds(30))
            .pongTimeout(Duration.ofSeconds(5))
            .build();
    ConnectionConfig cc = c.connectionConfig(false);
    assertThat(cc.socket()).isEqualTo(new ConnectionConfig.SocketOptions(1 << 20, 2 << 20, false));
    assertThat(cc.deadPeerTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.toBuilder().build()).isEqualTo(c);
  }

  @Test
  void theDefaultsAreOsBuffersNoDelayAndAPongTimeoutOfOneInterval() {
    WebSocketConfig d = WebSocketConfig.defaults();
    assertThat(d.socketSendBuffer()).isZero();
    assertThat(d.socketReceiveBuffer()).isZero();
    assertThat(d.tcpNoDelay()).isTrue();
    assertThat(d.pongTimeout()).isZero();
    assertThat(d.eventLoopSpin()).isEqualTo(EventLoopGroup.DEFAULT_SPIN);
    assertThat(d.toBuilder().pingInterval(Duration.ofSeconds(7)).build().connectionConfig(false).deadPeerTimeout())
        .isEqualTo(Duration.ofSeconds(7));
  }

  @Test
  void theReadSizeDefaultsPerTransportAndRoleUnlessSet() {
    WebSocketConfig d = WebSocketConfig.defaults();
    assertThat(d.readBufferSize()).isZero();
    assertThat(d.connectionConfig(true).readBufferSize()).isEqualTo(16 * 1024);
    assertThat(d.connectionConfig(false).readBufferSize()).isEqualTo(64 * 1024);
    WebSocketConfig set = d.toBuilder().readBufferSize(4096).build();
    assertThat(set.connectionConfig(true).readBufferSize()).isEqualTo(4096);
    assertThat(set.connectionConfig(false).readBufferSize()).isEqualTo(4096);
    for (int bad : new int[] {-1, 1, 1023}) {
      assertThatThrownBy(() -> WebSocketConfig.builder().readBufferSize(bad).build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("readBufferSize must be at least 1024");
    }
  }

  @Test
  void refusesNegativeBuffersAndTimeouts() {
    assertThatThrownBy(() -> WebSocketConfig.builder().socketBuffers(-1, 0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("socket buffer sizes must not be negative");
    assertThatThrownBy(() -> WebSocketConfig.builder().pongTimeout(Duration.ofMillis(-1)).build())
        .hasMessageContaining("pongTimeout");
    for (Duration spin : new Duration[] {Duration.ofNanos(-1), Duration.ofMillis(1001)}) {
      assertThatThrownBy(() -> WebSocketConfig.builder().eventLoopSpin(spin).build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("eventLoopSpin must be 0 to 1 s");
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void connectionsWithTunedSocketsEchoOnBothEnds(Transport t) throws Exception {
    WebSocketConfig config =
        WebSocketConfig.builder()
            .transport(t)
            .eventLoops(1)
            .eventLoopSpin(Duration.ZERO)
            .socketBuffers(256 * 1024, 256 * 1024)
            .tcpNoDelay(false)
            .build();
    WebSocketServer server =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(config)
            .websocket("/", new WebSocketListener() {
              @Override
              public void onBinary(WebSocket ws, ByteBuffer data) {
                ws.sendBinary(data);
              }
            })
            .start();
    try (WebSocketClient client = WebSocketClient.builder().config(config).build()) {
      WebSocket ws = client.open(URI.create("ws://127.0.0.1:" + server.port() + "/"));
      byte[] big = new byte[1 << 20];
      ws.sendBinary(big).get(10, TimeUnit.SECONDS);
      assertThat(ws.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Binary(ByteBuffer.wrap(big)));
      ws.close().get(10, TimeUnit.SECONDS);
    } finally {
      server.shutdown(Duration.ofSeconds(2));
    }
  }
}
