package dev.wsjava.jakarta.internal;

import jakarta.websocket.Decoder;
import jakarta.websocket.Encoder;
import jakarta.websocket.Extension;
import jakarta.websocket.server.ServerEndpointConfig;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A deployed endpoint's configuration as one connection sees it: the same in every respect but
 * the user properties, which start as a copy of the deployment's and then belong to the
 * connection (what {@code modifyHandshake} puts there reaches the session, and no other).
 */
final class PerSessionConfig implements ServerEndpointConfig {
  private final ServerEndpointConfig shared;
  private final Map<String, Object> properties;

  PerSessionConfig(ServerEndpointConfig shared) {
    this.shared = shared;
    this.properties = new ConcurrentHashMap<>(shared.getUserProperties());
  }

  @Override
  public Class<?> getEndpointClass() {
    return shared.getEndpointClass();
  }

  @Override
  public String getPath() {
    return shared.getPath();
  }

  @Override
  public List<String> getSubprotocols() {
    return shared.getSubprotocols();
  }

  @Override
  public List<Extension> getExtensions() {
    return shared.getExtensions();
  }

  @Override
  public Configurator getConfigurator() {
    return shared.getConfigurator();
  }

  @Override
  public List<Class<? extends Encoder>> getEncoders() {
    return shared.getEncoders();
  }

  @Override
  public List<Class<? extends Decoder>> getDecoders() {
    return shared.getDecoders();
  }

  @Override
  public Map<String, Object> getUserProperties() {
    return properties;
  }
}
