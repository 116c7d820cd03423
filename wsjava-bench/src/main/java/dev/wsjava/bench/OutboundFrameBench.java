package dev.wsjava.bench;

import dev.wsjava.Message;
import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketHandler;
import dev.wsjava.WebSocketServer;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * What the outbound frame size costs: one 200 MiB binary message sent whole ({@code sendBinary})
 * over loopback to a server route that streams it in and counts it, compression off, with the
 * client's outbound frames at 64 KiB (the default), 1 MiB and 256 MiB (one frame). Prints the
 * wall time and the process's CPU time per run. Run: {@code java -cp
 * wsjava-bench/target/classes:wsjava-core/target/classes dev.wsjava.bench.OutboundFrameBench
 * [runs] [NIO|BLOCKING]}.
 */
public final class OutboundFrameBench {
  private OutboundFrameBench() {}

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    Transport transport = args.length > 1 ? Transport.valueOf(args[1]) : Transport.NIO;
    byte[] message = new byte[200 << 20];
    new SplittableRandom(1).nextBytes(message);
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    try (WebSocketServer server =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(WebSocketConfig.builder().transport(transport).deflate(null).build())
            .websocket(
                "/",
                (WebSocketHandler)
                    ws -> {
                      while (true) {
                        long n;
                        try (InputStream in = ws.receiveStream()) {
                          n = in.transferTo(java.io.OutputStream.nullOutputStream());
                        }
                        ws.sendText(Long.toString(n)).join();
                      }
                    },
                cfg -> cfg.streamMessages(true).maxFramePayload(Integer.MAX_VALUE))
            .start()) {
      System.out.printf("%-10s %-12s %10s %10s%n", "transport", "frame", "wall ms", "CPU ms");
      for (int frame : new int[] {64 << 10, 1 << 20, 256 << 20}) {
        WebSocketConfig c =
            WebSocketConfig.builder().transport(transport).deflate(null).maxOutboundFramePayload(frame)
                .maxQueuedBytes(512L << 20).build();
        try (WebSocketClient client = WebSocketClient.builder().config(c).build()) {
          WebSocket ws = client.connect(URI.create("ws://127.0.0.1:" + server.port() + "/"))
              .get(10, TimeUnit.SECONDS);
          for (int run = 0; run <= runs; run++) {
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            ws.sendBinary(message).get(60, TimeUnit.SECONDS);
            Message m = ws.receive(Duration.ofSeconds(60));
            long wall = System.nanoTime() - t0;
            long cpu = os.getProcessCpuTime() - cpu0;
            if (!(m instanceof Message.Text t) || Long.parseLong(t.text()) != message.length) {
              throw new AssertionError("answer " + m);
            }
            if (run > 0) { // the first is warm-up
              System.out.printf("%-10s %-12s %10d %10d%n", transport,
                  frame >= 1 << 20 ? (frame >> 20) + " MiB" : (frame >> 10) + " KiB", wall / 1_000_000, cpu / 1_000_000);
            }
          }
          ws.close().get(10, TimeUnit.SECONDS);
        }
      }
    }
  }
}
