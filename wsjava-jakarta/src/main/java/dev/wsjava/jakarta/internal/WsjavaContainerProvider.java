package dev.wsjava.jakarta.internal;

import dev.wsjava.WebSocketConfig;
import jakarta.websocket.ContainerProvider;
import jakarta.websocket.WebSocketContainer;

/**
 * Gives {@link ContainerProvider#getWebSocketContainer()} wsjava's client container, found through
 * {@link java.util.ServiceLoader} ({@code META-INF/services} and the module's {@code provides}).
 * Each call makes a new container with wsjava's default configuration (NIO transport).
 */
public final class WsjavaContainerProvider extends ContainerProvider {

  /** Made by the ServiceLoader. */
  public WsjavaContainerProvider() {}

  @Override
  protected WebSocketContainer getContainer() {
    return new ClientContainer(WebSocketConfig.defaults());
  }
}
