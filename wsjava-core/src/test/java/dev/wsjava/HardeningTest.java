package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.Deflater;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Hostile peers on loopback, each case over both transports (ws): every limit in DESIGN.md
 * "Errors and limits" holds, memory and threads stay bounded, and afterwards the same server still
 * serves a fresh client (open, echo, close). The peers are raw sockets, so they can break the rules
 * our own client never breaks.
 */
class HardeningTest {
  WebSocketServer server;
  final AtomicLong maxQueuedAtPing = new AtomicLong();

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.shutdown(Duration.ofSeconds(2));
    }
  }

  WebSocketConfig.Builder base(Transport t) {
    return WebSocketConfig.builder().transport(t).eventLoops(1);
  }

  void start(WebSocketConfig config) throws IOException {
    server = WebSocketServer.builder().bind("127.0.0.1", 0).config(config)
        .websocket("/echo", new WebSocketListener() {
          @Override
          public void onText(WebSocket ws, String text) {
            ws.sendText(text);
          }

          @Override
          public void onPing(WebSocket ws, ByteBuffer data) {
            maxQueuedAtPing.accumulateAndGet(ws.queuedBytes(), Math::max);
          }
        })
        .start();
  }

  /** Opens a fresh client, echoes one message and closes: the server still serves. */
  void assertStillServes(Transport t) throws Exception {
    try (WebSocketClient client = WebSocketClient.builder().config(base(t).build()).build()) {
      WebSocket ws = client.open(URI.create("ws://127.0.0.1:" + server.port() + "/echo"));
      ws.sendText("still here").get(5, TimeUnit.SECONDS);
      assertThat(ws.receive(Duration.ofSeconds(5))).isEqualTo(new Message.Text("still here"));
      ws.close(1000, "bye").get(5, TimeUnit.SECONDS);
    }
    awaitNoConnections(Duration.ofSeconds(5));
  }

  void awaitNoConnections(Duration limit) throws InterruptedException {
    Await.until("no connection left open", limit, () -> server.openTcpConnections() == 0);
  }

  // ---------------------------------------------------------------------------------------------
  // Raw peer helpers

  Socket connect() throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
    s.setSoTimeout(10_000);
    return s;
  }

  /** Sends an upgrade request and returns the response head. */
  static String upgrade(Socket s, String extraHeaders) throws IOException {
    byte[] key = new byte[16];
    ThreadLocalRandom.current().nextBytes(key);
    String request = "GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: "
        + Base64.getEncoder().encodeToString(key) + "\r\n" + extraHeaders + "\r\n";
    s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
    s.getOutputStream().flush();
    return readHead(s.getInputStream());
  }

  static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        break;
      }
      head.write(b);
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  /** Writes one masked frame (a client's). */
  static void frame(OutputStream out, boolean fin, int rsv, int opcode, byte[] payload, int len)
      throws IOException {
    out.write((fin ? 0x80 : 0) | (rsv << 4) | opcode);
    if (len < 126) {
      out.write(0x80 | len);
    } else if (len < 65536) {
      out.write(0x80 | 126);
      out.write(len >>> 8);
      out.write(len);
    } else {
      out.write(0x80 | 127);
      for (int i = 7; i >= 0; i--) {
        out.write((int) ((long) len >>> (8 * i)));
      }
    }
    byte[] mask = {1, 2, 3, 4};
    out.write(mask);
    byte[] masked = new byte[len];
    for (int i = 0; i < len; i++) {
      masked[i] = (byte) (payload[i] ^ mask[i & 3]);
    }
    out.write(masked);
  }

  record Frame(int opcode, byte[] payload) {
    int closeCode() {
      assertThat(opcode).as("a close frame").isEqualTo(8);
      return ((payload[0] & 0xff) << 8) | (payload[1] & 0xff);
    }
  }

  /** Reads one unmasked frame (a server's). */
  static Frame readFrame(InputStream raw) throws IOException {
    DataInputStream in = new DataInputStream(raw);
    int b0 = in.readUnsignedByte();
    int b1 = in.readUnsignedByte();
    long len = b1 & 0x7f;
    if (len == 126) {
      len = in.readUnsignedShort();
    } else if (len == 127) {
      len = in.readLong();
    }
    assertThat(b1 & 0x80).as("server frames are unmasked").isZero();
    assertThat(len).as("frame length").isLessThan(1 << 20);
    byte[] payload = new byte[(int) len];
    in.readFully(payload);
    return new Frame(b0 & 0x0f, payload);
  }

  /** Reads frames until a close; skips pongs and data. */
  static Frame readUntilClose(InputStream in) throws IOException {
    while (true) {
      Frame f = readFrame(in);
      if (f.opcode() == 8) {
        return f;
      }
    }
  }

  static boolean endsSoon(InputStream in) {
    try {
      byte[] sink = new byte[8192];
      while (in.read(sink) >= 0) {
        // drain
      }
      return true;
    } catch (IOException e) {
      return !(e instanceof java.net.SocketTimeoutException); // a reset also ends it
    }
  }

  static void report(Transport t, String line) {
    System.out.println("[hardening " + t + "] " + line);
  }

  static long ms(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  static long usedHeap() {
    Runtime r = Runtime.getRuntime();
    return r.totalMemory() - r.freeMemory();
  }

  static long settledHeap() throws InterruptedException {
    System.gc();
    Thread.sleep(50);
    return usedHeap();
  }

  /** Samples the heap in the background and remembers the highest use. */
  static final class HeapWatch {
    final AtomicLong peak = new AtomicLong(usedHeap());
    final Thread sampler;
    volatile boolean running = true;

    HeapWatch() {
      sampler = Thread.ofPlatform().daemon().start(() -> {
        while (running) {
          peak.accumulateAndGet(usedHeap(), Math::max);
          try {
            Thread.sleep(2);
          } catch (InterruptedException e) {
            return;
          }
        }
      });
    }

    /** Stops sampling and returns the highest use seen. */
    long stop() {
      running = false;
      try {
        sampler.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return peak.get();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 1. Decompression bomb

  /**
   * Every byte the JVM's threads have allocated on the heap so far, dead threads included; a
   * virtual thread's allocations count on its carrier, so both transports are covered.
   */
  static long allocatedSoFar() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getTotalThreadAllocatedBytes();
  }

  /**
   * A bomb costs the server what assembling one message of the limit costs when its array doubles
   * on the way there (2x the limit), plus the compressed frame held once, plus 64 KiB for the rest
   * (buffers, the test's own reads). Allocation is counted, not the heap sampled, so no garbage
   * collection can hide a server that inflates past its limit. The first bomb is not counted:
   * loading classes and compiling code allocate once per JVM, not once per peer.
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aDecompressionBombIsClosedWith1009WithoutInflatingIt(Transport t) throws Exception {
    long limit = 1 << 20;
    start(base(t).maxMessageSize(limit).build());
    long inflated = 256L << 20; // 256 MiB of zeros
    byte[] bomb = deflateZeros(inflated);
    assertThat(bomb.length).as("the bomb is small").isLessThan(1 << 20);
    ByteArrayOutputStream wire = new ByteArrayOutputStream(bomb.length + 14);
    frame(wire, true, 4, 2, bomb, bomb.length); // RSV1: compressed
    byte[] bombFrame = wire.toByteArray();
    int threadsBefore = Thread.activeCount();
    long started = System.nanoTime();
    long first = allocatedBySendingBomb(bombFrame);
    long allocated = allocatedBySendingBomb(bombFrame);
    report(t, "bomb: " + bomb.length + " B inflating to " + (inflated >> 20) + " MiB closed 1009"
        + " twice in " + ms(started) + " ms; heap allocated meanwhile " + (first >> 10)
        + " KiB the first time, then " + (allocated >> 10) + " KiB ("
        + String.format("%.2f", (double) allocated / limit) + "x the limit)");
    assertThat(allocated)
        .as("heap allocated while the server took a bomb, limit " + limit + " B")
        .isLessThanOrEqualTo(2 * limit + bomb.length + (64 << 10));
    assertThat((System.nanoTime() - started) / 1e9).isLessThan(5.0);
    awaitNoConnections(Duration.ofSeconds(5));
    assertThat(Thread.activeCount()).isLessThanOrEqualTo(threadsBefore + 4);
    assertStillServes(t);
  }

  /** Sends the bomb on a fresh connection, expects 1009 and the end, returns the bytes allocated. */
  long allocatedBySendingBomb(byte[] bombFrame) throws Exception {
    try (Socket s = connect()) {
      String head = upgrade(s, "Sec-WebSocket-Extensions: permessage-deflate\r\n");
      assertThat(head).startsWith("HTTP/1.1 101").containsIgnoringCase("permessage-deflate");
      OutputStream out = s.getOutputStream();
      long before = allocatedSoFar();
      Thread writer = Thread.ofVirtual().start(() -> {
        try {
          out.write(bombFrame);
          out.flush();
        } catch (IOException e) {
          // the server may close before it read the whole frame
        }
      });
      Frame close = readUntilClose(s.getInputStream());
      assertThat(close.closeCode()).isEqualTo(1009);
      assertThat(endsSoon(s.getInputStream())).isTrue();
      writer.join(Duration.ofSeconds(5));
      return allocatedSoFar() - before;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 2. Many connections that never finish the handshake

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void tenThousandUnfinishedHandshakesAreAllCutOff(Transport t) throws Exception {
    int count = 10_000;
    Duration timeout = Duration.ofSeconds(3);
    start(base(t).handshakeTimeout(timeout).build());
    int threadsBefore = Thread.activeCount();
    long heapBefore = settledHeap();
    // The peers live in another process: one process may hold only 20,000 descriptors here.
    Process peers = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", Path.of(HalfOpenPeers.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .toString(),
        HalfOpenPeers.class.getName(), "127.0.0.1", String.valueOf(server.port()), String.valueOf(count), "60")
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    try (BufferedReader out = peers.inputReader(StandardCharsets.US_ASCII)) {
      String[] open = expectLine(out, "OPEN");
      int peakOpen = server.openTcpConnections();
      long heapOpen = settledHeap() - heapBefore;
      int threadsOpen = Thread.activeCount();
      String[] ended = expectLine(out, "ENDED");
      long opened = Long.parseLong(open[2]);
      long allEnded = Long.parseLong(ended[2]);
      assertThat(Integer.parseInt(ended[1])).as("connections cut off").isEqualTo(count);
      assertThat(allEnded).as("all cut off soon after the last one's timeout")
          .isLessThan(opened + timeout.toMillis() + 10_000);
      assertThat(heapOpen).as("heap held by " + peakOpen + " half-open handshakes").isLessThan(256L << 20);
      assertThat(threadsOpen).as("platform threads while they are open").isLessThanOrEqualTo(threadsBefore + 8);
      awaitNoConnections(Duration.ofSeconds(10));
      report(t, count + " unfinished handshakes from another process: opened in " + opened + " ms ("
          + peakOpen + " open on the server just after), all cut off by " + allEnded + " ms; heap while open +"
          + (heapOpen >> 20) + " MiB (" + (heapOpen / Math.max(1, peakOpen)) + " B each); platform threads "
          + threadsBefore + " -> " + threadsOpen);
    } finally {
      peers.destroyForcibly();
      peers.waitFor(10, TimeUnit.SECONDS);
    }
    assertThat(Thread.activeCount()).isLessThanOrEqualTo(threadsBefore + 4);
    assertStillServes(t);
  }

  /** Reads the peer process's next line, which must start with {@code word}, within a minute. */
  static String[] expectLine(BufferedReader out, String word) throws Exception {
    String line = CompletableFuture.supplyAsync(() -> {
      try {
        return out.readLine();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }).get(90, TimeUnit.SECONDS);
    assertThat(line).as("peer process output").isNotNull().startsWith(word + " ");
    return line.split(" ");
  }

  // ---------------------------------------------------------------------------------------------
  // 3. Slowloris and an oversized head

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void slowlorisClientsAreCutOffAtTheHandshakeTimeout(Transport t) throws Exception {
    int count = 50;
    start(base(t).handshakeTimeout(Duration.ofMillis(1000)).build());
    int threadsBefore = Thread.activeCount();
    byte[] request = ("GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    List<Socket> sockets = new ArrayList<>();
    long started = System.nanoTime();
    try {
      for (int i = 0; i < count; i++) {
        sockets.add(connect());
      }
      boolean[] cut = new boolean[count];
      int cutCount = 0;
      // One byte per socket every 100 ms: a full request would take ~15 s.
      for (int round = 0; round < request.length && cutCount < count; round++) {
        for (int i = 0; i < count; i++) {
          if (cut[i]) {
            continue;
          }
          try {
            sockets.get(i).getOutputStream().write(request[round]);
            if (sockets.get(i).getInputStream().available() > 0) {
              cut[i] = true; // a 408 answer arrived
              cutCount++;
            }
          } catch (IOException e) {
            cut[i] = true;
            cutCount++;
          }
        }
        Thread.sleep(100);
        if (ms(started) > 6_000) {
          break;
        }
      }
      for (Socket s : sockets) {
        assertThat(endsSoon(s.getInputStream())).isTrue();
      }
      long elapsed = ms(started);
      assertThat(elapsed).as("all " + count + " cut off after the 1 s handshake timeout").isLessThan(4_000);
      report(t, count + " slowloris clients cut off by " + elapsed + " ms");
    } finally {
      for (Socket s : sockets) {
        s.close();
      }
    }
    awaitNoConnections(Duration.ofSeconds(5));
    assertThat(Thread.activeCount()).isLessThanOrEqualTo(threadsBefore + 4);
    assertStillServes(t);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aHeadLargerThanTheLimitIsRefusedWith431(Transport t) throws Exception {
    start(base(t).build());
    try (Socket s = connect()) {
      String head = upgrade(s, "X-Filler: " + "a".repeat(16 * 1024) + "\r\n");
      assertThat(head).as("status line").matches("(?s)HTTP/1\\.1 (431|400) .*");
      report(t, "16 KiB header: " + head.substring(0, head.indexOf('\r')));
      assertThat(endsSoon(s.getInputStream())).isTrue();
    }
    try (Socket s = connect()) { // many small header fields past the count limit
      StringBuilder fields = new StringBuilder();
      for (int i = 0; i < 200; i++) {
        fields.append("X-F").append(i).append(": v\r\n");
      }
      String head = upgrade(s, fields.toString());
      assertThat(head).as("status line").matches("(?s)HTTP/1\\.1 (431|400) .*");
      assertThat(endsSoon(s.getInputStream())).isTrue();
    }
    awaitNoConnections(Duration.ofSeconds(5));
    assertStillServes(t);
  }

  // ---------------------------------------------------------------------------------------------
  // 4. Frame-level abuse

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aPeerThatOpensALargeFrameAndStopsSendingIsClosedAfterOneProgressWindow(Transport t)
      throws Exception {
    start(base(t).minProgress(64 * 1024, Duration.ofSeconds(1)).build());
    long started = System.nanoTime();
    try (Socket s = connect()) {
      assertThat(upgrade(s, "")).startsWith("HTTP/1.1 101");
      OutputStream out = s.getOutputStream();
      announceSixteenMebibytes(out);
      out.write(new byte[100]); // and then hardly anything
      out.flush();
      Frame close = readUntilClose(s.getInputStream());
      assertThat(close.closeCode()).isEqualTo(1008);
      assertThat(new String(close.payload(), 2, close.payload().length - 2, StandardCharsets.UTF_8))
          .startsWith("too slow");
    }
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(8));
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aPeerThatTricklesUntilJustBeforeTheWindowEndsIsClosedWhenItEnds(Transport t)
      throws Exception {
    // Bytes come every 100 ms for 3.6 s of a 4 s window, then none: no read ever waits long
    // while they come, and the rule must still close the connection when the window ends, not a
    // whole window after the last byte (7.6 s), as a read timeout restarted by every read would.
    start(base(t).minProgress(64 * 1024, Duration.ofSeconds(4)).build());
    try (Socket s = connect()) {
      assertThat(upgrade(s, "")).startsWith("HTTP/1.1 101");
      OutputStream out = s.getOutputStream();
      long started = System.nanoTime();
      announceSixteenMebibytes(out);
      out.flush();
      Thread trickle = Thread.ofVirtual().start(() -> {
        try {
          while (System.nanoTime() - started < 3_600_000_000L) {
            out.write(0);
            out.flush();
            Thread.sleep(100); // the attack's pace, not a wait for an outcome
          }
        } catch (IOException | InterruptedException e) {
          // closed by the server: the trickle ends
        }
      });
      Frame close = readUntilClose(s.getInputStream());
      long took = System.nanoTime() - started;
      trickle.interrupt();
      assertThat(close.closeCode()).isEqualTo(1008);
      assertThat(new String(close.payload(), 2, close.payload().length - 2, StandardCharsets.UTF_8))
          .startsWith("too slow");
      assertThat(Duration.ofNanos(took)).isLessThan(Duration.ofMillis(6_500));
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aHundredThousandOneByteFragmentsHitAnOptInFragmentCap(Transport t) throws Exception {
    // The defaults accept any fragmentation within the size limit (a message costs its bytes);
    // a cap on frames per message is an opt-in.
    start(base(t).maxFragments(65_536).build());
    int fragments = 100_000;
    long heapBefore = settledHeap();
    HeapWatch heap = new HeapWatch();
    long started = System.nanoTime();
    try (Socket s = connect()) {
      assertThat(upgrade(s, "")).startsWith("HTTP/1.1 101");
      OutputStream out = new BufferedOutputStream(s.getOutputStream(), 64 * 1024);
      byte[] one = {'a'};
      Thread writer = Thread.ofVirtual().start(() -> {
        try {
          for (int i = 0; i < fragments; i++) {
            frame(out, i == fragments - 1, 0, i == 0 ? 1 : 0, one, 1);
          }
          out.flush();
        } catch (IOException e) {
          // the server closed after the limit
        }
      });
      Frame close = readUntilClose(s.getInputStream());
      assertThat(close.closeCode()).as("the cap refuses it: 100,000 > 65,536 fragments").isEqualTo(1009);
      assertThat(endsSoon(s.getInputStream())).isTrue();
      writer.join(Duration.ofSeconds(10));
      long growth = heap.stop() - heapBefore;
      assertThat(growth).as("heap growth").isLessThan(64L << 20);
      report(t, fragments + " one-byte fragments: 1009 after " + ms(started) + " ms, peak heap growth "
          + (growth >> 20) + " MiB");
    } finally {
      heap.stop();
    }
    awaitNoConnections(Duration.ofSeconds(5));
    assertStillServes(t);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aPingFloodFromAPeerThatNeverReadsDoesNotQueueUnboundedPongs(Transport t) throws Exception {
    start(base(t).build());
    int pings = 100_000;
    byte[] payload = new byte[125];
    long started = System.nanoTime();
    try (Socket s = new Socket()) {
      s.setReceiveBufferSize(4096); // before connect: a small window, so pongs back up at the server
      s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
      s.setSoTimeout(10_000);
      assertThat(upgrade(s, "")).startsWith("HTTP/1.1 101");
      OutputStream out = new BufferedOutputStream(s.getOutputStream(), 64 * 1024);
      Thread writer = Thread.ofVirtual().start(() -> {
        try {
          for (int i = 0; i < pings; i++) {
            payload[0] = (byte) i;
            frame(out, true, 0, 9, payload, payload.length);
          }
          out.flush();
        } catch (IOException e) {
          // the join below reports it
        }
      });
      // The server may stop reading (TCP backpressure) rather than queue: then the writer blocks.
      boolean floodDone = writer.join(Duration.ofSeconds(5));
      long flooded = ms(started);
      long maxQueued = maxQueuedAtPing.get();
      report(t, "flood of " + pings + " pings (" + (pings * 131L >> 20) + " MiB) without reading: "
          + (floodDone ? "all sent in " : "writer blocked by TCP backpressure after ") + flooded
          + " ms; largest server queue at a ping " + maxQueued + " B");
      assertThat(maxQueued).as("bytes the server queued for a peer that does not read its pongs")
          .isLessThan(256 * 1024);
      // Now read: the pongs, then the answer to our close once the flood is through.
      int[] pongs = {0};
      java.util.concurrent.CompletableFuture<Frame> closeAnswer = new java.util.concurrent.CompletableFuture<>();
      Thread reader = Thread.ofVirtual().start(() -> {
        try {
          Frame f;
          while ((f = readFrame(s.getInputStream())).opcode() == 10) {
            pongs[0]++;
          }
          closeAnswer.complete(f);
        } catch (IOException | RuntimeException e) {
          closeAnswer.completeExceptionally(e);
        }
      });
      assertThat(writer.join(Duration.ofSeconds(30))).as("the flood got through once read").isTrue();
      frame(s.getOutputStream(), true, 0, 8, new byte[] {0x03, (byte) 0xe8}, 2);
      s.getOutputStream().flush();
      assertThat(closeAnswer.get(10, TimeUnit.SECONDS).closeCode()).isEqualTo(1000);
      reader.join(Duration.ofSeconds(1));
      assertThat(pongs[0]).as("pongs received").isBetween(1, pings);
      assertThat(maxQueuedAtPing.get()).as("largest queue over the whole flood").isLessThan(256 * 1024);
      report(t, "then read " + pongs[0] + " pongs and the close, " + ms(started) + " ms in all");
    }
    awaitNoConnections(Duration.ofSeconds(5));
    assertStillServes(t);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void garbageAfterACloseIsIgnoredAndTheCloseAnswered(Transport t) throws Exception {
    start(base(t).build());
    try (Socket s = connect()) {
      assertThat(upgrade(s, "")).startsWith("HTTP/1.1 101");
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      frame(bytes, true, 0, 8, new byte[] {0x03, (byte) 0xe8, 'o', 'k'}, 4);
      byte[] garbage = new byte[4096];
      ThreadLocalRandom.current().nextBytes(garbage);
      bytes.write(garbage); // in the same write as the close
      s.getOutputStream().write(bytes.toByteArray());
      s.getOutputStream().flush();
      try {
        s.getOutputStream().write(garbage); // and after it
      } catch (IOException e) {
        // the server may already have closed
      }
      Frame close = readFrame(s.getInputStream());
      assertThat(close.closeCode()).as("the close answered with its code, not a failure").isEqualTo(1000);
      assertThat(endsSoon(s.getInputStream())).isTrue();
    }
    awaitNoConnections(Duration.ofSeconds(5));
    assertStillServes(t);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aFrameClaimingAHugeLengthIsRefusedBeforeAnyAllocation(Transport t) throws Exception {
    start(base(t).build());
    long heapBefore = settledHeap();
    // 2^63-1: a legal encoding past maxFramePayload -> 1009; 2^64-1: the top bit set -> 1002.
    long[][] cases = {{Long.MAX_VALUE, 1009}, {-1L, 1002}};
    for (long[] c : cases) {
      try (Socket s = connect()) {
        assertThat(upgrade(s, "")).startsWith("HTTP/1.1 101");
        ByteBuffer header = ByteBuffer.allocate(14).put((byte) 0x82).put((byte) 0xff)
            .putLong(c[0]).put(new byte[] {1, 2, 3, 4});
        s.getOutputStream().write(header.array());
        s.getOutputStream().write(new byte[1024]);
        s.getOutputStream().flush();
        Frame close = readFrame(s.getInputStream());
        assertThat(close.closeCode()).as("length " + Long.toUnsignedString(c[0])).isEqualTo((int) c[1]);
        assertThat(endsSoon(s.getInputStream())).isTrue();
      }
    }
    assertThat(settledHeap() - heapBefore).isLessThan(32L << 20);
    awaitNoConnections(Duration.ofSeconds(5));
    assertStillServes(t);
  }

  /** Raw DEFLATE (RFC 7692 §7.2.1) of {@code n} zero bytes, with the final 00 00 ff ff removed. */
  static byte[] deflateZeros(long n) {
    Deflater d = new Deflater(Deflater.BEST_COMPRESSION, true);
    byte[] zeros = new byte[1 << 20];
    byte[] buf = new byte[64 * 1024];
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (long done = 0; done < n; done += zeros.length) {
      d.setInput(zeros);
      while (!d.needsInput()) {
        int k = d.deflate(buf, 0, buf.length, Deflater.NO_FLUSH);
        out.write(buf, 0, k);
      }
    }
    int k;
    while ((k = d.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH)) > 0) {
      out.write(buf, 0, k);
      if (k < buf.length) {
        break;
      }
    }
    d.end();
    byte[] all = out.toByteArray();
    return java.util.Arrays.copyOf(all, all.length - 4);
  }

  /** Writes the header of a final, masked binary frame announcing 16 MiB of payload. */
  private static void announceSixteenMebibytes(OutputStream out) throws IOException {
    out.write(0x82);
    out.write(0x80 | 127);
    for (int i = 7; i >= 0; i--) {
      out.write((int) ((16L << 20) >>> (8 * i)));
    }
    out.write(new byte[] {1, 2, 3, 4}); // the mask
  }
}
