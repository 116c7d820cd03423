package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A server that sends its close and at once shuts its output down (Jetty does so), while our
 * client still writes: a half-closed peer still reads, so our close answer must reach it.
 */
@Timeout(60)
class HalfClosedPeerTest {
  /** A frame a client sent: its first byte (FIN, RSV, opcode) and its unmasked payload. */
  record Frame(int first, byte[] payload) {}

  /**
   * The client's reader meets end of stream while its close answer waits behind a long message
   * another thread is writing. Closing the socket then would cut both, and the server would see
   * no close frame (1006); the message and the answer must arrive whole, in order.
   */
  @ParameterizedTest
  @EnumSource(Transport.class)
  void aCloseAnswerQueuedBehindALongWriteReachesThePeerAfterItsEndOfStream(Transport t)
      throws Exception {
    byte[] big = new byte[8 << 20]; // more than loopback's socket buffers take at once
    new SplittableRandom(7).nextBytes(big);
    try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        WebSocketClient client =
            WebSocketClient.builder()
                .config(WebSocketConfig.builder().transport(t).closeTimeout(Duration.ofSeconds(20))
                    .maxOutboundFramePayload(16 << 20) // the peer reads the message as one frame
                    .build())
                .build()) {
      BlockingQueue<Object> seen = new LinkedBlockingQueue<>();
      BlockingQueue<Object> sent = new LinkedBlockingQueue<>();
      CountDownLatch queued = new CountDownLatch(1);
      Thread.ofVirtual().start(() -> {
        try (Socket peer = DeadPeer.acceptUpgrade(listener)) {
          queued.await(20, TimeUnit.SECONDS); // the client's message is queued, so its close answer goes behind it
          peer.getOutputStream().write(new byte[] {(byte) 0x88, 2, 0x0f, (byte) 0xa1}); // 4001
          peer.shutdownOutput();
          Thread.sleep(300); // the client's reader meets end of stream meanwhile
          InputStream in = peer.getInputStream();
          seen.add(readClientFrame(in));
          seen.add(readClientFrame(in));
          seen.add(in.read() < 0);
        } catch (Exception e) {
          seen.add(e);
        }
      });
      CompletableFuture<String> closed = new CompletableFuture<>();
      List<Throwable> errors = new CopyOnWriteArrayList<>();
      WebSocket ws = client.connect(URI.create("ws://127.0.0.1:" + listener.getLocalPort()),
          new WebSocketListener() {
            @Override
            public void onError(WebSocket ws, Throwable e) {
              errors.add(e);
            }

            @Override
            public void onClose(WebSocket ws, int code, String reason) {
              closed.complete(code + " " + reason);
            }
          }).get(10, TimeUnit.SECONDS);
      // A blocking send writes on the calling thread until the socket takes it all.
      Thread.ofVirtual().start(() -> ws.sendBinary(ByteBuffer.wrap(big))
          .whenComplete((v, e) -> sent.add(e == null ? "written" : e)));
      Await.until("the message queued", Duration.ofSeconds(10), () -> ws.queuedBytes() > 0);
      queued.countDown();

      Object message = seen.poll(20, TimeUnit.SECONDS);
      assertThat(message).isInstanceOf(Frame.class);
      assertThat(((Frame) message).first()).isEqualTo(0x82);
      assertThat(((Frame) message).payload()).isEqualTo(big);
      Object close = seen.poll(20, TimeUnit.SECONDS);
      assertThat(close).isInstanceOf(Frame.class);
      assertThat(((Frame) close).first()).isEqualTo(0x88);
      assertThat(((Frame) close).payload()).containsExactly(0x0f, 0xa1);
      assertThat(seen.poll(20, TimeUnit.SECONDS)).isEqualTo(true);
      assertThat(sent.poll(20, TimeUnit.SECONDS)).isEqualTo("written");
      assertThat(closed.get(20, TimeUnit.SECONDS)).isEqualTo("4001 ");
      assertThat(errors).isEmpty();
    }
  }

  static Frame readClientFrame(InputStream in) throws IOException {
    byte[] head = in.readNBytes(2);
    if (head.length < 2 || (head[1] & 0x80) == 0) {
      throw new IOException("stream ended before a frame, or the frame is not masked");
    }
    long length = head[1] & 0x7f;
    int extra = length == 126 ? 2 : length == 127 ? 8 : 0;
    if (extra > 0) {
      length = 0;
      for (byte b : in.readNBytes(extra)) {
        length = (length << 8) | (b & 0xff);
      }
    }
    byte[] key = in.readNBytes(4);
    byte[] payload = in.readNBytes((int) length);
    if (key.length != 4 || payload.length != length) {
      throw new IOException("stream ended inside a frame");
    }
    for (int i = 0; i < payload.length; i++) {
      payload[i] ^= key[i & 3];
    }
    return new Frame(head[0] & 0xff, payload);
  }
}
