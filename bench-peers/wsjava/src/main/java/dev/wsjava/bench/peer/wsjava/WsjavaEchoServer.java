package dev.wsjava.bench.peer.wsjava;

import dev.wsjava.Message;
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
 * The wsjava echo server of the end-to-end suite, written as the README shows: on the NIO
 * transport a listener that echoes from its callbacks, on the blocking transport a handler looping
 * on {@code receive()} on the connection's virtual thread. Command line: {@code nio|blocking PORT
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
    if (transport == Transport.NIO) {
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
    } else {
      builder.websocket(PeerArgs.ECHO_PATH, ws -> {
        while (true) {
          switch (ws.receive()) {
            case Message.Text t -> ws.sendText(t.text()).join();
            case Message.Binary b -> ws.sendBinary(b.data()).join();
          }
        }
      });
    }
    WebSocketServer server = builder.start();
    peer.ready(transport.name().toLowerCase(Locale.ROOT));
    Thread.currentThread().join(); // until the suite kills the process
    server.close();
  }
}
