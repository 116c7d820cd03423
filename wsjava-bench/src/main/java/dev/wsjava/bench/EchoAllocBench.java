package dev.wsjava.bench;

import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What a small-message echo allocates on the NIO server, per message, in steady state (issue 39):
 * a wsjava NIO server (one event loop, the suite's echo listener: {@code sendText} of the text,
 * {@code sendBinary} of the buffer) and, in the same JVM, a raw client on a blocking socket that
 * writes {@value #BATCH} prebuilt masked frames at once and reads the echoes back, counting frames
 * (it allocates nothing itself). One operation is one message.
 *
 * <p>Two figures: JMH's {@code -prof gc} {@code gc.alloc.rate.norm} (every thread of the JVM, per
 * message), and the server's event loop threads' own allocation per message, printed after each iteration
 * as {@code loop threads: N B/message} (read from {@code ThreadMXBean}, exact). Run: {@code ./bench
 * alloc}, which runs {@code java -cp wsjava-bench/target/benchmarks.jar org.openjdk.jmh.Main
 * EchoAllocBench -f 1 -wi 3 -w 2 -i 3 -r 2 -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EchoAllocBench {
  /** Messages written per operation batch. */
  static final int BATCH = 64;

  /** {@code binary} or {@code text} messages. */
  @Param({"binary", "text"})
  String kind;

  /** Whether permessage-deflate is negotiated (the client sends without context takeover). */
  @Param({"false", "true"})
  boolean deflate;

  /** Payload bytes of each message (ASCII). */
  @Param({"300"})
  int size;

  WebSocketServer server;
  SocketChannel client;
  ByteBuffer batch; // BATCH masked frames, written whole at each operation
  final ByteBuffer in = ByteBuffer.allocateDirect(256 * 1024);
  Thread[] loops; // the server's event loop threads
  long loopAllocatedAt;
  long messages;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    WebSocketConfig.Builder cfg = WebSocketConfig.builder().transport(Transport.NIO).eventLoops(1);
    if (!deflate) {
      cfg.deflate(null);
    }
    server =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(cfg.build())
            .websocket("/echo", new WebSocketListener() { // as bench-peers' WsjavaEchoServer
              @Override
              public void onText(WebSocket ws, String text) {
                ws.sendText(text);
              }

              @Override
              public void onBinary(WebSocket ws, ByteBuffer data) {
                ws.sendBinary(data);
              }
            })
            .start();
    client = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()));
    client.socket().setTcpNoDelay(true);
    handshake();
    batch = ByteBuffer.allocateDirect(BATCH * (size + 64));
    byte[] frame = frame();
    for (int i = 0; i < BATCH; i++) {
      batch.put(frame);
    }
    batch.flip();
    loops =
        Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith("wsjava-nio-"))
            .toArray(Thread[]::new);
  }

  private void handshake() throws IOException {
    String request =
        "GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + (deflate
                ? "Sec-WebSocket-Extensions: permessage-deflate; client_no_context_takeover\r\n"
                : "")
            + "\r\n";
    client.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)));
    ByteBuffer head = ByteBuffer.allocate(4096);
    while (true) {
      if (client.read(head) < 0) {
        throw new IOException("the server closed during the handshake");
      }
      String s = new String(head.array(), 0, head.position(), StandardCharsets.ISO_8859_1);
      int end = s.indexOf("\r\n\r\n");
      if (end >= 0) {
        if (!s.startsWith("HTTP/1.1 101")) {
          throw new IOException("not upgraded: " + s);
        }
        if (deflate != s.toLowerCase(Locale.ROOT).contains("permessage-deflate")) {
          throw new IOException("deflate not as asked: " + s);
        }
        in.put(head.array(), end + 4, head.position() - end - 4);
        return;
      }
    }
  }

  /** One masked client frame: text or binary, compressed with a fresh deflater when asked. */
  private byte[] frame() {
    byte[] payload = new byte[size];
    for (int i = 0; i < size; i++) {
      payload[i] = (byte) ('a' + (i * 7 + i / 13) % 26);
    }
    int b0 = 0x80 | (kind.equals("text") ? 1 : 2);
    if (deflate) {
      Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
      d.setInput(payload);
      byte[] out = new byte[size + 64];
      int n = d.deflate(out, 0, out.length, Deflater.SYNC_FLUSH);
      d.end();
      payload = Arrays.copyOf(out, n - 4); // RFC 7692 §7.2.1: without the 00 00 ff ff tail
      b0 |= 0x40;
    }
    int n = payload.length;
    ByteBuffer f = ByteBuffer.allocate(n + 8);
    f.put((byte) b0);
    if (n < 126) {
      f.put((byte) (0x80 | n));
    } else {
      f.put((byte) (0x80 | 126)).putShort((short) n);
    }
    byte[] mask = {0x37, (byte) 0xfa, 0x21, 0x3d};
    f.put(mask);
    for (int i = 0; i < n; i++) {
      f.put((byte) (payload[i] ^ mask[i & 3]));
    }
    return Arrays.copyOf(f.array(), f.position());
  }

  @Setup(Level.Iteration)
  public void markIteration() {
    loopAllocatedAt = allocated(loops);
    messages = 0;
  }

  @TearDown(Level.Iteration)
  public void reportIteration() {
    long bytes = allocated(loops) - loopAllocatedAt;
    System.out.printf(Locale.ROOT, "%n  loop threads (%d): %.2f B/message over %,d messages%n", loops.length,
        messages == 0 ? 0.0 : bytes / (double) messages, messages);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    client.close();
    server.close();
  }

  private static long allocated(Thread[] threads) {
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (Thread t : threads) {
      sum += Math.max(0, mx.getThreadAllocatedBytes(t.threadId()));
    }
    return sum;
  }

  /** Writes {@value #BATCH} messages and reads their {@value #BATCH} echoes. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int echo() throws IOException {
    batch.rewind();
    while (batch.hasRemaining()) {
      client.write(batch);
    }
    int frames = 0;
    while (frames < BATCH) {
      if (client.read(in) < 0) {
        throw new IOException("the server closed");
      }
      in.flip();
      while (true) {
        int p = in.position();
        int avail = in.remaining();
        if (avail < 2) {
          break;
        }
        int len = in.get(p + 1) & 0x7F;
        int header = 2;
        if (len == 126) {
          if (avail < 4) {
            break;
          }
          len = in.getShort(p + 2) & 0xFFFF;
          header = 4;
        } else if (len == 127) {
          throw new IOException("unexpected 64-bit length");
        }
        if (avail < header + len) {
          break;
        }
        in.position(p + header + len);
        frames++;
      }
      in.compact();
    }
    messages += BATCH;
    return frames;
  }
}
