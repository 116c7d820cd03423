package dev.wsjava;

import dev.wsjava.handshake.AcceptKey;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A raw server peer for client tests: it answers one opening handshake, then stays silent. */
final class DeadPeer {
  private DeadPeer() {}

  /**
   * Starts a virtual thread that accepts one client on {@code listener}, answers its upgrade with
   * 101, and then never sends a byte (no pong, no close).
   *
   * @param listener where the client connects
   * @param read whether to read and drop what the client sends, or read nothing at all (so the
   *     client's writes back up)
   */
  static void start(ServerSocket listener, boolean read) {
    Thread.ofVirtual().start(() -> {
      try (Socket socket = listener.accept()) {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
          int b = in.read();
          if (b < 0) {
            return;
          }
          head.write(b);
        }
        Matcher key = Pattern.compile("(?i)Sec-WebSocket-Key: *(\\S+)")
            .matcher(head.toString(StandardCharsets.ISO_8859_1));
        if (!key.find()) {
          return;
        }
        socket.getOutputStream().write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Accept: " + AcceptKey.accept(key.group(1))
            + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        if (read) {
          byte[] sink = new byte[4096];
          while (in.read(sink) >= 0) {
            // ignore everything: never answer a ping or a close
          }
        } else {
          Thread.sleep(30_000); // ends early when the test closes the client (the socket resets)
        }
      } catch (Exception e) {
        // the test's assertions report the outcome
      }
    });
  }
}
