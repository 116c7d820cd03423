package dev.wsjava.conformance;

import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import dev.wsjava.extension.PerMessageDeflate;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;

/** A wsjava echo server on loopback, as the fuzzing client expects: {@code /echo} echoes. */
final class OurEchoServer {
  private OurEchoServer() {}

  static WebSocketServer start(Transport transport, boolean deflate) throws IOException {
    WebSocketConfig config = WebSocketConfig.builder()
        .transport(transport)
        .deflate(deflate ? PerMessageDeflate.defaults() : null)
        .build();
    return WebSocketServer.builder()
        .bind("127.0.0.1", 0)
        .config(config)
        .websocket("/echo", new WebSocketListener() {
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
  }

  static URI echoUri(WebSocketServer server) {
    return URI.create("ws://127.0.0.1:" + server.port() + "/echo");
  }
}
