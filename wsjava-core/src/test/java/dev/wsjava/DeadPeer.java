package dev.wsjava;

import dev.wsjava.handshake.AcceptKey;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
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
      try (Socket socket = acceptUpgrade(listener)) {
        if (read) {
          byte[] sink = new byte[4096];
          while (socket.getInputStream().read(sink) >= 0) {
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

  /**
   * Accepts one client on {@code listener} and answers its opening handshake with 101.
   *
   * @return the upgraded socket, positioned after the request head
   * @throws IOException when the client goes away or sends no WebSocket key
   */
  static Socket acceptUpgrade(ServerSocket listener) throws IOException {
    Socket socket = listener.accept();
    try {
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
        int b = in.read();
        if (b < 0) {
          throw new EOFException("the client went away during its request");
        }
        head.write(b);
      }
      Matcher key = Pattern.compile("(?i)Sec-WebSocket-Key: *(\\S+)")
          .matcher(head.toString(StandardCharsets.ISO_8859_1));
      if (!key.find()) {
        throw new IOException("no Sec-WebSocket-Key in " + head);
      }
      socket.getOutputStream().write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
          + "Connection: Upgrade\r\nSec-WebSocket-Accept: " + AcceptKey.accept(key.group(1))
          + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().flush();
      return socket;
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }
}
