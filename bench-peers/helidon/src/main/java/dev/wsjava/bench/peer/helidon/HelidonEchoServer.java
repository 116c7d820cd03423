package dev.wsjava.bench.peer.helidon;

import dev.wsjava.bench.peer.PeerArgs;
import io.helidon.common.buffers.BufferData;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.websocket.WsRouting;
import io.helidon.websocket.WsListener;
import io.helidon.websocket.WsSession;

/**
 * The Helidon SE 4 echo server: {@link WebServer} (a virtual thread per connection) with an HTTP
 * route for {@code GET /} and a WebSocket route whose listener sends each part back as it comes.
 * Helidon's WebSocket has no permessage-deflate: {@code --deflate} is refused. Command line:
 * {@code PORT}.
 */
public final class HelidonEchoServer {
  private HelidonEchoServer() {}

  /**
   * Starts the server and runs until killed.
   *
   * @param args {@code PORT}
   */
  public static void main(String[] args) {
    PeerArgs peer = PeerArgs.parse(args);
    if (peer.deflate()) {
      throw new IllegalArgumentException("Helidon's WebSocket has no permessage-deflate");
    }
    WebServer.builder()
        .host("127.0.0.1")
        .port(peer.port())
        .backlog(4096)
        .routing(r -> r.get("/", (req, res) -> {
          res.header(HeaderNames.CONTENT_TYPE, "text/plain");
          res.send(PeerArgs.HELLO);
        }))
        .addRouting(WsRouting.builder().endpoint(PeerArgs.ECHO_PATH, new Echo()))
        .build()
        .start();
    peer.ready("");
  }

  /** Sends every received part straight back, keeping the message's fragmentation. */
  private static final class Echo implements WsListener {
    @Override
    public void onMessage(WsSession session, String text, boolean last) {
      session.send(text, last);
    }

    @Override
    public void onMessage(WsSession session, BufferData buffer, boolean last) {
      session.send(buffer, last);
    }
  }
}
