package dev.wsjava.bench.peer.vertx;

import dev.wsjava.bench.peer.PeerArgs;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PfxOptions;

/**
 * The Vert.x 5 echo server: one HTTP server whose WebSocket handler writes every whole message back,
 * and whose request handler answers {@code GET /}. Vert.x accepts permessage-deflate by default:
 * without {@code --deflate} it is turned off, with it it compresses at the suite's level. Vert.x's
 * default event loops (two per processor), or one with {@code --one-loop}; NIO transport (no native
 * transport on the classpath). Command line: {@link PeerArgs}.
 */
public final class VertxEchoServer {
  private VertxEchoServer() {}

  /**
   * Starts the server and runs until killed.
   *
   * @param args see {@link PeerArgs}
   */
  public static void main(String[] args) {
    PeerArgs peer = PeerArgs.parse(args);
    VertxOptions vertxOptions = new VertxOptions();
    if (peer.oneLoop()) {
      vertxOptions.setEventLoopPoolSize(1);
    }
    Vertx vertx = Vertx.vertx(vertxOptions);
    HttpServerOptions options = new HttpServerOptions()
        .setHost(peer.host())
        .setPort(peer.port())
        .setTcpNoDelay(true)
        .setAcceptBacklog(4096)
        .setMaxWebSocketFrameSize(PeerArgs.MAX_MESSAGE)
        .setMaxWebSocketMessageSize(PeerArgs.MAX_MESSAGE)
        .setPerFrameWebSocketCompressionSupported(false)
        .setPerMessageWebSocketCompressionSupported(peer.deflate());
    if (peer.deflate()) {
      options.setWebSocketCompressionLevel(peer.deflateLevel());
    }
    if (peer.tls() != null) {
      options.setSsl(true).setKeyCertOptions(new PfxOptions()
          .setPath(peer.tls().resolve(PeerArgs.KEY_STORE).toString())
          .setPassword(PeerArgs.STORE_PASSWORD));
    }
    vertx.createHttpServer(options)
        .webSocketHandler(ws -> {
          if (!PeerArgs.ECHO_PATH.equals(ws.path())) {
            ws.close((short) 1008);
            return;
          }
          ws.textMessageHandler(ws::writeTextMessage);
          ws.binaryMessageHandler(ws::writeBinaryMessage);
        })
        .requestHandler(req -> req.response()
            .putHeader("content-type", "text/plain")
            .end(PeerArgs.HELLO))
        .listen()
        .await();
    peer.ready("an event loop pool of " + vertxOptions.getEventLoopPoolSize()
        + ", one server instance (not a verticle per loop)");
  }
}
