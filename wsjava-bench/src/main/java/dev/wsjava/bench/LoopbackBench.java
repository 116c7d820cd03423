package dev.wsjava.bench;

import dev.wsjava.Message;
import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Quick end-to-end figures on loopback, per transport: echo round trip of 32-byte messages (one in
 * flight, p50/p99/p99.9) and echoed 300-byte messages per second on one connection (a window of
 * messages in flight). Not the peer comparison suite; a first look. Arguments: {@code [seconds]}.
 */
public final class LoopbackBench {
  private LoopbackBench() {}

  /**
   * Runs both measurements on both transports and prints a table.
   *
   * @param args optional seconds per throughput run (default 5)
   * @throws Exception when a server or client fails
   */
  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    StringBuilder table = new StringBuilder();
    table.append("| transport | RTT p50 µs | RTT p99 µs | RTT p99.9 µs | 300 B echoes/s (1 conn) |\n");
    table.append("|---|---:|---:|---:|---:|\n");
    for (Transport t : Transport.values()) {
      WebSocketConfig config = WebSocketConfig.builder().transport(t).deflate(null).eventLoops(1).build();
      try (WebSocketServer server =
              WebSocketServer.builder()
                  .bind("127.0.0.1", 0)
                  .config(config)
                  .websocket("/echo", new WebSocketListener() {
                    @Override
                    public void onBinary(WebSocket ws, ByteBuffer data) {
                      ws.sendBinary(data);
                    }
                  })
                  .start();
          WebSocketClient client = WebSocketClient.builder().config(config).build()) {
        URI uri = URI.create("ws://127.0.0.1:" + server.port() + "/echo");
        double[] rtt = roundTrips(client.open(uri), 20_000, 5_000);
        double rate = throughput(client, uri, seconds);
        table.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %,.0f |%n",
            t.name().toLowerCase(Locale.ROOT), rtt[0], rtt[1], rtt[2], rate));
      }
    }
    System.out.print(table);
  }

  /** One 32-byte message in flight at a time; returns p50, p99, p99.9 in microseconds. */
  static double[] roundTrips(WebSocket ws, int count, int warmup) throws Exception {
    byte[] payload = new byte[32];
    long[] nanos = new long[count];
    for (int i = -warmup; i < count; i++) {
      long start = System.nanoTime();
      ws.sendBinary(payload);
      Message m = ws.receive(Duration.ofSeconds(10));
      if (!(m instanceof Message.Binary b) || b.data().remaining() != 32) {
        throw new IllegalStateException("bad echo: " + m);
      }
      if (i >= 0) {
        nanos[i] = System.nanoTime() - start;
      }
    }
    ws.close().get(5, TimeUnit.SECONDS);
    Arrays.sort(nanos);
    return new double[] {
      nanos[count / 2] / 1e3, nanos[(int) (count * 0.99)] / 1e3, nanos[(int) (count * 0.999)] / 1e3
    };
  }

  /** 300-byte messages with up to 256 in flight, for {@code seconds}; returns echoes per second. */
  static double throughput(WebSocketClient client, URI uri, int seconds) throws Exception {
    Semaphore window = new Semaphore(256);
    AtomicLong echoed = new AtomicLong();
    CompletableFuture<Void> closed = new CompletableFuture<>();
    WebSocket ws = client.connect(uri, new WebSocketListener() {
      @Override
      public void onBinary(WebSocket w, ByteBuffer data) {
        echoed.incrementAndGet();
        window.release();
      }

      @Override
      public void onClose(WebSocket w, int code, String reason) {
        closed.complete(null);
      }
    }).get(10, TimeUnit.SECONDS);
    byte[] payload = Payloads.json300();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1); // warm up for a second
    while (System.nanoTime() < end) {
      window.acquire();
      ws.sendBinary(payload);
    }
    long before = echoed.get();
    long start = System.nanoTime();
    end = start + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < end) {
      if (window.tryAcquire(1, TimeUnit.SECONDS)) {
        ws.sendBinary(payload);
      }
    }
    double rate = (echoed.get() - before) / ((System.nanoTime() - start) / 1e9);
    ws.close().get(5, TimeUnit.SECONDS);
    return rate;
  }
}
