package dev.wsjava.bench.peer.jakarta.wsjava;

import dev.wsjava.WebSocketConfig;
import dev.wsjava.http.HttpResponse;
import dev.wsjava.bench.peer.PeerArgs;
import dev.wsjava.bench.peer.jakarta.EchoTarget;
import dev.wsjava.bench.peer.jakarta.JakartaEcho;
import dev.wsjava.jakarta.JakartaServer;

/**
 * {@link JakartaEcho} on wsjava's standalone Jakarta server container, NIO transport, default
 * settings, with {@code GET /} beside it (or {@code JakartaWholeEcho}). Command line: {@link
 * EchoTarget} ({@code --deflate} is
 * refused: the endpoint negotiates no extension).
 */
public final class WsjavaJakartaEchoServer {
  private WsjavaJakartaEchoServer() {}

  /**
   * Starts the server and runs until killed.
   *
   * @param args {@link EchoTarget}: {@code [--whole]} then {@link PeerArgs}
   * @throws Exception when it cannot start
   */
  public static void main(String[] args) throws Exception {
    EchoTarget target = EchoTarget.parse(args);
    PeerArgs peer = target.peer();
    WebSocketConfig.Builder config = WebSocketConfig.builder();
    if (peer.oneLoop()) {
      config.eventLoops(1);
    }
    WebSocketConfig built = config.build();
    JakartaServer.Builder builder = JakartaServer.builder()
        .bind(peer.host(), peer.port())
        .config(built)
        .endpoint(target.endpoint())
        .routes(b -> b.get("/", req -> HttpResponse.text(200, PeerArgs.HELLO)));
    if (peer.tls() != null) {
      builder.tls(peer.serverTls());
    }
    JakartaServer server = builder.start();
    int loops = built.eventLoops() > 0 ? built.eventLoops()
        : Runtime.getRuntime().availableProcessors();
    peer.ready("wsjava-jakarta, nio, " + loops + " event loop(s)"
        + (target.whole() ? ", whole messages" : ""));
    Thread.currentThread().join(); // until the suite kills the process
    server.close();
  }
}
