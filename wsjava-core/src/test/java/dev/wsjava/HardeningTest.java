package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
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
    long deadline = System.nanoTime() + limit.toNanos();
    while (server.openConnections() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(server.openConnections()).as("open connections").isZero();
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

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void aDecompressionBombIsClosedWith1009WithoutInflatingIt(Transport t) throws Exception {
    long limit = 1 << 20;
    start(base(t).limits(dev.wsjava.protocol.Limits.DEFAULTS.withMaxMessageSize(limit)).build());
    long inflated = 256L << 20; // 256 MiB of zeros
    byte[] bomb = deflateZeros(inflated);
    assertThat(bomb.length).as("the bomb is small").isLessThan(1 << 20);
    int threadsBefore = Thread.activeCount();
    long heapBefore = settledHeap();
    long started = System.nanoTime();
    HeapWatch heap = new HeapWatch();
    try (Socket s = connect()) {
      String head = upgrade(s, "Sec-WebSocket-Extensions: permessage-deflate\r\n");
      assertThat(head).startsWith("HTTP/1.1 101").containsIgnoringCase("permessage-deflate");
      OutputStream out = new BufferedOutputStream(s.getOutputStream());
      Thread writer = Thread.ofVirtual().start(() -> {
        try {
          frame(out, true, 4, 2, bomb, bomb.length); // RSV1: compressed
          out.flush();
        } catch (IOException e) {
          // the server may close before it read the whole frame
        }
      });
      Frame close = readUntilClose(s.getInputStream());
      assertThat(close.closeCode()).isEqualTo(1009);
      assertThat(endsSoon(s.getInputStream())).isTrue();
      writer.join(Duration.ofSeconds(5));
      long growth = heap.stop() - heapBefore;
      assertThat(growth).as("server heap growth while inflating").isLessThan(inflated / 4);
      report(t, "bomb: " + bomb.length + " B inflating to " + (inflated >> 20) + " MiB closed 1009 in "
          + ms(started) + " ms, peak heap growth " + (growth >> 20) + " MiB");
    } finally {
      heap.stop();
    }
    assertThat((System.nanoTime() - started) / 1e9).isLessThan(5.0);
    awaitNoConnections(Duration.ofSeconds(5));
    assertThat(Thread.activeCount()).isLessThanOrEqualTo(threadsBefore + 4);
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
}
