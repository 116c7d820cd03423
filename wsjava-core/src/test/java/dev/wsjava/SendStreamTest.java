package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Writer;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Large messages out: frames never larger than the outbound frame size (checked by a server whose
 * frame limit is that size, so one byte more is a 1009), compressed or not; the send streams, their
 * bounded memory against a peer that does not read, and a 200 MiB random upload in a small heap.
 */
class SendStreamTest {
  static final int FRAME = 64 * 1024;

  WebSocketServer server;
  WebSocketClient client;

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** Answers each message with its size and a checksum; frames over FRAME are a 1009. */
  static final WebSocketListener SIZES =
      new WebSocketListener() {
        @Override
        public void onBinary(WebSocket ws, ByteBuffer data) {
          ws.sendText("binary " + data.remaining() + " " + sum(data));
        }

        @Override
        public void onText(WebSocket ws, String text) {
          ws.sendText("text " + text.length() + " " + text.hashCode());
        }
      };

  static long sum(ByteBuffer b) {
    long s = 0;
    for (int i = b.position(); i < b.limit(); i++) {
      s = s * 31 + b.get(i);
    }
    return s;
  }

  WebSocket connect(Transport t, boolean deflate, WebSocketListener route) throws Exception {
    server =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(
                WebSocketConfig.builder()
                    .transport(t)
                    .eventLoops(1)
                    .maxFramePayload(FRAME)
                    .maxMessageSize(64 << 20)
                    .build())
            .websocket("/", route)
            .start();
    WebSocketConfig.Builder c = WebSocketConfig.builder().transport(t).maxOutboundFramePayload(FRAME);
    if (!deflate) {
      c.deflate(null);
    }
    client = WebSocketClient.builder().config(c.build()).build();
    WebSocket ws =
        client.connect(URI.create("ws://127.0.0.1:" + server.port() + "/")).get(10, TimeUnit.SECONDS);
    assertThat(ws.extensions().isEmpty()).isEqualTo(!deflate);
    return ws;
  }

  static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new SplittableRandom(seed).nextBytes(b);
    return b;
  }

  String answer(WebSocket ws) throws Exception {
    Message m = ws.receive(Duration.ofSeconds(20));
    assertThat(m).as("an answer, not a close").isInstanceOf(Message.Text.class);
    return ((Message.Text) m).text();
  }

  void roundTrip(WebSocket ws, byte[] data) throws Exception {
    ws.sendBinary(data).get(20, TimeUnit.SECONDS);
    assertThat(answer(ws)).isEqualTo("binary " + data.length + " " + sum(ByteBuffer.wrap(data)));
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void largeMessagesGoOutInFramesAPeerWithA64KiBFrameLimitTakes(Transport t) throws Exception {
    for (boolean deflate : new boolean[] {false, true}) {
      WebSocket ws = connect(t, deflate, SIZES);
      roundTrip(ws, random(3 << 20, 1)); // incompressible
      roundTrip(ws, new byte[3 << 20]); // compresses to little
      // Compressible at first, then random: compressed, and each random slice grows a little past
      // the frame size, so it takes a second frame.
      byte[] mixed = random(2 << 20, 2);
      Arrays.fill(mixed, 0, FRAME, (byte) 'a');
      roundTrip(ws, mixed);
      roundTrip(ws, new byte[FRAME]); // exactly one frame
      String text = "x".repeat(FRAME * 3 + 7);
      ws.sendText(text).get(20, TimeUnit.SECONDS);
      assertThat(answer(ws)).isEqualTo("text " + text.length() + " " + text.hashCode());
      // Fragments larger than a frame are split too.
      ws.sendBinary(ByteBuffer.wrap(random(FRAME * 2, 3)), false);
      ws.sendBinary(ByteBuffer.wrap(random(FRAME * 2, 4)), true).get(20, TimeUnit.SECONDS);
      byte[] both = new byte[FRAME * 4];
      System.arraycopy(random(FRAME * 2, 3), 0, both, 0, FRAME * 2);
      System.arraycopy(random(FRAME * 2, 4), 0, both, FRAME * 2, FRAME * 2);
      assertThat(answer(ws)).isEqualTo("binary " + both.length + " " + sum(ByteBuffer.wrap(both)));
      ws.close().get(10, TimeUnit.SECONDS);
      stop();
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void streamsSendOneMessageEach(Transport t) throws Exception {
    WebSocket ws = connect(t, true, SIZES);
    byte[] data = random(1_000_000, 5);
    try (OutputStream out = ws.sendBinaryStream()) {
      out.write(data, 0, 10);
      out.flush();
      out.write(data[10]);
      out.write(data, 11, data.length - 11);
    }
    assertThat(answer(ws)).isEqualTo("binary " + data.length + " " + sum(ByteBuffer.wrap(data)));
    String text = "é😀".repeat(100_000) + "end";
    try (Writer w = ws.sendTextWriter()) {
      // Split inside a surrogate pair, and across the writer's buffer.
      w.write(text, 0, 2);
      w.write(text.substring(2));
    }
    assertThat(answer(ws)).isEqualTo("text " + text.length() + " " + text.hashCode());
    ws.sendBinaryStream().close(); // nothing written: an empty message
    assertThat(answer(ws)).isEqualTo("binary 0 0");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aStreamWaitsForASlowPeerAndHoldsAtMostOneFragmentQueued(Transport t) throws Exception {
    CountDownLatch read = new CountDownLatch(1);
    AtomicReference<String> received = new AtomicReference<>();
    server =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(WebSocketConfig.builder().transport(t).eventLoops(1).build())
            .websocket(
                "/slow",
                (WebSocketHandler)
                    ws -> {
                      read.await(); // reads nothing until told
                      long n = 0;
                      try (InputStream in = ws.receiveStream()) {
                        n = in.transferTo(OutputStream.nullOutputStream());
                      }
                      ws.sendText("streamed " + n).join();
                    },
                cfg -> cfg.streamMessages(true).maxStreamedMessageSize(1L << 30))
            .start();
    client =
        WebSocketClient.builder()
            .config(WebSocketConfig.builder().transport(t).deflate(null).socketBuffers(64 << 10, 64 << 10).build())
            .build();
    WebSocket ws =
        client.connect(URI.create("ws://127.0.0.1:" + server.port() + "/slow")).get(10, TimeUnit.SECONDS);
    long total = 256L << 20; // far more than the socket buffers and the send queue's bound hold
    AtomicLong written = new AtomicLong();
    AtomicLong mostQueued = new AtomicLong();
    CompletableFuture<Void> done = new CompletableFuture<>();
    Thread writer =
        Thread.ofVirtual()
            .start(
                () -> {
                  byte[] chunk = new byte[32 * 1024];
                  try (OutputStream out = ws.sendBinaryStream()) {
                    while (written.get() < total) {
                      out.write(chunk);
                      written.addAndGet(chunk.length);
                      mostQueued.accumulateAndGet(ws.queuedBytes(), Math::max);
                    }
                  } catch (Exception e) {
                    done.completeExceptionally(e);
                  }
                  done.complete(null);
                });
    // The writer blocks once the socket buffers are full: waiting, with the rest unwritten.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!(writer.getState() == Thread.State.WAITING && written.get() > 0)) {
      assertThat(System.nanoTime()).as("the writer blocks").isLessThan(deadline);
      Thread.sleep(5);
    }
    assertThat(written.get()).isLessThan(total);
    assertThat(ws.queuedBytes()).isLessThanOrEqualTo(SendStreams.CHUNK + 1024);
    read.countDown();
    done.get(60, TimeUnit.SECONDS);
    assertThat(answer(ws)).isEqualTo("streamed " + total);
    assertThat(mostQueued.get()).as("queued at most one fragment").isLessThanOrEqualTo(SendStreams.CHUNK + 1024);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aStreamCannotBeOpenedOnTheIoThread(Transport t) throws Exception {
    CompletableFuture<Throwable> refused = new CompletableFuture<>();
    WebSocket ws =
        connect(
            t,
            true,
            new WebSocketListener() {
              @Override
              public void onText(WebSocket ws, String text) {
                try {
                  ws.sendBinaryStream();
                  refused.complete(null);
                } catch (RuntimeException e) {
                  refused.complete(e);
                }
              }
            });
    ws.sendText("go");
    assertThat(refused.get(10, TimeUnit.SECONDS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("I/O thread");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aStreamedUploadOf200MiBOfRandomBytesWithCompressionPassesInA48MiBHeap(Transport t)
      throws Exception {
    String cp =
        Path.of(StreamedUpload.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            + java.io.File.pathSeparator
            + Path.of(WebSocket.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    long start = System.nanoTime();
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx48m",
                "-cp",
                cp,
                StreamedUpload.class.getName(),
                t.name(),
                "200",
                Integer.toString(16 << 20))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String line;
    try (BufferedReader out = p.inputReader(StandardCharsets.US_ASCII)) {
      line = out.readLine();
    }
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    System.out.printf(
        "%s: 200 MiB streamed upload in %d ms: %s%n",
        t, (System.nanoTime() - start) / 1_000_000, line);
    assertThat(line).startsWith("OK " + (200L << 20) + " ");
    assertThat(p.exitValue()).isZero();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aLargeTopicMessageGoesOutInFramesOfTheOutboundSize(Transport t) throws Exception {
    Topics topics = Topics.builder().build();
    try {
      server =
          WebSocketServer.builder()
              .bind("127.0.0.1", 0)
              .config(WebSocketConfig.builder().transport(t).eventLoops(1).deflate(null).build())
              .websocket(
                  "/feed",
                  new WebSocketListener() {
                    @Override
                    public void onOpen(WebSocket ws) {
                      topics.subscribe(ws, "feed");
                      ws.sendText("subscribed");
                    }
                  },
                  cfg -> cfg.maxOutboundFramePayload(FRAME))
              .start();
      // The client refuses frames over FRAME (1009): the topic's must be cut to the route's size.
      client =
          WebSocketClient.builder()
              .config(
                  WebSocketConfig.builder().transport(t).maxFramePayload(FRAME).maxMessageSize(8 << 20).build())
              .build();
      WebSocket ws =
          client.connect(URI.create("ws://127.0.0.1:" + server.port() + "/feed")).get(10, TimeUnit.SECONDS);
      assertThat(answer(ws)).isEqualTo("subscribed");
      byte[] big = random(3 << 20, 6);
      topics.publishBinary("feed", ByteBuffer.wrap(big));
      Message m = ws.receive(Duration.ofSeconds(20));
      assertThat(m).isInstanceOf(Message.Binary.class);
      assertThat(sum(((Message.Binary) m).data())).isEqualTo(sum(ByteBuffer.wrap(big)));
      assertThat(server.stats().bytesOut()).isEqualTo(big.length + "subscribed".length());
    } finally {
      topics.close();
    }
  }
}
