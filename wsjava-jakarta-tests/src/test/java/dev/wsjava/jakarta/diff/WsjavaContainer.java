package dev.wsjava.jakarta.diff;

import dev.wsjava.WebSocketConfig;
import dev.wsjava.jakarta.JakartaServer;
import dev.wsjava.jakarta.internal.ClientContainer;
import jakarta.websocket.WebSocketContainer;
import jakarta.websocket.server.ServerEndpointConfig;
import java.net.URI;
import java.util.List;

/**
 * wsjava's standalone server container ({@link JakartaServer}) and its client container, as a user
 * gets it from {@code ContainerProvider} (made directly here: Tomcat and Jetty provide one too).
 */
final class WsjavaContainer implements Container {
  private JakartaServer server;

  @Override
  public String name() {
    return "wsjava";
  }

  @Override
  public URI start(List<Class<?>> annotated, List<ServerEndpointConfig> configs) throws Exception {
    JakartaServer.Builder b = JakartaServer.builder().bind("127.0.0.1", 0);
    for (Class<?> c : annotated) {
      b.endpoint(c);
    }
    for (ServerEndpointConfig c : configs) {
      b.endpoint(c);
    }
    server = b.start();
    return URI.create("ws://127.0.0.1:" + server.port());
  }

  @Override
  public WebSocketContainer client() {
    return new ClientContainer(WebSocketConfig.defaults());
  }

  @Override
  public void stop() {
    if (server != null) {
      server.close();
    }
  }
}
