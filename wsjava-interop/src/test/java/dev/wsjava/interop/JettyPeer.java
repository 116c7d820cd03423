package dev.wsjava.interop;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.ExtensionConfig;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

/**
 * A Jetty 12 WebSocket server (the Jetty API, not Jakarta) following {@link PeerServer}. Public, as
 * is its endpoint: Jetty calls the endpoint through a public method-handle lookup.
 */
public final class JettyPeer implements PeerServer {
  private final Server server;
  private final ServerConnector connector;
  private final boolean tls;
  private final BlockingQueue<String> closesSeen = new LinkedBlockingQueue<>();

  private JettyPeer(Deflate deflate, SelfSigned cert) throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(16, 2);
    threads.setName("jetty-peer");
    server = new Server(threads);
    tls = cert != null;
    if (tls) {
      SslContextFactory.Server ssl = new SslContextFactory.Server();
      ssl.setKeyStorePath(cert.pkcs12().toString());
      ssl.setKeyStorePassword(new String(cert.password()));
      ssl.setKeyStoreType("PKCS12");
      connector = new ServerConnector(server, ssl);
    } else {
      connector = new ServerConnector(server);
    }
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(WebSocketUpgradeHandler.from(server, container -> {
      // Jetty's defaults are 64 KiB per message: too small for the 1 MiB payloads.
      container.setMaxTextMessageSize(4 << 20);
      container.setMaxBinaryMessageSize(4 << 20);
      container.setIdleTimeout(Duration.ofSeconds(30));
      container.addMapping("/echo", (request, response, callback) -> {
        switch (deflate) {
          // Jetty accepts permessage-deflate by default; "off" answers no extension.
          case OFF -> response.setExtensions(List.of());
          case ON -> {}
          case SMALL_WINDOWS ->
              throw new UnsupportedOperationException("Jetty does not limit deflate windows");
          case DEMAND_CLIENT_NO_CONTEXT_TAKEOVER -> {
            List<ExtensionConfig> demanded = new ArrayList<>();
            for (ExtensionConfig e : response.getExtensions()) {
              if (e.getName().equals("permessage-deflate")) {
                e = ExtensionConfig.parse(e.getParameterizedName() + "; client_no_context_takeover");
              }
              demanded.add(e);
            }
            response.setExtensions(demanded);
          }
        }
        return new Endpoint(closesSeen);
      });
    }));
    server.start();
  }

  static JettyPeer start(Deflate deflate, SelfSigned certOrNull) throws Exception {
    return new JettyPeer(deflate, certOrNull);
  }

  @Override
  public int port() {
    return connector.getLocalPort();
  }

  @Override
  public boolean tls() {
    return tls;
  }

  @Override
  public BlockingQueue<String> closesSeen() {
    return closesSeen;
  }

  @Override
  public void stop() throws Exception {
    server.stop();
  }

  /** The echo endpoint, one per connection. */
  public static final class Endpoint implements Session.Listener.AutoDemanding {
    private final BlockingQueue<String> closesSeen;
    private volatile Session session;

    Endpoint(BlockingQueue<String> closesSeen) {
      this.closesSeen = closesSeen;
    }

    @Override
    public void onWebSocketOpen(Session s) {
      session = s;
    }

    @Override
    public void onWebSocketText(String text) {
      if (text.startsWith("!close ")) {
        String[] parts = text.split(" ", 3);
        session.close(Integer.parseInt(parts[1]), parts[2], Callback.NOOP);
      } else if (text.startsWith("!frag ")) {
        sendFragments(List.of(text.substring(6).split("\\|")), 0);
      } else if (text.startsWith("!ping ")) {
        session.sendPing(ByteBuffer.wrap(Interop.utf8(text.substring(6))), Callback.NOOP);
      } else {
        session.sendText(text, Callback.NOOP);
      }
    }

    /** One fragment at a time: Jetty wants each partial send complete before the next. */
    private void sendFragments(List<String> parts, int i) {
      boolean last = i == parts.size() - 1;
      session.sendPartialText(parts.get(i), last,
          Callback.from(() -> {
            if (!last) {
              sendFragments(parts, i + 1);
            }
          }, Throwable::printStackTrace));
    }

    @Override
    public void onWebSocketBinary(ByteBuffer data, Callback callback) {
      ByteBuffer copy = ByteBuffer.allocate(data.remaining()).put(data).flip();
      callback.succeed();
      session.sendBinary(copy, Callback.NOOP);
    }

    @Override
    public void onWebSocketPong(ByteBuffer payload) {
      session.sendText("!pong " + StandardCharsets.UTF_8.decode(payload), Callback.NOOP);
    }

    @Override
    public void onWebSocketClose(int code, String reason, Callback callback) {
      closesSeen.add(code + " " + reason);
      callback.succeed();
    }
  }
}
