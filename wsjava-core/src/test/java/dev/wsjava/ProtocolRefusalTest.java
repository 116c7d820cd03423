package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Upgrades that RFC 6455 or the Origin policy refuses, before any hook or limit sees them, are
 * counted in the server's stats and recorded as Flight Recorder events, on both transports.
 */
class ProtocolRefusalTest {
  @TempDir Path dir;

  static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";

  /** Sends a raw upgrade request and returns the status code it was answered. */
  static String status(int port, String extraFields) throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(
          ("GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  + "Sec-WebSocket-Key: " + KEY + "\r\n" + extraFields + "\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      byte[] statusLine = in.readNBytes("HTTP/1.1 101".length());
      return new String(statusLine, StandardCharsets.ISO_8859_1).substring("HTTP/1.1 ".length());
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aWrongVersionAndARefusedOriginAreCountedAndRecorded(Transport t) throws Exception {
    List<RecordedEvent> events;
    try (Recording recording = new Recording()) {
      recording.enable("dev.wsjava.HandshakeRejected").withoutStackTrace();
      recording.start();
      try (WebSocketServer server =
          WebSocketServer.builder()
              .bind("127.0.0.1", 0)
              .config(WebSocketConfig.builder().transport(t).eventLoops(1).build())
              .allowOrigins("https://good.example")
              .websocket("/echo", new WebSocketListener() {})
              .start()) {
        assertThat(status(server.port(), "Sec-WebSocket-Version: 8\r\n"))
            .as("RFC 6455 §4.4: a version the server does not speak")
            .isEqualTo("426");
        assertThat(status(server.port(), "Sec-WebSocket-Version: 13\r\nOrigin: https://evil.example\r\n"))
            .isEqualTo("403");
        assertThat(status(server.port(), "Sec-WebSocket-Version: 13\r\nOrigin: https://good.example\r\n"))
            .as("an allowed upgrade, which is not counted")
            .isEqualTo("101");
        WebSocketServer.Stats stats = server.stats();
        assertThat(stats.rejectedByProtocol()).isEqualTo(2);
        assertThat(stats.rejectedByApplication()).isZero();
      }
      recording.stop();
      Path file = dir.resolve("refusals.jfr");
      recording.dump(file);
      events =
          RecordingFile.readAllEvents(file).stream()
              .filter(e -> e.getEventType().getName().equals("dev.wsjava.HandshakeRejected"))
              .toList();
    }
    assertThat(events).extracting(e -> e.getInt("status")).containsExactlyInAnyOrder(426, 403);
    assertThat(events)
        .allSatisfy(e -> assertThat(e.getString("remote")).contains("127.0.0.1"))
        .extracting(e -> e.getString("reason"))
        .anySatisfy(r -> assertThat(r).containsIgnoringCase("origin"));
  }
}
