package dev.wsjava.jakarta.diff;

import jakarta.websocket.WebSocketContainer;
import jakarta.websocket.server.ServerEndpointConfig;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.websocket.jakarta.client.JakartaWebSocketClientContainer;
import org.eclipse.jetty.ee11.websocket.jakarta.server.config.JakartaWebSocketServletContainerInitializer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** Jetty 12.1 embedded, ee11: a servlet context with the Jakarta WebSocket initializer. */
final class JettyContainer implements Container {
  private Server server;
  private final List<JakartaWebSocketClientContainer> clients = new ArrayList<>();

  @Override
  public String name() {
    return "jetty";
  }

  @Override
  public URI start(List<Class<?>> annotated, List<ServerEndpointConfig> configs) throws Exception {
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    JakartaWebSocketServletContainerInitializer.configure(context, (servletContext, sc) -> {
      for (Class<?> c : annotated) {
        sc.addEndpoint(c);
      }
      for (ServerEndpointConfig c : configs) {
        sc.addEndpoint(c);
      }
    });
    server.setHandler(context);
    server.start();
    return URI.create("ws://127.0.0.1:" + connector.getLocalPort());
  }

  @Override
  public WebSocketContainer client() throws Exception {
    JakartaWebSocketClientContainer c = new JakartaWebSocketClientContainer();
    c.start();
    clients.add(c);
    return c;
  }

  @Override
  public void stop() throws Exception {
    for (JakartaWebSocketClientContainer c : clients) {
      c.stop();
    }
    if (server != null) {
      server.stop();
    }
  }
}
