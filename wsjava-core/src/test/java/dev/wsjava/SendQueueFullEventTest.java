package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A server that sends to a client that never reads: once the outbound queue is past its bound,
 * each refused send is counted in {@link WebSocketServer#stats()} and recorded as a {@code
 * dev.wsjava.SendQueueFull} event with the peer and the bytes queued.
 */
class SendQueueFullEventTest {
  static final int BOUND = 1 << 20;
  // Far more than loopback socket buffers absorb, so most of it stays queued.
  static final int BIG = 32 << 20;

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void refusedSendsAreCountedAndRecorded(Transport t) throws Exception {
    WebSocketConfig config =
        WebSocketConfig.builder()
            .transport(t)
            .maxQueuedBytes(BOUND)
            .maxOutboundFramePayload(Integer.MAX_VALUE) // the big message in one frame, read below
            .build();
    CompletableFuture<WebSocket> opened = new CompletableFuture<>();
    List<RecordedEvent> events;
    String clientAddress;
    try (Recording recording = new Recording()) {
      recording.enable("dev.wsjava.SendQueueFull").withoutStackTrace();
      recording.start();
      try (WebSocketServer server =
              WebSocketServer.builder()
                  .bind("127.0.0.1", 0)
                  .config(config)
                  .websocket(
                      "/flood",
                      new WebSocketListener() {
                        @Override
                        public void onOpen(WebSocket ws) {
                          opened.complete(ws);
                          // The queue is empty, so this one is taken whole; on the blocking
                          // transport the sending thread writes and blocks, hence its own thread.
                          Thread.ofVirtual().start(() -> ws.sendBinary(ByteBuffer.allocate(BIG)));
                        }
                      })
                  .start();
          Socket client = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
        client.setSoTimeout(10_000);
        clientAddress = String.valueOf(client.getLocalSocketAddress());
        DataInputStream in = upgrade(client, "/flood");
        // The big frame's header (2 bytes, then a 64-bit length) proves the server is writing it;
        // the client reads nothing more, so the rest backs up in the server's queue.
        assertThat(in.readUnsignedByte()).isEqualTo(0x82);
        assertThat(in.readUnsignedByte()).isEqualTo(127);
        assertThat(in.readLong()).isEqualTo(BIG);
        WebSocket ws = opened.get(10, TimeUnit.SECONDS);
        assertThat(server.stats().sendQueueFull()).isZero();
        assertThat(ws.sendText("one more").handle((ok, e) -> e).get(10, TimeUnit.SECONDS))
            .isInstanceOf(SendQueueFullException.class);
        assertThat(ws.sendBinary(new byte[1024]).handle((ok, e) -> e).get(10, TimeUnit.SECONDS))
            .isInstanceOf(SendQueueFullException.class);
        assertThat(server.stats().sendQueueFull()).isEqualTo(2);
      }
      recording.stop();
      Path file = dir.resolve("queue-full.jfr");
      recording.dump(file);
      events = RecordingFile.readAllEvents(file);
    }
    List<RecordedEvent> full =
        events.stream().filter(e -> e.getEventType().getName().equals("dev.wsjava.SendQueueFull")).toList();
    assertThat(full).hasSize(2);
    for (RecordedEvent e : full) {
      assertThat(e.getString("remote")).isEqualTo(clientAddress);
      assertThat(e.getLong("queued")).isGreaterThan(0).isLessThanOrEqualTo(BIG + 14);
    }
  }

  /** Sends an upgrade request on {@code socket} and reads the 101 response head. */
  private static DataInputStream upgrade(Socket socket, String path) throws Exception {
    socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        .getBytes(StandardCharsets.ISO_8859_1));
    DataInputStream in = new DataInputStream(socket.getInputStream());
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      head.write(in.readUnsignedByte());
    }
    assertThat(head.toString(StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 101");
    return in;
  }
}
