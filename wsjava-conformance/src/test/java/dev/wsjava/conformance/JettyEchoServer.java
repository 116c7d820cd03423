package dev.wsjava.conformance;

import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

/**
 * A Jetty 12 echo server (the Jetty API, as wsjava-interop sets it up) on loopback: a known-good
 * peer that checks the suite itself. Limits are raised to group 9's largest message.
 */
final class JettyEchoServer implements AutoCloseable {
  private static final int LIMIT = 16 << 20;

  private final Server server;
  private final ServerConnector connector;

  JettyEchoServer() throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(16, 2);
    threads.setName("jetty-echo");
    server = new Server(threads);
    connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(WebSocketUpgradeHandler.from(server, container -> {
      container.setMaxTextMessageSize(LIMIT);
      container.setMaxBinaryMessageSize(LIMIT);
      container.setMaxFrameSize(LIMIT);
      container.setIdleTimeout(Duration.ofSeconds(30));
      container.addMapping("/echo", (request, response, callback) -> new Echo());
    }));
    server.start();
  }

  URI echoUri() {
    return URI.create("ws://127.0.0.1:" + connector.getLocalPort() + "/echo");
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("Jetty did not stop", e);
    }
  }

  /** Echoes every message. Public: Jetty calls it through a public method-handle lookup. */
  public static final class Echo implements Session.Listener.AutoDemanding {
    private volatile Session session;

    @Override
    public void onWebSocketOpen(Session s) {
      session = s;
    }

    @Override
    public void onWebSocketText(String text) {
      session.sendText(text, Callback.NOOP);
    }

    @Override
    public void onWebSocketBinary(ByteBuffer data, Callback callback) {
      ByteBuffer copy = ByteBuffer.allocate(data.remaining()).put(data).flip();
      callback.succeed();
      session.sendBinary(copy, Callback.NOOP);
    }
  }
}
