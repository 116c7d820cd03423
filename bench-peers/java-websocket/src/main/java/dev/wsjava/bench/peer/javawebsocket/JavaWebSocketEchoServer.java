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
import org.java_websocket.server.DefaultSSLWebSocketServerFactory;
import org.java_websocket.server.WebSocketServer;

/**
 * The Java-WebSocket echo server: a {@link WebSocketServer} subclass echoing in {@code onMessage};
 * with {@code --deflate} its draft carries the permessage-deflate extension at the suite's level,
 * compressing every message (its default threshold leaves messages under 1 KiB uncompressed).
 * Frames up to 16 MiB (its default has no limit). One selector thread and its default of one
 * decoder thread per processor. It serves WebSocket only (no plain HTTP route). Command line:
 * {@link PeerArgs}.
 */
public final class JavaWebSocketEchoServer extends WebSocketServer {
  private final PeerArgs peer;
  private final int decoders;

  private JavaWebSocketEchoServer(PeerArgs peer, int decoders, List<Draft> drafts) {
    super(new InetSocketAddress(peer.host(), peer.port()), decoders, drafts);
    this.peer = peer;
    this.decoders = decoders;
  }

  /**
   * Starts the server and runs until killed.
   *
   * @param args see {@link PeerArgs}
   * @throws Exception when it cannot start
   */
  public static void main(String[] args) throws Exception {
    PeerArgs peer = PeerArgs.parse(args);
    List<org.java_websocket.extensions.IExtension> extensions = List.of();
    if (peer.deflate()) {
      PerMessageDeflateExtension deflate = new PerMessageDeflateExtension(peer.deflateLevel());
      // By default it sends messages under 1 KiB uncompressed; scenario 6 compares compression.
      deflate.setThreshold(0);
      extensions = List.of(deflate);
    }
    Draft draft = new Draft_6455(extensions, PeerArgs.MAX_MESSAGE);
    // Its default decoder count, written out so the report can say it.
    int decoders = peer.oneLoop() ? 1 : Runtime.getRuntime().availableProcessors();
    JavaWebSocketEchoServer server = new JavaWebSocketEchoServer(peer, decoders, List.of(draft));
    if (peer.tls() != null) {
      server.setWebSocketFactory(new DefaultSSLWebSocketServerFactory(peer.serverTls()));
    }
    server.setReuseAddr(true);
    server.setTcpNoDelay(true);
    server.setConnectionLostTimeout(0); // no pings: idle connections stay idle
    server.setMaxPendingConnections(4096); // the accept backlog, as every peer's
    server.start();
  }

  @Override
  public void onStart() {
    peer.ready("1 selector thread, " + decoders + " decoder (worker) thread(s)");
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
