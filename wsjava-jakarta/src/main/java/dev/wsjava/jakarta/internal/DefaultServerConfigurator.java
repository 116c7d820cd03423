package dev.wsjava.jakarta.internal;

import jakarta.websocket.Extension;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.server.HandshakeRequest;
import jakarta.websocket.server.ServerEndpointConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * wsjava's default server configurator, found by {@code ServerEndpointConfig.Configurator}
 * through {@link java.util.ServiceLoader} (Jakarta WebSocket 2.2 §3.1.2): the first subprotocol
 * of the client's that the endpoint supports, the extensions both sides name (in the client's
 * order), every origin, no change to the handshake, and a new instance per connection by the public
 * no-argument constructor. Stateless and thread-safe.
 */
public final class DefaultServerConfigurator extends ServerEndpointConfig.Configurator {

  /** Made by the ServiceLoader. */
  public DefaultServerConfigurator() {}

  @Override
  public String getNegotiatedSubprotocol(List<String> supported, List<String> requested) {
    for (String r : requested) {
      if (supported.contains(r)) {
        return r;
      }
    }
    return "";
  }

  @Override
  public List<Extension> getNegotiatedExtensions(List<Extension> installed, List<Extension> requested) {
    List<Extension> out = new ArrayList<>();
    for (Extension r : requested) {
      for (Extension i : installed) {
        if (i.getName().equals(r.getName())) {
          out.add(r);
          break;
        }
      }
    }
    return out;
  }

  @Override
  public boolean checkOrigin(String originHeaderValue) {
    return true;
  }

  @Override
  public void modifyHandshake(ServerEndpointConfig sec, HandshakeRequest request, HandshakeResponse response) {}

  @Override
  public <T> T getEndpointInstance(Class<T> endpointClass) throws InstantiationException {
    try {
      return endpointClass.getConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      InstantiationException ie =
          new InstantiationException(
              "cannot make " + endpointClass.getName() + ": it needs a public no-argument constructor");
      ie.initCause(e);
      throw ie;
    }
  }
}
