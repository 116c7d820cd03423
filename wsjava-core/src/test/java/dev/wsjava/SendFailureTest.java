package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A failed send's future fails with the API's own exception, unwrapped, whether it failed at once
 * or later: {@code handle((ok, e) -> e instanceof SendQueueFullException)} works as documented.
 */
class SendFailureTest {

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aSendPastTheQueueBoundFailsWithSendQueueFullExceptionItself(Transport t) throws Exception {
    // A 1 MiB bound: the first 8 MiB message is taken whole (the queue was empty); a peer that
    // never reads keeps most of it queued, so the next send is refused at once.
    WebSocketConfig client = WebSocketConfig.builder().transport(t).maxQueuedBytes(1 << 20).build();
    try (ServerSocket peer = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        WebSocketClient c = WebSocketClient.builder().config(client).build()) {
      DeadPeer.start(peer, false);
      WebSocket ws = c.open(URI.create("ws://127.0.0.1:" + peer.getLocalPort() + "/"));
      // On the blocking transport the sending thread writes, and blocks: send from another one.
      Thread.ofVirtual().start(() -> ws.sendBinary(ByteBuffer.allocate(8 << 20)));
      Await.until("the big message queued", Duration.ofSeconds(10), () -> ws.queuedBytes() > 0);
      Throwable seen = ws.sendBinary(new byte[1024]).handle((ok, e) -> e).get(5, TimeUnit.SECONDS);
      assertThat(seen).isInstanceOf(SendQueueFullException.class);
      assertThat(ws.sendText("x").handle((ok, e) -> e).get(5, TimeUnit.SECONDS))
          .isInstanceOf(SendQueueFullException.class);
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aSendAfterTheCloseFailsWithWebSocketClosedExceptionItself(Transport t) throws Exception {
    WebSocketConfig config = WebSocketConfig.builder().transport(t).build();
    try (WebSocketServer s = WebSocketServer.builder().bind("127.0.0.1", 0).config(config)
            .websocket("/sink", new WebSocketListener() {})
            .start();
        WebSocketClient c = WebSocketClient.builder().config(config).build()) {
      WebSocket ws = c.open(URI.create("ws://127.0.0.1:" + s.port() + "/sink"));
      ws.close(1000, "done").get(5, TimeUnit.SECONDS);
      ws.closeFuture().get(5, TimeUnit.SECONDS);
      Throwable seen = ws.sendText("too late").handle((ok, e) -> e).get(5, TimeUnit.SECONDS);
      assertThat(seen).isInstanceOfSatisfying(WebSocketClosedException.class,
          e -> assertThat(e.code()).isEqualTo(1000));
    }
  }
}
