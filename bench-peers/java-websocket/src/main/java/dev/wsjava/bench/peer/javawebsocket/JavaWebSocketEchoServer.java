package dev.wsjava.bench.peer.javawebsocket;

import dev.wsjava.bench.peer.PeerArgs;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import org.java_websocket.WebSocket;
import org.java_websocket.drafts.Draft;
import org.java_websocket.drafts.Draft_6455;
import org.java_websocket.extensions.permessage_deflate.PerMessageDeflateExtension;
import org.java_websocket.handshake.ClientHandshake;
import org.java_websocket.server.WebSocketServer;

/**
 * The Java-WebSocket echo server: a {@link WebSocketServer} subclass echoing in {@code onMessage};
 * with {@code --deflate} its draft carries the permessage-deflate extension, compressing every
 * message (its default threshold leaves messages under 1 KiB uncompressed). It serves WebSocket
 * only (no plain HTTP route). Command line: {@code PORT [--deflate]}.
 */
public final class JavaWebSocketEchoServer extends WebSocketServer {
  private final PeerArgs peer;

  private JavaWebSocketEchoServer(PeerArgs peer, List<Draft> drafts) {
    super(new InetSocketAddress("127.0.0.1", peer.port()), drafts);
    this.peer = peer;
  }

  /**
   * Starts the server and runs until killed.
   *
   * @param args {@code PORT [--deflate]}
   */
  public static void main(String[] args) {
    PeerArgs peer = PeerArgs.parse(args);
    Draft draft = new Draft_6455();
    if (peer.deflate()) {
      PerMessageDeflateExtension deflate = new PerMessageDeflateExtension();
      // By default it sends messages under 1 KiB uncompressed; scenario 6 compares compression.
      deflate.setThreshold(0);
      draft = new Draft_6455(deflate);
    }
    JavaWebSocketEchoServer server = new JavaWebSocketEchoServer(peer, List.of(draft));
    server.setReuseAddr(true);
    server.setTcpNoDelay(true);
    server.setConnectionLostTimeout(0); // no pings: idle connections stay idle
    server.setMaxPendingConnections(4096); // the accept backlog, as every peer's
    server.start();
  }

  @Override
  public void onStart() {
    peer.ready("");
  }

  @Override
  public void onOpen(WebSocket conn, ClientHandshake handshake) {
    if (!PeerArgs.ECHO_PATH.equals(handshake.getResourceDescriptor())) {
      conn.close(1008, "no such path");
    }
  }

  @Override
  public void onMessage(WebSocket conn, String message) {
    conn.send(message);
  }

  @Override
  public void onMessage(WebSocket conn, ByteBuffer message) {
    conn.send(message);
  }

  @Override
  public void onClose(WebSocket conn, int code, String reason, boolean remote) {}

  @Override
  public void onError(WebSocket conn, Exception ex) {
    if (conn == null) {
      ex.printStackTrace(); // the server itself failed
    }
  }
}
