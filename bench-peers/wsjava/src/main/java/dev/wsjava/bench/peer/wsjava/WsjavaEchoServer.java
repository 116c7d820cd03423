package dev.wsjava.bench.peer.wsjava;

import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import dev.wsjava.bench.peer.PeerArgs;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * The wsjava echo server of the end-to-end suite, written as the README shows: a listener that
 * echoes from its callbacks, on either transport. Command line: {@code nio|blocking PORT
 * [--deflate]}.
 */
public final class WsjavaEchoServer {
  private WsjavaEchoServer() {}

  /**
   * Starts the server and runs until killed.
   *
   * @param args {@code nio|blocking PORT [--deflate]}
   * @throws Exception when it cannot start
   */
  public static void main(String[] args) throws Exception {
    Transport transport = Transport.valueOf(args[0].toUpperCase(Locale.ROOT));
    PeerArgs peer = PeerArgs.parse(java.util.Arrays.copyOfRange(args, 1, args.length));
    WebSocketConfig config = WebSocketConfig.builder()
        .transport(transport)
        .deflate(peer.deflate() ? PerMessageDeflate.defaults() : null)
        .build();
    WebSocketServer.Builder builder = WebSocketServer.builder()
        .bind("127.0.0.1", peer.port())
        .config(config)
        .get("/", req -> HttpResponse.text(200, PeerArgs.HELLO));
    // The same listener on both transports: on NIO its callbacks run on the event loop, on the
    // blocking transport on the connection's own virtual thread (as Helidon's WsListener does).
    builder.websocket(PeerArgs.ECHO_PATH, new WebSocketListener() {
      @Override
      public void onText(WebSocket ws, String text) {
        ws.sendText(text);
      }

      @Override
      public void onBinary(WebSocket ws, ByteBuffer data) {
        ws.sendBinary(data);
      }
    });
    WebSocketServer server = builder.start();
    peer.ready(transport.name().toLowerCase(Locale.ROOT));
    Thread.currentThread().join(); // until the suite kills the process
    server.close();
  }
}
