package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.Deflater;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 35: CPU-heavy peers do not starve the others. Sixteen peers send decompression bombs
 * (64 MiB of zeros in one compressed frame, cut at the 16 MiB message limit with 1009) over and
 * over, reconnecting each time, while an honest client runs 1 KiB echoes one after the other. Its
 * echo latency is printed (p50, p99, max); the goal is p99 under 100 ms, the assertion a
 * generous 3 s so that a loaded machine passes.
 */
class BombFairnessTest {
  static final int BOMBERS = 16;
  static final Duration RUN = Duration.ofSeconds(3);

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void anHonestClientsEchoesKeepFlowingWhileBombsAreInflated(Transport transport) throws Exception {
    byte[] bomb = bomb(64);
    WebSocketServer server = WebSocketServer.builder()
        .bind("127.0.0.1", 0)
        .config(WebSocketConfig.builder().transport(transport).eventLoops(2).build())
        .websocket("/echo", new WebSocketListener() {
          @Override
          public void onBinary(WebSocket ws, java.nio.ByteBuffer data) {
            ws.sendBinary(data);
          }
        })
        .start();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger cut = new AtomicInteger();
    List<Thread> bombers = new ArrayList<>();
    List<Long> micros = new ArrayList<>();
    try (WebSocketClient client = WebSocketClient.builder()
        .config(WebSocketConfig.builder().deflate(null).build()).build()) {
      WebSocket honest = client.open(URI.create("ws://127.0.0.1:" + server.port() + "/echo"));
      for (int i = 0; i < BOMBERS; i++) {
        bombers.add(Thread.ofVirtual().start(() -> {
          while (!stop.get()) {
            if (bombOnce(server.port(), bomb) == 1009) {
              cut.incrementAndGet();
            }
          }
        }));
      }
      byte[] payload = new byte[1024];
      long end = System.nanoTime() + RUN.toNanos();
      while (System.nanoTime() < end || cut.get() < BOMBERS) {
        assertThat(System.nanoTime() - end).as("bombs cut in time").isLessThan(TimeUnit.SECONDS.toNanos(30));
        long t0 = System.nanoTime();
        honest.sendBinary(payload);
        Message m = honest.receive(Duration.ofSeconds(10));
        assertThat(m).isInstanceOf(Message.Binary.class);
        micros.add((System.nanoTime() - t0) / 1000);
      }
      honest.close();
    } finally {
      stop.set(true);
      for (Thread t : bombers) {
        t.join(10_000);
      }
      server.close();
    }
    Collections.sort(micros);
    long p50 = micros.get(micros.size() / 2);
    long p99 = micros.get((int) Math.min(micros.size() - 1, micros.size() * 0.99));
    long max = micros.get(micros.size() - 1);
    System.out.printf("[%s] %d bombs cut at 16 MiB by %d peers; honest 1 KiB echoes: %d, p50 %.1f ms,"
        + " p99 %.1f ms, max %.1f ms%n", transport, cut.get(), BOMBERS, micros.size(), p50 / 1000.0,
        p99 / 1000.0, max / 1000.0);
    assertThat(cut.get()).as("bombs cut with 1009").isGreaterThanOrEqualTo(BOMBERS);
    // The goal is 100 ms. On the shared two-core machine of 5 December (load average 20-50)
    // this run measured p99 1.0 s (NIO) and 2.2 s (blocking) with the slices, 1.9-2.4 s and
    // 4.2-8.7 s without. Blocking, at load 11-28: p99 0.5-2.7 s when a costly connection gave way
    // with parkNanos(1) alone, 0.7-3.0 s with Thread.yield(), 10-24 ms with CostlySlices' fair
    // turns (5-101 echoes in the 3 s before, 638-4,935 after). The bound is MemoryAttackTest's,
    // generous enough for such a machine.
    assertThat(p99).as("honest echo p99 in µs (the goal is 100 ms)").isLessThan(3_000_000);
  }

  /** Connects, sends one bomb, and returns the close code the server answers (or -1). */
  private static int bombOnce(int port, byte[] bomb) {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(30_000);
      OutputStream out = s.getOutputStream();
      out.write(("GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
          + "Sec-WebSocket-Extensions: permessage-deflate\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      InputStream in = s.getInputStream();
      StringBuilder head = new StringBuilder();
      while (!head.toString().endsWith("\r\n\r\n")) {
        int b = in.read();
        if (b < 0) {
          return -1;
        }
        head.append((char) b);
      }
      if (!head.toString().contains("permessage-deflate")) {
        return -1;
      }
      ByteArrayOutputStream frame = new ByteArrayOutputStream();
      frame.write(0x80 | 0x40 | 0x2); // FIN, RSV1 (compressed), binary
      frame.write(0x80 | 127);
      for (int i = 7; i >= 0; i--) {
        frame.write((int) ((long) bomb.length >>> (8 * i)));
      }
      frame.write(new byte[4]); // the zero mask
      frame.write(bomb);
      out.write(frame.toByteArray());
      out.flush();
      DataInputStream data = new DataInputStream(in);
      while (true) { // frames until the close
        int b0 = data.readUnsignedByte();
        int len = data.readUnsignedByte() & 0x7f;
        long n = len == 126 ? data.readUnsignedShort() : len == 127 ? data.readLong() : len;
        byte[] payload = new byte[(int) n];
        data.readFully(payload);
        if ((b0 & 0x0f) == 0x8) {
          return payload.length >= 2 ? (payload[0] & 0xff) << 8 | (payload[1] & 0xff) : 1005;
        }
      }
    } catch (Exception e) {
      return -1;
    }
  }

  /** {@code mib} MiB of zeros, deflated without the final flush's trailer (RFC 7692 §7.2.1). */
  static byte[] bomb(int mib) {
    Deflater d = new Deflater(Deflater.BEST_COMPRESSION, true);
    byte[] zeros = new byte[1 << 20];
    byte[] buf = new byte[64 * 1024];
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < mib; i++) {
      d.setInput(zeros);
      while (!d.needsInput()) {
        out.write(buf, 0, d.deflate(buf));
      }
    }
    for (int n; (n = d.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH)) > 0; ) {
      out.write(buf, 0, n);
      if (n < buf.length) {
        break;
      }
    }
    d.end();
    byte[] all = out.toByteArray();
    return Arrays.copyOf(all, all.length - 4); // drop 00 00 ff ff
  }
}
