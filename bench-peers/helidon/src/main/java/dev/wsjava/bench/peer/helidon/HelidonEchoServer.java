package dev.wsjava.bench.peer.helidon;

import dev.wsjava.bench.peer.PeerArgs;
import io.helidon.common.buffers.BufferData;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.websocket.WsConfig;
import io.helidon.webserver.websocket.WsRouting;
import io.helidon.websocket.WsListener;
import io.helidon.websocket.WsSession;

/**
 * The Helidon SE 4 echo server: {@link WebServer} (a virtual thread per connection) with an HTTP
 * route for {@code GET /} and a WebSocket route whose listener sends each part back as it comes.
 * Set to the suite's contract against two Helidon 4.5 defaults: TCP_NODELAY on (its socket options
 * leave it off, which stalled large echoes on Nagle's algorithm and delayed ACKs) and frames up to
 * 16 MiB (its default is 1 MiB). Helidon's WebSocket has no permessage-deflate: {@code --deflate}
 * is refused. Command line: {@link PeerArgs}.
 */
public final class HelidonEchoServer {
  private HelidonEchoServer() {}

  /**
   * Starts the server and runs until killed.
   *
   * @param args see {@link PeerArgs}
   * @throws Exception when it cannot start
   */
  public static void main(String[] args) throws Exception {
    PeerArgs peer = PeerArgs.parse(args);
    if (peer.deflate()) {
      throw new IllegalArgumentException("Helidon's WebSocket has no permessage-deflate");
    }
    WebServerConfig.Builder builder = WebServer.builder()
        .host(peer.host())
        .port(peer.port())
        .backlog(4096)
        .connectionOptions(o -> o.tcpNoDelay(true))
        .addProtocol(WsConfig.builder().maxFrameLength(PeerArgs.MAX_MESSAGE).build())
        .routing(r -> r.get("/", (req, res) -> {
          res.header(HeaderNames.CONTENT_TYPE, "text/plain");
          res.send(PeerArgs.HELLO);
        }))
        .addRouting(WsRouting.builder().endpoint(PeerArgs.ECHO_PATH, new Echo()));
    if (peer.tls() != null) {
      javax.net.ssl.SSLContext tls = peer.serverTls();
      builder.tls(t -> t.sslContext(tls));
    }
    builder.build().start();
    peer.ready("a virtual thread per connection on "
        + System.getProperty("jdk.virtualThreadScheduler.parallelism",
            Integer.toString(Runtime.getRuntime().availableProcessors()))
        + " carrier thread(s)");
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
