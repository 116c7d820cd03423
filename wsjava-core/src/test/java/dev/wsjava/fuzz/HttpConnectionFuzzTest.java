package dev.wsjava.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.handshake.HttpHeadLimits;
import dev.wsjava.handshake.ServerHandshakeConfig;
import dev.wsjava.internal.http.HttpConnection;
import dev.wsjava.internal.http.HttpLimits;
import dev.wsjava.http.HttpRequest;
import dev.wsjava.http.HttpResponse;
import dev.wsjava.internal.http.Router;
import dev.wsjava.internal.http.WebSocketUpgrade;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The HTTP/1.1 front of the server fed arbitrary requests (pipelined, chunked bodies, upgrades) in
 * random chunks, with small limits. Input: byte 0 picks the chunking and whether the client reads
 * its answers (bit 7: it does not), the rest is the stream. Nothing may be thrown; bytes queued
 * stay bounded by the queue limit plus one response.
 */
class HttpConnectionFuzzTest {
  static final HttpLimits LIMITS =
      HttpLimits.defaults()
          .withHead(new HttpHeadLimits(1024, 16))
          .withMaxBodySize(2048)
          .withMaxRequestsPerConnection(16)
          .withMaxQueuedBytes(8192);

  static final Router<String> ROUTER =
      Router.<String>builder()
          .get("/", r -> HttpResponse.text(200, "hello"))
          .route("POST", "/echo", HttpConnectionFuzzTest::echo)
          .get(
              "/boom",
              r -> {
                throw new IllegalStateException("handler failure");
              })
          .websocket(
              "/chat",
              "chat",
              ServerHandshakeConfig.defaults().withExtensions(List.of(PerMessageDeflate.defaults())))
          .build();

  static HttpResponse echo(HttpRequest r) {
    ByteBuffer b = r.body();
    byte[] a = new byte[b.remaining()];
    b.get(a);
    return HttpResponse.bytes(200, "application/octet-stream", a);
  }

  @FuzzTest(maxDuration = "30s")
  void requests(byte[] data) {
    int flags = Chunks.at(data, 0);
    boolean reads = (flags & 0x80) == 0;
    long now = 0;
    HttpConnection<String> c = new HttpConnection<>(ROUTER, LIMITS, now);
    for (ByteBuffer in : Chunks.split(data, Math.min(1, data.length), flags & 0x7f)) {
      now += 1_000_000;
      while (in.hasRemaining()) {
        WebSocketUpgrade<String> upgrade = c.receive(in, now);
        assertThat(c.outboundBytes())
            .isLessThanOrEqualTo(LIMITS.maxQueuedBytes() + 2L * LIMITS.maxBodySize() + 4096);
        if (upgrade != null) {
          assertThat(c.upgrade()).isSameAs(upgrade);
          return; // the bytes now belong to the WebSocket session
        }
        if (c.shouldClose()) {
          assertThat(in.hasRemaining()).isFalse();
        }
        if (in.hasRemaining()) {
          if (!reads) {
            return; // stalled: the client never reads, the server stops reading
          }
          drain(c);
        }
      }
      if (reads) {
        drain(c);
      }
    }
    c.receiveEnd();
    assertThat(c.shouldClose()).isTrue();
  }

  private static void drain(HttpConnection<?> c) {
    ByteBuffer[] dst = new ByteBuffer[64];
    while (c.hasOutbound()) {
      int n = c.gatherOutbound(dst, 0);
      long total = 0;
      for (int i = 0; i < n; i++) {
        total += dst[i].remaining();
        dst[i].position(dst[i].limit());
      }
      c.written(total);
    }
  }
}
