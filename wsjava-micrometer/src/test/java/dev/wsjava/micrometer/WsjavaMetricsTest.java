package dev.wsjava.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.HandshakeDecision;
import dev.wsjava.Message;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WsjavaMetricsTest {
  @Test
  void theMetersFollowTheServersCounters() throws Exception {
    try (WebSocketServer server =
            WebSocketServer.builder()
                .bind("127.0.0.1", 0)
                .onHandshake(
                    req ->
                        req.queryParam("deny") != null
                            ? HandshakeDecision.reject(403)
                            : HandshakeDecision.accept())
                .websocket(
                    "/echo",
                    new WebSocketListener() {
                      @Override
                      public void onText(WebSocket ws, String text) {
                        ws.sendText(text);
                      }
                    })
                .start();
        WebSocketClient client = WebSocketClient.builder().build()) {
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      new WsjavaMetrics(server, Tags.of("server", "test")).bindTo(registry);
      URI uri = URI.create("ws://127.0.0.1:" + server.port() + "/echo");
      WebSocket ws = client.connect(uri).get(10, TimeUnit.SECONDS);
      ws.sendText("hello");
      assertThat(ws.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("hello"));
      try {
        client.connect(URI.create(uri + "?deny")).get(10, TimeUnit.SECONDS);
      } catch (ExecutionException expected) {
        // refused 403
      }
      assertThat(registry.get("wsjava.connections.open").tag("server", "test").gauge().value())
          .isEqualTo(1);
      assertThat(registry.get("wsjava.messages").tag("direction", "in").functionCounter().count())
          .isEqualTo(1);
      assertThat(registry.get("wsjava.payload").tag("direction", "out").functionCounter().count())
          .isEqualTo(5);
      assertThat(
              registry.get("wsjava.handshakes.rejected").tag("reason", "application")
                  .functionCounter().count())
          .isEqualTo(1);
      assertThat(
              registry.get("wsjava.handshakes.rejected").tag("reason", "server_full")
                  .functionCounter().count())
          .isZero();
    }
  }
}
