package dev.wsjava.bench.peer.jetty;

import dev.wsjava.bench.peer.PeerArgs;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.compression.DeflaterPool;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.websocket.core.server.WebSocketServerComponents;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

/**
 * The Jetty 12 echo server: the Jetty WebSocket API on Jetty's core handlers (the documented way
 * without a servlet container), {@link WebSocketUpgradeHandler} in front of a plain handler that
 * answers {@code GET /}. Jetty offers permessage-deflate by default: without {@code --deflate} the
 * upgrade answers no extension; with it, its deflater pool compresses at the suite's level. Frames
 * and messages up to 16 MiB (Jetty's own frame limit is 64 KiB). Command line: {@link PeerArgs}.
 */
public final class JettyEchoServer {
  /** The pool of the one-loop variant: the fewest threads Jetty starts with (checked by starting). */
  private static final int ONE_LOOP_POOL = 3;

  private JettyEchoServer() {}

  /**
   * Starts the server and runs until killed.
   *
   * @param args {@code PORT [--deflate]}
   * @throws Exception when it cannot start
   */
  public static void main(String[] args) throws Exception {
    PeerArgs peer = PeerArgs.parse(args);
    // Jetty's defaults: a pool of up to 200 threads, one acceptor and one selector on one
    // processor. One loop: no acceptor thread (the selector accepts), one selector, and the
    // smallest pool Jetty starts with beside it.
    QueuedThreadPool pool = peer.oneLoop() ? new QueuedThreadPool(ONE_LOOP_POOL, 1) : new QueuedThreadPool();
    Server server = new Server(pool);
    SslContextFactory.Server tls = null;
    if (peer.tls() != null) {
      tls = new SslContextFactory.Server();
      tls.setKeyStorePath(peer.tls().resolve(PeerArgs.KEY_STORE));
      tls.setKeyStoreType("PKCS12");
      tls.setKeyStorePassword(PeerArgs.STORE_PASSWORD);
    }
    int acceptors = peer.oneLoop() ? 0 : -1;
    int selectors = peer.oneLoop() ? 1 : -1;
    ServerConnector connector = tls == null ? new ServerConnector(server, acceptors, selectors)
        : new ServerConnector(server, acceptors, selectors, tls);
    connector.setHost(peer.host());
    connector.setPort(peer.port());
    connector.setAcceptQueueSize(4096);
    connector.setIdleTimeout(Duration.ofMinutes(10).toMillis());
    server.addConnector(connector);
    if (peer.deflate()) {
      server.setAttribute(WebSocketServerComponents.WEBSOCKET_DEFLATER_POOL_ATTRIBUTE,
          new DeflaterPool(DeflaterPool.DEFAULT_CAPACITY, peer.deflateLevel(), true));
    }
    WebSocketUpgradeHandler ws = WebSocketUpgradeHandler.from(server, container -> {
      container.setMaxTextMessageSize(PeerArgs.MAX_MESSAGE);
      container.setMaxBinaryMessageSize(PeerArgs.MAX_MESSAGE);
      container.setMaxFrameSize(PeerArgs.MAX_MESSAGE);
      container.setIdleTimeout(Duration.ofMinutes(10));
      container.addMapping(PeerArgs.ECHO_PATH, (request, response, callback) -> {
        if (!peer.deflate()) {
          response.setExtensions(List.of());
        }
        return new Echo();
      });
    });
    ws.setHandler(new Handler.Abstract() {
      @Override
      public boolean handle(Request request, Response response, Callback callback) {
        if (!"/".equals(Request.getPathInContext(request))) {
          return false;
        }
        response.setStatus(HttpStatus.OK_200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
        response.write(true, ByteBuffer.wrap(PeerArgs.HELLO.getBytes(StandardCharsets.US_ASCII)),
            callback);
        return true;
      }
    });
    server.setHandler(ws);
    server.start();
    peer.ready(connector.getAcceptors() + " acceptor thread(s), "
        + connector.getSelectorManager().getSelectorCount() + " selector(s), a pool of "
        + pool.getMinThreads() + "-" + pool.getMaxThreads() + " threads");
    server.join();
  }

  /** Echoes each message; public, as Jetty invokes endpoints through a public lookup. */
  public static final class Echo implements Session.Listener.AutoDemanding {
    private Session session;

    /** Creates the endpoint of one connection. */
    public Echo() {}

    @Override
    public void onWebSocketOpen(Session s) {
      session = s;
    }

    @Override
    public void onWebSocketText(String text) {
      session.sendText(text, org.eclipse.jetty.websocket.api.Callback.NOOP);
    }

    @Override
    public void onWebSocketBinary(ByteBuffer data, org.eclipse.jetty.websocket.api.Callback done) {
      // The buffer is Jetty's until done completes: send it, then release it.
      session.sendBinary(data, done);
    }
  }
}
