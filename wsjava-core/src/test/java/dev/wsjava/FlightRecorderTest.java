package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A Flight Recorder recording around a short load over both transports: every connection's open
 * and close (with code and duration), the refused upgrades with their status, a limit hit, and
 * sampled message sizes are read back with {@code jdk.jfr.consumer}, and the server's counters
 * agree.
 */
class FlightRecorderTest {
  static final int CONNECTIONS = 12;
  static final int MESSAGES = 200;

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aRecordingShowsTheConnectionsRefusalsLimitsAndSampledSizes(Transport t) throws Exception {
    CountingEcho echo = new CountingEcho();
    WebSocketConfig config = WebSocketConfig.builder().transport(t).eventLoops(2).build();
    List<RecordedEvent> events;
    try (Recording recording = new Recording()) {
      for (String name :
          List.of("ConnectionOpened", "ConnectionClosed", "HandshakeRejected", "LimitHit", "MessageSize")) {
        recording.enable("dev.wsjava." + name).withoutStackTrace();
      }
      recording.start();
      try (WebSocketServer server =
              WebSocketServer.builder()
                  .bind("127.0.0.1", 0)
                  .config(config)
                  .maxConnectionsPerAddress(CONNECTIONS)
                  .onHandshake(
                      req ->
                          req.queryParam("deny") != null
                              ? HandshakeDecision.reject(403)
                              : HandshakeDecision.accept())
                  .websocket("/echo", echo)
                  .start();
          WebSocketClient client = WebSocketClient.builder().config(config).build()) {
        URI uri = URI.create("ws://127.0.0.1:" + server.port() + "/echo");
        assertThat(CountingEcho.status(client, URI.create(uri + "?deny"))).isEqualTo(403);
        List<WebSocket> sockets = new ArrayList<>();
        for (int i = 0; i < CONNECTIONS; i++) {
          sockets.add(client.connect(uri).get(10, TimeUnit.SECONDS));
        }
        echo.awaitOpened(CONNECTIONS);
        assertThat(CountingEcho.status(client, uri)).as("one too many for the address").isEqualTo(429);
        for (int m = 0; m < MESSAGES; m++) {
          for (WebSocket ws : sockets) {
            ws.sendText("message " + m);
          }
          for (WebSocket ws : sockets) {
            assertThat(ws.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("message " + m));
          }
        }
        for (WebSocket ws : sockets) {
          ws.close().get(10, TimeUnit.SECONDS);
        }
        echo.awaitClosed(CONNECTIONS);
        WebSocketServer.Stats stats = server.stats();
        assertThat(stats.connectionsTotal()).isEqualTo(CONNECTIONS);
        assertThat(stats.connectionsOpen()).isZero();
        assertThat(stats.messagesIn()).isEqualTo((long) CONNECTIONS * MESSAGES);
        assertThat(stats.messagesOut()).isEqualTo((long) CONNECTIONS * MESSAGES);
        assertThat(stats.rejectedByApplication()).isEqualTo(1);
        assertThat(stats.rejectedAddressFull()).isEqualTo(1);
      }
      recording.stop();
      Path file = dir.resolve("load.jfr");
      recording.dump(file);
      events = RecordingFile.readAllEvents(file);
    }
    Map<String, List<RecordedEvent>> byName =
        events.stream().collect(Collectors.groupingBy(e -> e.getEventType().getName()));
    assertThat(byName.get("dev.wsjava.ConnectionOpened")).hasSize(CONNECTIONS);
    List<RecordedEvent> closes = byName.get("dev.wsjava.ConnectionClosed");
    assertThat(closes).hasSize(CONNECTIONS);
    for (RecordedEvent e : closes) {
      assertThat(e.getInt("code")).isEqualTo(1000);
      assertThat(e.getLong("openFor")).isPositive();
      assertThat(e.getString("path")).isEqualTo("/echo");
    }
    assertThat(byName.get("dev.wsjava.HandshakeRejected"))
        .extracting(e -> e.getInt("status"))
        .containsExactlyInAnyOrder(403, 429);
    assertThat(byName.get("dev.wsjava.LimitHit"))
        .extracting(e -> e.getString("limit"))
        .containsExactly("address-connections");
    // One message in 64 of 2 x 2,400: none at all would be a 1 in 10^32 chance.
    List<RecordedEvent> sizes = byName.get("dev.wsjava.MessageSize");
    assertThat(sizes).isNotEmpty();
    assertThat(sizes).extracting(e -> e.getLong("size")).allMatch(n -> n >= 9 && n <= 11);
  }
}
