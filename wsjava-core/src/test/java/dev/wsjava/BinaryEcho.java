package dev.wsjava;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * The README's echo listener on one event loop at {@code /echo}, and the raw upgrade a test's own
 * socket makes to reach it: for tests that check the echo path byte for byte.
 */
final class BinaryEcho {
  private BinaryEcho() {}

  /** Starts the echo server on a free loopback port; the caller closes it. */
  static WebSocketServer start(Transport transport) throws IOException {
    WebSocketConfig config =
        WebSocketConfig.builder().transport(transport).eventLoops(1).deflate(null).build();
    return WebSocketServer.builder()
        .bind("127.0.0.1", 0)
        .config(config)
        .websocket("/echo", new WebSocketListener() {
          @Override
          public void onBinary(WebSocket ws, ByteBuffer data) {
            ws.sendBinary(data);
          }
        })
        .start();
  }

  /**
   * Upgrades {@code client} to a WebSocket at {@code /echo}; bytes that came after the response
   * go into {@code in}.
   */
  static void upgrade(SocketChannel client, ByteBuffer in) throws IOException {
    client.write(ByteBuffer.wrap(
        ("GET /echo HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII)));
    ByteBuffer head = ByteBuffer.allocate(1024);
    while (true) {
      if (client.read(head) < 0) {
        throw new IOException("closed during the handshake");
      }
      String s = new String(head.array(), 0, head.position(), StandardCharsets.ISO_8859_1);
      int end = s.indexOf("\r\n\r\n");
      if (end >= 0) {
        assertTrue(s.startsWith("HTTP/1.1 101"), s);
        in.put(head.array(), end + 4, head.position() - end - 4);
        return;
      }
    }
  }
}
