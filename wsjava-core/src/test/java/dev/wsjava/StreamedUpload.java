package dev.wsjava;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * A large upload in one process, run by {@link SendStreamTest} in a JVM of its own with a small
 * heap: a client streams {@code megabytes} MiB of random bytes as one binary message through
 * {@link WebSocket#sendBinaryStream()}, compression offered, to a server route that streams it in,
 * hashes it and answers the hash. Prints {@code OK <bytes> <sha-256>} and exits 0 when both hashes
 * agree; anything else exits 1.
 *
 * <p>Arguments: transport (NIO or BLOCKING), megabytes, the server's frame limit in bytes.
 */
final class StreamedUpload {
  private StreamedUpload() {}

  public static void main(String[] args) throws Exception {
    Transport transport = Transport.valueOf(args[0]);
    long size = Long.parseLong(args[1]) << 20;
    int frameLimit = Integer.parseInt(args[2]);
    try (WebSocketServer server =
            WebSocketServer.builder()
                .bind("127.0.0.1", 0)
                .config(WebSocketConfig.builder().transport(transport).eventLoops(1).build())
                .websocket(
                    "/upload",
                    (WebSocketHandler)
                        ws -> {
                          MessageDigest sha = MessageDigest.getInstance("SHA-256");
                          long total = 0;
                          try (InputStream in = ws.receiveStream()) {
                            byte[] buf = new byte[64 * 1024];
                            for (int n; (n = in.read(buf)) > 0; ) {
                              sha.update(buf, 0, n);
                              total += n;
                            }
                          }
                          ws.sendText(total + " " + HexFormat.of().formatHex(sha.digest())).join();
                        },
                    cfg ->
                        cfg.streamMessages(true)
                            .maxStreamedMessageSize(Long.MAX_VALUE)
                            .maxFramePayload(frameLimit))
                .start();
        WebSocketClient client =
            WebSocketClient.builder()
                .config(WebSocketConfig.builder().transport(transport).build())
                .build()) {
      WebSocket ws =
          client
              .connect(URI.create("ws://127.0.0.1:" + server.port() + "/upload"))
              .get(10, TimeUnit.SECONDS);
      if (!ws.extensions().contains("permessage-deflate")) {
        throw new AssertionError("compression was not negotiated: " + ws.extensions());
      }
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      SplittableRandom random = new SplittableRandom(38);
      byte[] chunk = new byte[100_000]; // not a multiple of anything the stream uses
      long sent = 0;
      try (OutputStream out = ws.sendBinaryStream()) {
        while (sent < size) {
          int n = (int) Math.min(chunk.length, size - sent);
          random.nextBytes(chunk);
          sha.update(chunk, 0, n);
          out.write(chunk, 0, n);
          sent += n;
        }
      }
      Message answer = ws.receive(Duration.ofSeconds(60));
      String expected = sent + " " + HexFormat.of().formatHex(sha.digest());
      if (!(answer instanceof Message.Text t) || !t.text().equals(expected)) {
        System.out.println("MISMATCH " + answer + " expected " + expected);
        System.exit(1);
      }
      System.out.println("OK " + expected);
      ws.close().get(10, TimeUnit.SECONDS);
    }
    System.exit(0);
  }
}
