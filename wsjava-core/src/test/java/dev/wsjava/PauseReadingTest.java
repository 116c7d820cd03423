package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link WebSocket#pauseReading()} and {@link WebSocket#resumeReading()}: a listener that hands a
 * streamed message to another thread stops the connection at a piece, and the rest of the message
 * arrives only after the resume, on both transports.
 */
@Timeout(60)
class PauseReadingTest {

  private final CompletableFuture<WebSocket> serverSocket = new CompletableFuture<>();

  @ParameterizedTest
  @EnumSource(Transport.class)
  void noPieceArrivesBetweenThePauseAndTheResume(Transport t) throws Exception {
    AtomicLong received = new AtomicLong();
    CountDownLatch firstPiece = new CountDownLatch(1);
    CompletableFuture<Long> ended = new CompletableFuture<>();
    WebSocketConfig config = WebSocketConfig.builder().transport(t).streamMessages(true).build();
    try (WebSocketServer server = WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(config)
            .websocket("/in", new WebSocketListener() {
              boolean paused;

              @Override
              public void onMessagePart(WebSocket ws, boolean text, ByteBuffer part, boolean last) {
                received.addAndGet(part.remaining());
                if (!paused && part.hasRemaining()) {
                  paused = true;
                  ws.pauseReading();
                  serverSocket.complete(ws);
                  firstPiece.countDown();
                }
                if (last) {
                  ended.complete(received.get());
                }
              }
            })
            .start();
        WebSocketClient client = WebSocketClient.builder()
            .config(WebSocketConfig.builder().transport(t).build()).build()) {
      WebSocket ws = client.connect(URI.create("ws://127.0.0.1:" + server.port() + "/in"),
          new WebSocketListener() {}).get(10, TimeUnit.SECONDS);
      ws.sendBinary(ByteBuffer.allocate(4 << 20));
      assertThat(firstPiece.await(10, TimeUnit.SECONDS)).isTrue();
      // Paused inside a 4 MiB message (far more than one read): its end cannot have come, and
      // resuming a socket that is not paused (the client's own) changes nothing.
      assertThat(received.get()).isLessThan(4 << 20);
      ws.resumeReading();
      assertThat(ended).isNotDone();
      // resumed from this thread, as a stream's reader does: the rest of the message flows
      serverSocket.get(10, TimeUnit.SECONDS).resumeReading();
      assertThat(ended.get(10, TimeUnit.SECONDS)).isEqualTo(4L << 20);
      ws.close().get(10, TimeUnit.SECONDS);
    }
  }
}
