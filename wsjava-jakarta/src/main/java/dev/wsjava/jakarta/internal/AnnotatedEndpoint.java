package dev.wsjava.jakarta.internal;

import jakarta.websocket.CloseReason;
import jakarta.websocket.Decoder;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.Session;
import java.lang.invoke.MethodHandle;

/**
 * An annotated endpoint instance seen as an {@link Endpoint}: its methods are called through the
 * handles its {@link EndpointModel} resolved once per class. One per session.
 */
final class AnnotatedEndpoint extends Endpoint {
  private static final System.Logger LOG = System.getLogger("dev.wsjava.jakarta");
  private final EndpointModel model;
  private final Object pojo;

  AnnotatedEndpoint(EndpointModel model, Object pojo) {
    this.model = model;
    this.pojo = pojo;
  }

  Object pojo() {
    return pojo;
  }

  @Override
  public void onOpen(Session session, EndpointConfig config) {
    JSession s = (JSession) session;
    s.sinks(sink(model.text, s), sink(model.binary, s), sink(model.pong, s));
    call(model.onOpen, s, config);
  }

  private Sink sink(EndpointModel.MessageMethod m, JSession s) {
    if (m == null) {
      return null;
    }
    MethodHandle h = m.handle();
    Object target = pojo;
    Decoder[] decoders = null;
    if (!m.decoders().isEmpty()) {
      decoders = new Decoder[m.decoders().size()];
      for (int i = 0; i < decoders.length; i++) {
        decoders[i] = s.codecs().decoder(m.decoders().get(i));
      }
    }
    return new Sink(
        m.raw(), (message, last) -> (Object) h.invokeExact(target, s, message, last),
        m.maxMessageSize(), decoders, m.primitive(), null);
  }

  @Override
  public void onClose(Session session, CloseReason reason) {
    call(model.onClose, (JSession) session, reason);
  }

  @Override
  public void onError(Session session, Throwable error) {
    if (model.onError == null) {
      LOG.log(System.Logger.Level.WARNING, model.type.getName() + " has no @OnError method for this error", error);
      return;
    }
    call(model.onError, (JSession) session, error);
  }

  private void call(MethodHandle h, JSession s, Object argument) {
    if (h == null) {
      return;
    }
    try {
      Object ignored = (Object) h.invokeExact(pojo, s, argument, false);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new java.lang.reflect.UndeclaredThrowableException(t);
    }
  }
}
