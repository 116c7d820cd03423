package dev.wsjava.interop;

import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import dev.wsjava.extension.PerMessageDeflate;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Our server for the peer clients: {@code /echo} speaks the same little protocol as {@link
 * PeerServer} (echo; {@code !close CODE REASON}, {@code !ping DATA} answered by {@code !pong DATA}),
 * plus {@code !info}, answered by {@code subprotocol=P extensions=[...]} as the server sees them.
 */
final class OurServer {
  /** The one subprotocol the server supports. */
  static final String SUBPROTOCOL = "chat.v2";

  final WebSocketServer server;

  /** "code reason" of each connection's onClose on the server, in order. */
  final BlockingQueue<String> closesSeen = new LinkedBlockingQueue<>();

  /** Errors the server's listener saw; a test expects none. */
  final BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();

  private OurServer(Transport transport, boolean deflate) throws Exception {
    WebSocketConfig config =
        WebSocketConfig.builder()
            .transport(transport)
            .deflate(deflate ? PerMessageDeflate.defaults() : null)
            .subprotocols(List.of(SUBPROTOCOL))
            .build();
    server =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(config)
            .websocket("/echo", new Echo())
            .start();
  }

  static OurServer start(Transport transport, boolean deflate) throws Exception {
    return new OurServer(transport, deflate);
  }

  URI echoUri() {
    return URI.create("ws://localhost:" + server.port() + "/echo");
  }

  void stop() throws InterruptedException {
    server.shutdown(Duration.ofSeconds(2));
  }

  private final class Echo implements WebSocketListener {
    @Override
    public void onText(WebSocket ws, String text) {
      if (text.startsWith("!close ")) {
        String[] parts = text.split(" ", 3);
        ws.close(Integer.parseInt(parts[1]), parts[2]);
      } else if (text.startsWith("!ping ")) {
        ws.sendPing(ByteBuffer.wrap(Interop.utf8(text.substring(6))));
      } else if (text.equals("!info")) {
        ws.sendText("subprotocol=" + ws.subprotocol() + " extensions=" + ws.extensions());
      } else {
        ws.sendText(text);
      }
    }

    @Override
    public void onBinary(WebSocket ws, ByteBuffer data) {
      ws.sendBinary(data);
    }

    @Override
    public void onPong(WebSocket ws, ByteBuffer data) {
      ws.sendText("!pong " + StandardCharsets.UTF_8.decode(data));
    }

    @Override
    public void onError(WebSocket ws, Throwable error) {
      errors.add(error);
    }

    @Override
    public void onClose(WebSocket ws, int code, String reason) {
      closesSeen.add(code + " " + reason);
    }
  }
}
