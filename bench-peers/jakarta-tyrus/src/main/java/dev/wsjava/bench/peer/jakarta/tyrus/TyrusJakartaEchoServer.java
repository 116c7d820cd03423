package dev.wsjava.bench.peer.jakarta.tyrus;

import dev.wsjava.bench.peer.PeerArgs;
import dev.wsjava.bench.peer.jakarta.EchoTarget;
import dev.wsjava.bench.peer.jakarta.JakartaEcho;
import java.util.Map;
import org.glassfish.tyrus.core.TyrusWebSocketEngine;
import org.glassfish.tyrus.server.Server;

/**
 * {@link JakartaEcho} on Tyrus 2.2's standalone server (Grizzly), incoming frames up to 16 MiB (its
 * default 4 MB). No plain HTTP: the standalone server answers WebSocket upgrades only. Command
 * line: {@link PeerArgs} (no TLS, no deflate).
 */
public final class TyrusJakartaEchoServer {
  private TyrusJakartaEchoServer() {}

  /**
   * Starts the server and runs until killed.
   *
   * @param args {@link EchoTarget}: {@code [--whole]} then {@link PeerArgs}
   * @throws Exception when it cannot start
   */
  public static void main(String[] args) throws Exception {
    EchoTarget target = EchoTarget.parse(args);
    PeerArgs peer = target.peer();
    if (peer.tls() != null) {
      throw new IllegalArgumentException("the Tyrus Jakarta target serves ws:// only");
    }
    Map<String, Object> properties = Map.of(TyrusWebSocketEngine.INCOMING_BUFFER_SIZE,
        PeerArgs.MAX_MESSAGE + 16);
    Server server = new Server(peer.host(), peer.port(), "/", properties, target.endpoint());
    server.start();
    peer.ready("tyrus 2.2.0 standalone on grizzly" + (target.whole() ? ", whole messages" : ""));
    Thread.currentThread().join(); // until the suite kills the process
    server.stop();
  }
}
