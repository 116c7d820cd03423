package dev.wsjava.bench.peer.vertx;

import dev.wsjava.bench.peer.PeerArgs;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;

/**
 * The Vert.x 5 echo server: one HTTP server whose WebSocket handler writes every whole message back,
 * and whose request handler answers {@code GET /}. Vert.x accepts permessage-deflate by default:
 * without {@code --deflate} it is turned off. Default event loops, NIO transport (no native
 * transport on the classpath). Command line: {@code PORT [--deflate]}.
 */
public final class VertxEchoServer {
  private VertxEchoServer() {}

  /**
   * Starts the server and runs until killed.
   *
   * @param args {@code PORT [--deflate]}
   */
  public static void main(String[] args) {
    PeerArgs peer = PeerArgs.parse(args);
    Vertx vertx = Vertx.vertx();
    HttpServerOptions options = new HttpServerOptions()
        .setHost("127.0.0.1")
        .setPort(peer.port())
        .setTcpNoDelay(true)
        .setAcceptBacklog(4096)
        .setMaxWebSocketFrameSize(PeerArgs.MAX_MESSAGE)
        .setMaxWebSocketMessageSize(PeerArgs.MAX_MESSAGE)
        .setPerFrameWebSocketCompressionSupported(false)
        .setPerMessageWebSocketCompressionSupported(peer.deflate());
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
    peer.ready("");
  }
}
