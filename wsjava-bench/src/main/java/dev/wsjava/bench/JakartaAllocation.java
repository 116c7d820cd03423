package dev.wsjava.bench;

import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import dev.wsjava.bench.peer.jakarta.JakartaEcho;
import dev.wsjava.jakarta.JakartaServer;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the Jakarta adapter costs per message, on the server's event loop: the bench suite's echo
 * endpoint ({@link JakartaEcho}, partial handlers sending back through the basic remote) on
 * wsjava's Jakarta container beside the core API's echo listener (the {@code wsjava-nio} target's),
 * both on one NIO loop, driven by one raw socket client pipelining a window of 64 messages.
 * Prints, per case, the bytes the server's loop thread allocated per echoed message (from {@code
 * com.sun.management.ThreadMXBean}, exact on a loaded machine) and the echoes per second (only
 * indicative: the client shares the machine). Arguments: {@code [messages]} per case (default
 * 200000, after as many again to warm up), every case run twice and the second round shown.
 */
public final class JakartaAllocation {
  private static final int WINDOW = 64;

  private JakartaAllocation() {}

  /**
   * Runs every case and prints one table.
   *
   * @param args optional message count per case and round
   * @throws Exception when a server or the client fails
   */
  public static void main(String[] args) throws Exception {
    int count = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    StringBuilder table = new StringBuilder(
        "| server | message | B allocated per echo (server loop) | echoes/s (indicative) |\n"
            + "|---|---|---:|---:|\n");
    // Two rounds, the first only to warm up: code the JIT compiled for one case serves the next,
    // and allocation that C2 removes by escape analysis is still there in colder code.
    for (int round = 0; round < 2; round++) {
      for (boolean jakarta : new boolean[] {false, true}) {
        for (boolean text : new boolean[] {false, true}) {
          int size = text ? 32 : 300;
          double[] r = run(jakarta, text, size, count);
          if (round == 0) {
            continue;
          }
          table.append(String.format(Locale.ROOT, "| %s | %d B %s | %.1f | %,.0f |%n",
            jakarta ? "jakarta (JakartaEcho)" : "core API (listener)", size,
            text ? "text" : "binary", r[0], r[1]));
        }
      }
    }
    System.out.print(table);
  }

  /** One case: returns {bytes per echo, echoes per second}. */
  private static double[] run(boolean jakarta, boolean text, int size, int count) throws Exception {
    WebSocketConfig config = WebSocketConfig.builder().eventLoops(1).deflate(null).build();
    AutoCloseable server;
    int port;
    if (jakarta) {
      JakartaServer js = JakartaServer.builder().bind("127.0.0.1", 0).config(config)
          .endpoint(JakartaEcho.class).start();
      server = js;
      port = js.port();
    } else {
      WebSocketServer ws = WebSocketServer.builder().bind("127.0.0.1", 0).config(config)
          .websocket("/echo", new WebSocketListener() {
            @Override
            public void onText(WebSocket s, String message) {
              s.sendText(message);
            }

            @Override
            public void onBinary(WebSocket s, ByteBuffer data) {
              s.sendBinary(data);
            }
          }).start();
      server = ws;
      port = ws.port();
    }
    try (server; Socket socket = new Socket()) {
      socket.setTcpNoDelay(true);
      socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
      socket.setSoTimeout(30_000);
      OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
      InputStream in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
      handshake(out, in, port);
      long[] loops = serverLoops();
      byte[] frame = frame(text, size);
      echo(out, in, frame, size, count); // warm-up
      long before = allocated(loops);
      long t0 = System.nanoTime();
      echo(out, in, frame, size, count);
      double seconds = (System.nanoTime() - t0) / 1e9;
      long bytes = allocated(loops) - before;
      return new double[] {bytes / (double) count, count / seconds};
    }
  }

  /** The ids of the NIO loop threads alive now: the server's (the client is a plain socket). */
  private static long[] serverLoops() {
    List<Long> ids = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith("wsjava-nio-")) {
        ids.add(t.threadId());
      }
    }
    if (ids.isEmpty()) {
      throw new IllegalStateException("no wsjava-nio loop thread found");
    }
    return ids.stream().mapToLong(Long::longValue).toArray();
  }

  private static long allocated(long[] ids) {
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (long b : mx.getThreadAllocatedBytes(ids)) {
      sum += b;
    }
    return sum;
  }

  private static void handshake(OutputStream out, InputStream in, int port) throws IOException {
    out.write(("GET /echo HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("no handshake response");
      }
      head.append((char) b);
    }
    if (!head.toString().startsWith("HTTP/1.1 101")) {
      throw new IOException("handshake refused: " + head);
    }
  }

  /** One masked (zero key) frame: binary of pattern bytes, or ASCII text. */
  private static byte[] frame(boolean text, int size) {
    int header = size < 126 ? 6 : 8;
    byte[] f = new byte[header + size];
    f[0] = (byte) (text ? 0x81 : 0x82);
    if (size < 126) {
      f[1] = (byte) (0x80 | size);
    } else {
      f[1] = (byte) (0x80 | 126);
      f[2] = (byte) (size >>> 8);
      f[3] = (byte) size;
    }
    for (int i = 0; i < size; i++) {
      f[header + i] = (byte) ('a' + i % 26);
    }
    return f;
  }

  /** Sends {@code count} frames keeping {@link #WINDOW} in flight and reads every echo. */
  private static void echo(OutputStream out, InputStream in, byte[] frame, int size, int count)
      throws IOException {
    int sent = 0;
    int received = 0;
    int header = size < 126 ? 2 : 4;
    byte[] skip = new byte[header + size];
    while (received < count) {
      while (sent < count && sent - received < WINDOW) {
        out.write(frame);
        sent++;
      }
      out.flush();
      // read one echo (the server answers unmasked, in one frame of the same size)
      in.readNBytes(skip, 0, header);
      int len = skip[1] & 0x7f;
      if (len == 126) {
        len = ((skip[2] & 0xff) << 8) | (skip[3] & 0xff);
      }
      if (len != size || (skip[0] & 0x80) == 0) {
        throw new IOException("unexpected echo: byte 0 " + (skip[0] & 0xff) + ", length " + len);
      }
      if (in.readNBytes(skip, 0, len) != len) {
        throw new IOException("the connection ended");
      }
      received++;
    }
  }
}
