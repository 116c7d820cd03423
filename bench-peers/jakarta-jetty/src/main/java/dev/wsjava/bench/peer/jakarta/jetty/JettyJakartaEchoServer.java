package dev.wsjava.bench.peer.jakarta.jetty;

import dev.wsjava.bench.peer.PeerArgs;
import dev.wsjava.bench.peer.jakarta.EchoTarget;
import dev.wsjava.bench.peer.jakarta.JakartaEcho;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.ee11.websocket.jakarta.server.config.JakartaWebSocketServletContainerInitializer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * {@link JakartaEcho} on embedded Jetty 12.1 (ee11 Jakarta WebSocket on a servlet context), with a
 * servlet answering {@code GET /}. Jetty's defaults otherwise. Command line: {@link PeerArgs} (no
 * TLS, no deflate).
 */
public final class JettyJakartaEchoServer {
  private JettyJakartaEchoServer() {}

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
      throw new IllegalArgumentException("the Jetty Jakarta target serves ws:// only");
    }
    QueuedThreadPool pool = new QueuedThreadPool();
    Server server = new Server(pool);
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(peer.host());
    connector.setPort(peer.port());
    connector.setAcceptQueueSize(4096);
    connector.setIdleTimeout(Duration.ofMinutes(10).toMillis());
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    context.addServlet(new ServletHolder(new HttpServlet() {
      private static final long serialVersionUID = 1L;

      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        resp.getWriter().write(PeerArgs.HELLO);
      }
    }), "/");
    JakartaWebSocketServletContainerInitializer.configure(context, (servletContext, container) -> {
      container.setDefaultMaxSessionIdleTimeout(Duration.ofMinutes(10).toMillis());
      container.setDefaultMaxTextMessageBufferSize(PeerArgs.MAX_MESSAGE);
      container.setDefaultMaxBinaryMessageBufferSize(PeerArgs.MAX_MESSAGE);
      container.addEndpoint(target.endpoint());
    });
    server.setHandler(context);
    server.start();
    peer.ready("jetty 12.1.14 ee11, a pool of " + pool.getMinThreads() + "-"
        + pool.getMaxThreads() + " threads" + (target.whole() ? ", whole messages" : ""));
    server.join();
  }
}
