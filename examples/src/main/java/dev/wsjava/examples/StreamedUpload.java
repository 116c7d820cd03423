package dev.wsjava.examples;

import dev.wsjava.Message;
import dev.wsjava.MessageStream;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketServer;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.SplittableRandom;

/**
 * A large upload streamed both ways: the client sends one binary message of random bytes (200 MiB
 * by default) through {@link WebSocket#sendBinaryStream()}, an {@code OutputStream} that holds a
 * bounded buffer and blocks while the server reads slowly (or, with {@code fragments}, as
 * fragments it sends one by one); the server's upload route streams messages ({@link
 * WebSocket#receiveStream()}), hashes each with SHA-256 as it arrives and answers with the size and
 * the hash, which the client compares with its own. Neither side holds the message, so both run in
 * a small heap (the server in 48 MiB: {@code JAVA_OPTS=-Xmx48m}). permessage-deflate stays on:
 * random bytes do not compress, and the frames that do not shrink go out as they are.
 *
 * <p>Run both in one JVM: {@code examples/run StreamedUpload}; or apart: {@code
 * JAVA_OPTS=-Xmx48m examples/run StreamedUpload server 8080} and {@code examples/run
 * StreamedUpload client 8080 200}.
 */
public final class StreamedUpload {
  /** The piece the client sends at a time. */
  static final int PIECE = 256 * 1024;

  private StreamedUpload() {}

  /**
   * Runs the server, the client, or both.
   *
   * @param args {@code server [PORT]}, {@code client PORT|URI [MiB [stream|fragments]]}, or {@code
   *     [MiB]} for both in this JVM
   * @throws Exception when the server cannot start or the upload fails
   */
  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("server")) {
      WebSocketServer server = server(args.length > 1 ? Integer.parseInt(args[1]) : 8080);
      System.out.println("upload at ws://localhost:" + server.port() + "/upload");
      Thread.currentThread().join();
    } else if (args.length > 0 && args[0].equals("client")) {
      String where = args.length > 1 ? args[1] : "8080";
      URI uri = URI.create(where.matches("\\d+") ? "ws://localhost:" + where + "/upload" : where);
      boolean fragments = args.length > 3 && args[3].equals("fragments");
      System.exit(upload(uri, args.length > 2 ? Long.parseLong(args[2]) : 200, fragments) ? 0 : 1);
    } else {
      try (WebSocketServer server = server(0)) {
        URI uri = URI.create("ws://localhost:" + server.port() + "/upload");
        System.exit(upload(uri, args.length > 0 ? Long.parseLong(args[0]) : 200, false) ? 0 : 1);
      }
    }
  }

  /** Starts the server: each binary message is hashed as it streams in; the answer is "SIZE HEX". */
  static WebSocketServer server(int port) throws Exception {
    return WebSocketServer.builder()
        .bind("localhost", port)
        .websocket("/upload", ws -> { // each connection on a virtual thread of its own
          byte[] buffer = new byte[64 * 1024];
          while (true) {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            long size = 0;
            try (MessageStream in = ws.receiveStream()) { // waits for the next message
              for (int n; (n = in.read(buffer)) >= 0; size += n) {
                sha256.update(buffer, 0, n);
              }
            }
            ws.sendText(size + " " + HexFormat.of().formatHex(sha256.digest())).join();
          }
        }, route -> route.streamMessages(true)) // this route takes messages as streams
        .start();
  }

  /**
   * Sends {@code mib} MiB of random bytes as one message, through the send stream or as
   * fragments; true when the server's hash is ours.
   */
  static boolean upload(URI uri, long mib, boolean fragments) throws Exception {
    MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
    SplittableRandom random = new SplittableRandom();
    byte[] piece = new byte[PIECE];
    long size = mib * 1024 * 1024;
    long start = System.nanoTime();
    try (WebSocketClient client = WebSocketClient.builder().build()) { // permessage-deflate on
      WebSocket ws = client.open(uri);
      if (fragments) {
        for (long sent = 0; sent < size; sent += PIECE) {
          fill(piece, random, sha256);
          // A fragment of the message; join() holds the next piece back until this one is written.
          ws.sendBinary(ByteBuffer.wrap(piece), sent + PIECE >= size).join();
        }
      } else {
        try (OutputStream out = ws.sendBinaryStream()) { // close() sends the end of the message
          for (long sent = 0; sent < size; sent += PIECE) {
            fill(piece, random, sha256);
            out.write(piece); // blocks while the server reads more slowly than this writes
          }
        }
      }
      Message answer = ws.receive(Duration.ofMinutes(5));
      String expected = size + " " + HexFormat.of().formatHex(sha256.digest());
      double seconds = (System.nanoTime() - start) / 1e9;
      boolean same = answer instanceof Message.Text t && t.text().equals(expected);
      System.out.printf("sent %d MiB %s in %.1f s (%s); the server's SHA-256 %s%n", mib,
          fragments ? "as fragments" : "through the stream", seconds,
          ws.extensions().isEmpty() ? "uncompressed" : String.join(", ", ws.extensions()),
          same ? "matches: " + expected.substring(expected.indexOf(' ') + 1) : "differs: " + answer);
      ws.close().join();
      return same;
    }
  }

  /** Fills {@code piece} with random bytes and adds them to the hash. */
  private static void fill(byte[] piece, SplittableRandom random, MessageDigest sha256) {
    for (int i = 0; i < piece.length; i += 8) {
      ByteBuffer.wrap(piece, i, 8).putLong(random.nextLong());
    }
    sha256.update(piece);
  }
}
