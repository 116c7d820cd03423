package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.extension.PerMessageDeflate;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Streaming receive on the public API, both styles (a listener's {@code onMessagePart} at {@code
 * /echo}, {@link WebSocket#receiveStream()} in a blocking handler at {@code /pull}), on both
 * transports: messages far larger than the memory budget in constant memory, in order and intact,
 * the UTF-8 of streamed text checked as it arrives, and a peer that leaves inside a message.
 */
class StreamingReceiveTest {
  static final long BUDGET = 32L << 20;
  static final int PART = 1 << 20;
  /** The live heap is measured (after a collection) each time this many bytes have arrived. */
  static final long CHECK_EVERY = 32L << 20;

  WebSocketServer server;
  WebSocketClient client;
  /** Live heap at each check, server side, for the message in progress. */
  final ConcurrentLinkedQueue<Long> liveHeap = new ConcurrentLinkedQueue<>();
  /** What the pull handler's stream threw, or its result. */
  final CompletableFuture<String> pulled = new CompletableFuture<>();
  /** What the listener was told when the connection ended: parts seen, then the close code. */
  final CompletableFuture<String> listenerEnd = new CompletableFuture<>();

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.shutdown(Duration.ofSeconds(2));
    }
  }

  /** A checksum of a message as it arrives, with the live heap measured on the way. */
  final class Digest {
    final CRC32 crc = new CRC32();
    long size;
    int parts;

    void add(ByteBuffer part) {
      long before = size;
      size += part.remaining();
      parts++;
      crc.update(part);
      if (size / CHECK_EVERY != before / CHECK_EVERY) {
        liveHeap.add(liveHeapNow());
      }
    }

    String result() {
      return size + ":" + Long.toHexString(crc.getValue());
    }
  }

  /** The heap in use right after a full collection: live objects only, no garbage. */
  static long liveHeapNow() {
    System.gc();
    return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  void start(Transport t, boolean deflate, long maxStreamed) throws IOException {
    WebSocketConfig config =
        WebSocketConfig.builder()
            .transport(t)
            .eventLoops(1)
            .deflate(deflate ? PerMessageDeflate.defaults() : null)
            .memoryBudget(BUDGET)
            .streamMessages(true)
            .maxStreamedMessageSize(maxStreamed)
            .build();
    server =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(config)
            .websocket("/echo", new WebSocketListener() {
              @Override
              public void onMessagePart(WebSocket ws, boolean text, ByteBuffer part, boolean last) {
                Digest d = ws.attachment(Digest.class);
                if (d == null) {
                  d = new Digest();
                  ws.attach(d);
                }
                d.add(part);
                if (last) {
                  ws.sendText((text ? "text " : "binary ") + d.result());
                  ws.attach(null);
                }
              }

              @Override
              public void onClose(WebSocket ws, int code, String reason) {
                Digest d = ws.attachment(Digest.class);
                listenerEnd.complete((d == null ? 0 : d.size) + " bytes, then " + code);
              }
            })
            .websocket("/pull", ws -> {
              try {
                while (true) {
                  MessageStream m = ws.receiveStream();
                  Digest d = new Digest();
                  byte[] buf = new byte[64 * 1024];
                  for (int n; (n = m.read(buf)) >= 0; ) {
                    d.add(ByteBuffer.wrap(buf, 0, n));
                  }
                  ws.sendText((m.isText() ? "text " : "binary ") + d.result()).join();
                }
              } catch (WebSocketClosedException e) {
                pulled.complete("closed " + e.code());
                throw e;
              }
            })
            .start();
    client =
        WebSocketClient.builder()
            .config(WebSocketConfig.builder().transport(t).eventLoops(1)
                .deflate(deflate ? PerMessageDeflate.defaults() : null).build())
            .build();
  }

  URI uri(String path) {
    return URI.create("ws://127.0.0.1:" + server.port() + path);
  }

  /** Sends {@code parts} binary fragments of {@link #PART} bytes and returns their digest. */
  static String sendFragments(WebSocket ws, int parts, boolean compressible, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    byte[] part = new byte[PART];
    CRC32 crc = new CRC32();
    for (int i = 0; i < parts; i++) {
      if (compressible) {
        // Long runs: a 64 KiB read of the compressed frame inflates to many chunks.
        java.util.Arrays.fill(part, (byte) random.nextInt(4));
        part[random.nextInt(PART)] = (byte) random.nextInt();
      } else {
        random.nextBytes(part);
      }
      crc.update(part);
      ws.sendBinary(ByteBuffer.wrap(part), i == parts - 1).join();
    }
    return (long) parts * PART + ":" + Long.toHexString(crc.getValue());
  }

  static List<Arguments> transportsAndStyles() {
    List<Arguments> out = new ArrayList<>();
    for (Transport t : Transport.values()) {
      out.add(Arguments.of(t, "/echo"));
      out.add(Arguments.of(t, "/pull"));
    }
    return out;
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("transportsAndStyles")
  void aMessageEightTimesTheBudgetStreamsThroughInConstantMemory(Transport t, String path)
      throws Exception {
    start(t, false, Long.MAX_VALUE);
    WebSocket ws = client.open(uri(path));
    long baseline = liveHeapNow();
    int parts = 256; // 256 MiB, eight times the server's budget, sixteen times the message limit
    String sent = sendFragments(ws, parts, false, 23);
    Message echo = ws.receive(Duration.ofSeconds(60));
    assertThat(echo).isEqualTo(new Message.Text("binary " + sent));
    assertThat(liveHeap).as("a live-heap check per 32 MiB").hasSize(8);
    long peak = liveHeap.stream().mapToLong(Long::longValue).max().orElseThrow();
    assertThat(peak - baseline)
        .as("live heap above the baseline while 256 MiB streamed through (budget 32 MiB)")
        .isLessThan(BUDGET / 2);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("transportsAndStyles")
  void compressedPartsInflatingManyChunksPerReadArriveInOrder(Transport t, String path)
      throws Exception {
    start(t, true, Long.MAX_VALUE);
    WebSocket ws = client.open(uri(path));
    assertThat(ws.extensions()).containsExactly("permessage-deflate");
    String sent = sendFragments(ws, 48, true, 7);
    assertThat(ws.receive(Duration.ofSeconds(60))).isEqualTo(new Message.Text("binary " + sent));
    // and the connection goes on: a second message, text this time
    ws.sendText("h\u00e9llo \uD83D\uDE00").join();
    CRC32 crc = new CRC32();
    byte[] utf8 = "h\u00e9llo \uD83D\uDE00".getBytes(StandardCharsets.UTF_8);
    crc.update(utf8);
    assertThat(ws.receive(Duration.ofSeconds(10)))
        .isEqualTo(new Message.Text(
            "text " + utf8.length + ":" + Long.toHexString(crc.getValue())));
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void invalidUtf8InsideAStreamedTextIsClosedWith1007(Transport t) throws Exception {
    start(t, false, Long.MAX_VALUE);
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(10_000);
      assertThat(HardeningTest.upgrade(s, "")).startsWith("HTTP/1.1 101");
      OutputStream out = s.getOutputStream();
      byte[] good = "x".repeat(PART).getBytes(StandardCharsets.US_ASCII);
      HardeningTest.frame(out, false, 0, 1, good, good.length); // text, not final
      byte[] bad = {'o', 'k', (byte) 0xC3}; // a sequence left open...
      HardeningTest.frame(out, false, 0, 0, bad, bad.length);
      byte[] worse = {(byte) 0x28, 'n', 'o'}; // ...and broken: 0xC3 0x28 is not UTF-8
      HardeningTest.frame(out, true, 0, 0, worse, worse.length);
      out.flush();
      InputStream in = s.getInputStream();
      assertThat(HardeningTest.readUntilClose(in).closeCode()).isEqualTo(1007);
    }
    assertThat(listenerEnd.get(10, TimeUnit.SECONDS))
        .as("the listener had the valid parts, then the close")
        .isEqualTo((PART + 3) + " bytes, then 1007");
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("transportsAndStyles")
  void aPeerThatLeavesInsideAMessageEndsItsStream(Transport t, String path) throws Exception {
    start(t, false, Long.MAX_VALUE);
    WebSocket ws = client.open(uri(path));
    byte[] part = new byte[PART];
    ws.sendBinary(ByteBuffer.wrap(part), false).join();
    ws.sendBinary(ByteBuffer.wrap(part), false).join();
    ws.abort();
    if (path.equals("/pull")) {
      assertThat(pulled.get(10, TimeUnit.SECONDS)).isEqualTo("closed 1006");
    } else {
      assertThat(listenerEnd.get(10, TimeUnit.SECONDS)).endsWith(" bytes, then 1006");
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aStreamedMessagePastItsOwnCapIsClosedWith1009(Transport t) throws Exception {
    start(t, false, 3L * PART);
    WebSocket ws = client.open(uri("/pull"));
    try {
      sendFragments(ws, 4, false, 1);
    } catch (java.util.concurrent.CompletionException closedMeanwhile) {
      // the server closed before the last part went out
    }
    assertThat(pulled.get(10, TimeUnit.SECONDS)).isEqualTo("closed 1009");
    assertThatThrownBy(() -> ws.receive(Duration.ofSeconds(10)))
        .isInstanceOfSatisfying(
            WebSocketClosedException.class, e -> assertThat(e.code()).isEqualTo(1009));
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void receiveAndReceiveStreamSayWhichOneTheConnectionTakes(Transport t) throws Exception {
    start(t, false, Long.MAX_VALUE);
    WebSocket ws = client.open(uri("/pull"));
    assertThatThrownBy(ws::receiveStream)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("streamMessages(true)");
  }
}
