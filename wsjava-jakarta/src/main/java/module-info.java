/**
 * Jakarta WebSocket 2.2 on wsjava.
 *
 * <p>Exported: {@code dev.wsjava.jakarta} ({@link dev.wsjava.jakarta.JakartaServer}, the standalone
 * server container, and {@link dev.wsjava.jakarta.JakartaProperties}, the user-property keys). The
 * client container is reached through {@link jakarta.websocket.ContainerProvider}; the container's
 * default server configurator through {@link
 * jakarta.websocket.server.ServerEndpointConfig.Configurator}. Everything else is internal.
 */
module dev.wsjava.jakarta {
  requires transitive dev.wsjava;
  requires transitive jakarta.websocket;
  requires transitive jakarta.websocket.client;

  exports dev.wsjava.jakarta;

  provides jakarta.websocket.ContainerProvider with
      dev.wsjava.jakarta.internal.WsjavaContainerProvider;
  provides jakarta.websocket.server.ServerEndpointConfig.Configurator with
      dev.wsjava.jakarta.internal.DefaultServerConfigurator;
}
