package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.handshake.HandshakeException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Settings and handshake hooks per WebSocket route, over both transports: what a route sets
 * overrides the server's configuration, what it leaves unset is the server's.
 */
class RouteSettingsTest {
  WebSocketServer server;
  WebSocketClient client;

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  static final WebSocketListener SIZE_ECHO =
      new WebSocketListener() {
        @Override
        public void onBinary(WebSocket ws, ByteBuffer data) {
          ws.sendText("got " + data.remaining() + " " + ws.extensions() + " " + ws.attachment());
        }
      };

  void start(Transport transport) throws Exception {
    server =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(
                WebSocketConfig.builder().transport(transport).eventLoops(1).maxMessageSize(1024).build())
            .onHandshake(req -> HandshakeDecision.accept().attach("server-hook"))
            .websocket("/small", SIZE_ECHO)
            .websocket("/big", SIZE_ECHO, cfg -> cfg.maxMessageSize(1 << 20).deflate(null))
            .onHandshake(
                "/guarded",
                req -> req.header("Authorization") == null
                    ? HandshakeDecision.reject(401)
                    : HandshakeDecision.accept().attach("route-hook"))
            .websocket("/guarded", SIZE_ECHO)
            .websocket(
                "/upload",
                (WebSocketHandler)
                    ws -> {
                      long total = 0;
                      try (InputStream in = ws.receiveStream()) {
                        byte[] buf = new byte[8192];
                        for (int n; (n = in.read(buf)) > 0; ) {
                          total += n;
                        }
                      }
                      ws.sendText("streamed " + total).join();
                    },
                cfg -> cfg.streamMessages(true).maxStreamedMessageSize(8 << 20))
            .start();
    client =
        WebSocketClient.builder()
            .config(WebSocketConfig.builder().transport(transport).maxMessageSize(1 << 20).build())
            .header("Authorization", "Bearer x")
            .build();
  }

  URI uri(String path) {
    return URI.create("ws://127.0.0.1:" + server.port() + path);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aRouteWithoutSettingsHasTheServersLimitAndHook(Transport transport) throws Exception {
    start(transport);
    WebSocket ws = client.connect(uri("/small")).get(10, TimeUnit.SECONDS);
    ws.sendBinary(new byte[1000]);
    assertThat(((Message.Text) ws.receive(Duration.ofSeconds(10))).text())
        .isEqualTo("got 1000 [permessage-deflate] server-hook");
    ws.sendBinary(new byte[2000]);
    assertThatThrownBy(() -> ws.receive(Duration.ofSeconds(10)))
        .isInstanceOfSatisfying(
            WebSocketClosedException.class, e -> assertThat(e.code()).isEqualTo(CloseCode.MESSAGE_TOO_BIG));
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aRouteOverridesTheLimitAndDeflateAndInheritsTheHook(Transport transport) throws Exception {
    start(transport);
    WebSocket ws = client.connect(uri("/big")).get(10, TimeUnit.SECONDS);
    assertThat(ws.extensions()).isEmpty();
    ws.sendBinary(new byte[500_000]);
    assertThat(((Message.Text) ws.receive(Duration.ofSeconds(10))).text())
        .isEqualTo("got 500000 [] server-hook");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aRoutesOwnHookDecidesItsUpgrades(Transport transport) throws Exception {
    start(transport);
    WebSocket ws = client.connect(uri("/guarded")).get(10, TimeUnit.SECONDS);
    ws.sendBinary(new byte[10]);
    assertThat(((Message.Text) ws.receive(Duration.ofSeconds(10))).text())
        .isEqualTo("got 10 [permessage-deflate] route-hook");
    try (WebSocketClient anonymous =
        WebSocketClient.builder()
            .config(WebSocketConfig.builder().transport(transport).build())
            .build()) {
      assertThatThrownBy(() -> anonymous.connect(uri("/guarded")).get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOfSatisfying(HandshakeException.class, e -> assertThat(e.status()).isEqualTo(401));
      // The server's hook, which accepts anyone, still decides the other routes.
      anonymous.connect(uri("/small")).get(10, TimeUnit.SECONDS).close().get(10, TimeUnit.SECONDS);
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aStreamingRouteTakesMessagesOverTheServersLimit(Transport transport) throws Exception {
    start(transport);
    WebSocket ws = client.connect(uri("/upload")).get(10, TimeUnit.SECONDS);
    ws.sendBinary(new byte[3 << 20]);
    assertThat(((Message.Text) ws.receive(Duration.ofSeconds(10))).text())
        .isEqualTo("streamed " + (3 << 20));
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aRouteMayNotChangeAServerWideSetting(Transport transport) {
    WebSocketServer.Builder b =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(WebSocketConfig.builder().transport(transport).build())
            .websocket("/x", SIZE_ECHO, cfg -> cfg.memoryBudget(1 << 20));
    assertThatThrownBy(b::start)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("route /x sets the memory budget");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aHookForAPathThatIsNoRouteFailsTheStart(Transport transport) {
    WebSocketServer.Builder b =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(WebSocketConfig.builder().transport(transport).build())
            .websocket("/x", SIZE_ECHO)
            .onHandshake("/y", req -> HandshakeDecision.accept());
    assertThatThrownBy(b::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("/y");
  }
}
