package dev.wsjava.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import dev.wsjava.bench.peer.ResultLine;
import dev.wsjava.bench.peer.Workload;
import dev.wsjava.extension.PerMessageDeflate;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class LoadClientTest {

  /** A wsjava echo server passing every binary message through {@code change}. */
  private static WebSocketServer server(boolean deflate, UnaryOperator<ByteBuffer> change)
      throws Exception {
    return WebSocketServer.builder()
        .bind("127.0.0.1", 0)
        .config(WebSocketConfig.builder().deflate(deflate ? PerMessageDeflate.defaults() : null).build())
        .websocket("/echo", new WebSocketListener() {
          @Override
          public void onText(WebSocket ws, String text) {
            ws.sendText(text);
          }

          @Override
          public void onBinary(WebSocket ws, ByteBuffer data) {
            ws.sendBinary(change.apply(data));
          }
        })
        .start();
  }

  private static Map<String, String> run(WebSocketServer server, Workload w) throws Exception {
    ResultLine line = new LoadClient("127.0.0.1", server.port(), "/echo").run(w, 100, 300);
    Map<String, String> r = ResultLine.parse(line.toString());
    // The client's own CPU time per echo and the threads that spent it, in every result.
    assertThat(Double.parseDouble(r.get("client_cpu_us_per_msg"))).isNotNegative();
    assertThat(r.get("client_threads")).isNotEmpty();
    return r;
  }

  @Test
  void everyWorkloadShapeIsEchoedCheckedAndCounted() throws Exception {
    try (WebSocketServer server = server(false, b -> b)) {
      for (Workload w : new Workload[] {
          Workload.LATENCY, Workload.SMALL, Workload.LARGE_64K, Workload.LARGE_1M,
          Workload.MANY.withConnections(20)}) {
        Map<String, String> r = run(server, w);
        assertThat(r.get("workload")).isEqualTo(w.id());
        assertThat(Long.parseLong(r.get("echoes"))).as(w.id()).isPositive();
        assertThat(Double.parseDouble(r.get("msgs_per_s"))).as(w.id()).isPositive();
        assertThat(Double.parseDouble(r.get("p50_us")))
            .isLessThanOrEqualTo(Double.parseDouble(r.get("p99_us")));
        // Unmasked frames come back, header plus payload. Bytes and echoes are counted over the same
        // window, and a large echo straddling its edges shifts the ratio by up to one message over
        // the few echoes of a short window: only the order of magnitude is exact.
        assertThat(Double.parseDouble(r.get("wire_down_per_msg"))).as(w.id())
            .isBetween(w.size() * 0.5, w.size() * 2.0 + 16);
      }
    }
  }

  @Test
  void withoutAWindowTheClientSendsAheadOfTheEchoesAndChecksEveryOne() throws Exception {
    try (WebSocketServer server = server(false, b -> b)) {
      Map<String, String> r = run(server, Workload.SMALL_FLOOD);
      assertThat(r.get("workload")).isEqualTo("smallflood");
      assertThat(Long.parseLong(r.get("echoes"))).isPositive();
      // Every echo parsed and checked (a wrong one fails the run), 300 bytes plus a 2-byte header.
      assertThat(Double.parseDouble(r.get("wire_down_per_msg"))).isBetween(300.0, 320.0);
    }
  }

  @Test
  void compressedEchoesAreInflatedAndCheckedAndTheirWireBytesCounted() throws Exception {
    try (WebSocketServer server = server(true, b -> b)) {
      Map<String, String> r = run(server, Workload.DEFLATE);
      assertThat(Long.parseLong(r.get("echoes"))).isPositive();
      // A repetitive 300-byte JSON text compresses well below 300 bytes each way.
      assertThat(Double.parseDouble(r.get("wire_down_per_msg"))).isLessThan(200);
      assertThat(Double.parseDouble(r.get("wire_up_per_msg"))).isLessThan(200);
    }
  }

  @Test
  void aServerWithoutDeflateFailsTheCompressionWorkload() throws Exception {
    try (WebSocketServer server = server(false, b -> b)) {
      assertThatThrownBy(() -> run(server, Workload.DEFLATE))
          .hasMessageContaining("did not accept permessage-deflate");
    }
  }

  @Test
  void aServerThatCorruptsOneByteIsCaught() throws Exception {
    UnaryOperator<ByteBuffer> flip = b -> {
      ByteBuffer copy = ByteBuffer.allocate(b.remaining()).put(b).flip();
      copy.put(100, (byte) (copy.get(100) ^ 1));
      return copy;
    };
    try (WebSocketServer server = server(false, flip)) {
      assertThatThrownBy(() -> run(server, Workload.SMALL)).hasMessageContaining("wrong at byte 100");
      assertThatThrownBy(() -> run(server, Workload.LARGE_1M)).hasMessageContaining("wrong at byte 100");
    }
  }

  @Test
  void aServerThatCutsEchoesShortIsCaught() throws Exception {
    UnaryOperator<ByteBuffer> cut = b -> b.limit(b.limit() - 1);
    try (WebSocketServer server = server(false, cut)) {
      assertThatThrownBy(() -> run(server, Workload.SMALL)).hasMessageContaining("has 299 bytes");
    }
  }

  @Test
  void aServerThatEchoesAStaleMessageIsCaught() throws Exception {
    ByteBuffer[] first = new ByteBuffer[1];
    UnaryOperator<ByteBuffer> stale = b -> {
      if (first[0] == null) {
        first[0] = ByteBuffer.allocate(b.remaining()).put(b).flip();
      }
      return first[0].duplicate();
    };
    try (WebSocketServer server = server(false, stale)) {
      // Message 1 comes back as message 0: its sequence number (bytes 0-7) is wrong.
      assertThatThrownBy(() -> run(server, Workload.SMALL)).hasMessageContaining("echo 1 is wrong at byte 7");
    }
  }

  @Test
  void idleConnectionsStayOpenUntilStandardInputEnds() throws Exception {
    try (WebSocketServer server = server(false, b -> b)) {
      int[] seenByServer = new int[1];
      InputStream stdin = new InputStream() {
        @Override
        public int read() {
          long end = System.nanoTime() + 10_000_000_000L;
          while (server.openTcpConnections() < 50 && System.nanoTime() < end) {
            Thread.onSpinWait();
          }
          seenByServer[0] = server.openTcpConnections();
          return -1;
        }
      };
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      new LoadClient("127.0.0.1", server.port(), "/echo")
          .holdIdle(50, stdin, new PrintStream(out, true, StandardCharsets.UTF_8));
      Map<String, String> r = ResultLine.parse(out.toString(StandardCharsets.UTF_8).trim());
      assertThat(r).containsEntry("workload", "idle").containsEntry("connections", "50");
      assertThat(seenByServer[0]).isEqualTo(50);
    }
  }

  @Test
  void theAcceptKeyIsTheRfcExample() {
    // RFC 6455 §1.3
    assertThat(RawConnection.acceptFor("dGhlIHNhbXBsZSBub25jZQ==")).isEqualTo("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
  }

  @Test
  void maskingEightBytesAtATimeMatchesAByteLoopAtEveryPhase() {
    int key = 0x37fa213d;
    byte[] k = {0x37, (byte) 0xfa, 0x21, 0x3d};
    for (int phase = 0; phase < 4; phase++) {
      for (int n : new int[] {0, 1, 7, 8, 9, 31}) {
        ByteBuffer buf = ByteBuffer.allocateDirect(40);
        for (int i = 0; i < 40; i++) {
          buf.put(i, (byte) i);
        }
        RawConnection.mask(buf, 3, n, key, phase);
        for (int i = 0; i < 40; i++) {
          byte expected = (i >= 3 && i < 3 + n) ? (byte) (i ^ k[(phase + i - 3) & 3]) : (byte) i;
          assertThat(buf.get(i)).as("phase %d n %d byte %d", phase, n, i).isEqualTo(expected);
        }
      }
    }
  }
}
