package dev.wsjava.jakarta.internal;

import dev.wsjava.HandshakeDecision;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketListener;
import dev.wsjava.extension.PerMessageDeflate;
import jakarta.websocket.Decoder;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.Encoder;
import jakarta.websocket.Endpoint;
import jakarta.websocket.Extension;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpoint;
import jakarta.websocket.server.ServerEndpointConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The standalone server container: the deployed endpoints, the handshake decision made for their
 * paths (the configurator's part of §3.1.2 and §4.1), and the one wsjava listener every Jakarta
 * route shares, which hands each event to the connection's {@link JSession}. Endpoints are added
 * before the server starts; afterwards the container is read-only. Thread-safe.
 */
public final class ServerDeployment implements ServerContainer {
  private static final ServerEndpointConfig.Configurator DEFAULT = new DefaultServerConfigurator();
  private static final Set<String> HANDSHAKE_FIELDS =
      Set.of("upgrade", "connection", "sec-websocket-accept", "sec-websocket-protocol",
          "sec-websocket-extensions", "sec-websocket-version", "content-length");

  /** One deployed endpoint. */
  record Deployed(
      UriTemplate template,
      ServerEndpointConfig config,
      EndpointModel model,
      List<Codecs.DecoderType> decoders,
      List<Codecs.EncoderType> encoders,
      Set<Session> open) {}

  private final List<Deployed> deployed = new CopyOnWriteArrayList<>();
  private final ClientContainer defaults;
  private volatile boolean started;
  private volatile List<Deployed> order = List.of(); // the most specific first, fixed at the start
  private volatile Function<dev.wsjava.HandshakeRequest, HandshakeDecision> otherRoutes;
  private volatile boolean tls;

  /** The listener of every Jakarta route: the connection's session takes each event. */
  final WebSocketListener listener =
      new WebSocketListener() {
        @Override
        public void onOpen(WebSocket ws) {
          session(ws).onOpen(ws);
        }

        @Override
        public void onText(WebSocket ws, String text) {
          session(ws).onText(ws, text);
        }

        @Override
        public void onBinary(WebSocket ws, ByteBuffer data) {
          session(ws).onBinary(ws, data);
        }

        @Override
        public void onMessagePart(WebSocket ws, boolean text, ByteBuffer part, boolean last) {
          session(ws).onMessagePart(ws, text, part, last);
        }

        @Override
        public void onPong(WebSocket ws, ByteBuffer data) {
          session(ws).onPong(ws, data);
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
          session(ws).onError(ws, error);
        }

        @Override
        public void onClose(WebSocket ws, int code, String reason) {
          session(ws).onClose(ws, code, reason);
        }
      };

  private static JSession session(WebSocket ws) {
    return (JSession) ws.attachment();
  }

  /**
   * Makes an empty container.
   *
   * @param defaults the session defaults (idle timeout, buffer sizes) this container reports
   */
  public ServerDeployment(ClientContainer defaults) {
    this.defaults = defaults;
  }

  /**
   * Returns the deployed endpoints' paths, the most specific first.
   *
   * @return the paths
   */
  public List<String> paths() {
    List<String> out = new ArrayList<>();
    for (Deployed d : sorted()) {
      out.add(d.template().path());
    }
    return out;
  }

  /**
   * Returns whether an endpoint reads messages as streams or parts (the server must stream then).
   *
   * @return true when the server must stream messages
   */
  public boolean needsStreaming() {
    for (Deployed d : deployed) {
      if (d.model() != null && d.model().streams()) {
        return true; // a programmatic endpoint's handlers are unknown until onOpen: not counted
      }
    }
    return false;
  }

  /**
   * Called by the server once it runs: no endpoint may be added afterwards.
   *
   * @param overTls whether the server serves wss://
   * @param others the handshake hook of the server's other routes, or null
   */
  public void started(boolean overTls, Function<dev.wsjava.HandshakeRequest, HandshakeDecision> others) {
    tls = overTls;
    otherRoutes = others;
    order = List.copyOf(sorted());
    started = true;
  }

  /**
   * Returns the listener every Jakarta route shares.
   *
   * @return the listener
   */
  public WebSocketListener listener() {
    return listener;
  }

  private List<Deployed> sorted() {
    List<Deployed> list = new ArrayList<>(deployed);
    list.sort((a, b) -> UriTemplate.byPrecedence(a.template(), b.template()));
    return list;
  }

  // -------------------------------------------------------------------------------------------
  // Deployment

  @Override
  public void addEndpoint(Class<?> endpointClass) throws DeploymentException {
    ServerEndpoint a = endpointClass.getAnnotation(ServerEndpoint.class);
    if (a == null) {
      throw new DeploymentException(endpointClass.getName() + " has no @ServerEndpoint annotation");
    }
    ServerEndpointConfig.Configurator configurator = DEFAULT;
    if (a.configurator() != ServerEndpointConfig.Configurator.class) {
      try {
        configurator = a.configurator().getConstructor().newInstance();
      } catch (ReflectiveOperationException e) {
        throw new DeploymentException("cannot make configurator " + a.configurator().getName(), e);
      }
    }
    ServerEndpointConfig config =
        ServerEndpointConfig.Builder.create(endpointClass, a.value())
            .subprotocols(List.of(a.subprotocols()))
            .decoders(List.of(a.decoders()))
            .encoders(List.of(a.encoders()))
            .configurator(configurator)
            .build();
    add(config);
  }

  @Override
  public void addEndpoint(ServerEndpointConfig config) throws DeploymentException {
    add(config);
  }

  private synchronized void add(ServerEndpointConfig config) throws DeploymentException {
    if (started) {
      throw new DeploymentException(
          "the server is running: deploy endpoints before JakartaServer.Builder.start()");
    }
    UriTemplate template = UriTemplate.parse(config.getPath());
    for (Deployed d : deployed) {
      if (d.template().sameShape(template)) {
        throw new DeploymentException(
            "two endpoints at the same path: " + d.template() + " and " + template);
      }
    }
    List<Codecs.DecoderType> decoders = new ArrayList<>();
    for (Class<? extends Decoder> d : config.getDecoders()) {
      decoders.add(Codecs.DecoderType.of(d));
    }
    List<Codecs.EncoderType> encoders = new ArrayList<>();
    for (Class<? extends Encoder> e : config.getEncoders()) {
      encoders.add(Codecs.EncoderType.of(e));
    }
    Class<?> type = config.getEndpointClass();
    EndpointModel model = null;
    if (!Endpoint.class.isAssignableFrom(type)) {
      model = EndpointModel.scan(type, decoders);
    }
    deployed.add(
        new Deployed(template, config, model, List.copyOf(decoders), List.copyOf(encoders),
            ConcurrentHashMap.newKeySet()));
  }

  /**
   * Not here: upgrading a servlet request needs a servlet container.
   *
   * @throws UnsupportedOperationException always
   */
  @Override
  public void upgradeHttpToWebSocket(
      Object httpServletRequest, Object httpServletResponse, ServerEndpointConfig sec,
      Map<String, String> pathParameters) {
    throw new UnsupportedOperationException(
        "upgradeHttpToWebSocket needs a servlet container (it takes an HttpServletRequest);"
            + " wsjava's standalone container upgrades the requests to its deployed paths itself:"
            + " deploy the endpoint with addEndpoint before the server starts");
  }

  // -------------------------------------------------------------------------------------------
  // The handshake

  /**
   * Decides an upgrade: for a Jakarta path, what its configurator says (origin, subprotocol,
   * extensions, modified response, the endpoint instance); for another path, the other routes'
   * hook, or acceptance.
   *
   * @param request the upgrade request
   * @return the decision
   */
  public HandshakeDecision decide(dev.wsjava.HandshakeRequest request) {
    Deployed d = null;
    Map<String, String> params = null;
    for (Deployed candidate : order) {
      params = candidate.template().match(request.path());
      if (params != null) {
        d = candidate;
        break;
      }
    }
    if (d == null) {
      Function<dev.wsjava.HandshakeRequest, HandshakeDecision> others = otherRoutes;
      return others == null ? HandshakeDecision.accept() : others.apply(request);
    }
    ServerEndpointConfig shared = d.config();
    ServerEndpointConfig.Configurator c = shared.getConfigurator();
    if (!c.checkOrigin(request.header("Origin"))) {
      return HandshakeDecision.reject(403).body("origin not allowed");
    }
    PerSessionConfig config = new PerSessionConfig(shared);
    String subprotocol =
        c.getNegotiatedSubprotocol(config.getSubprotocols(), request.subprotocols());
    List<Extension> requested = JExtension.parseAll(request.extensions());
    List<Extension> negotiated = c.getNegotiatedExtensions(defaults.getInstalledExtensionList(), requested);
    // The core negotiates permessage-deflate (its only extension) when both sides have it; the
    // configurator may decline it (§3.1.3), not add what the core did not negotiate.
    boolean keepDeflate =
        negotiated != null
            && negotiated.stream().anyMatch(e -> e != null && PerMessageDeflate.NAME.equals(e.getName()));
    URI uri = requestUri(request);
    Principal principal = principal(request);
    Handshakes.Request view = Handshakes.Request.of(request, uri, principal);
    Handshakes.Response response = Handshakes.Response.empty();
    c.modifyHandshake(config, view, response);
    Endpoint endpoint;
    try {
      Object instance = c.getEndpointInstance(shared.getEndpointClass());
      endpoint = d.model() == null ? (Endpoint) instance : new AnnotatedEndpoint(d.model(), instance);
    } catch (InstantiationException | RuntimeException e) {
      return HandshakeDecision.reject(500).body("cannot make the endpoint");
    }
    Map<String, List<String>> parameters = new java.util.LinkedHashMap<>(view.getParameterMap());
    JSession session =
        new JSession(
            endpoint, config, this, d.open(), uri, params, java.util.Collections.unmodifiableMap(parameters),
            principal, config.getUserProperties(), d.decoders(), d.encoders(),
            request.tlsSession() != null,
            defaults.getDefaultMaxTextMessageBufferSize(),
            defaults.getDefaultMaxBinaryMessageBufferSize(),
            defaults.getDefaultMaxSessionIdleTimeout());
    HandshakeDecision decision =
        HandshakeDecision.accept()
            .subprotocol(subprotocol == null || subprotocol.isEmpty() ? null : subprotocol)
            .attach(session);
    if (!keepDeflate) {
      decision = decision.withoutExtensions();
    }
    for (Map.Entry<String, List<String>> e : response.getHeaders().entrySet()) {
      if (HANDSHAKE_FIELDS.contains(e.getKey().toLowerCase(Locale.ROOT))) {
        continue; // the handshake writes these itself
      }
      for (String v : e.getValue()) {
        decision = decision.header(e.getKey(), v);
      }
    }
    return decision;
  }

  private URI requestUri(dev.wsjava.HandshakeRequest request) {
    String host = request.header("Host");
    try {
      return new URI((tls ? "wss://" : "ws://") + (host == null ? "localhost" : host) + request.target());
    } catch (java.net.URISyntaxException e) {
      return URI.create(request.path());
    }
  }

  private static Principal principal(dev.wsjava.HandshakeRequest request) {
    if (request.tlsSession() == null) {
      return null;
    }
    try {
      return request.tlsSession().getPeerPrincipal();
    } catch (javax.net.ssl.SSLPeerUnverifiedException e) {
      return null;
    }
  }

  // -------------------------------------------------------------------------------------------
  // WebSocketContainer: the session defaults, and a client to connect out with

  @Override
  public long getDefaultAsyncSendTimeout() {
    return defaults.getDefaultAsyncSendTimeout();
  }

  @Override
  public void setAsyncSendTimeout(long timeout) {
    defaults.setAsyncSendTimeout(timeout);
  }

  @Override
  public Session connectToServer(Object annotated, URI path) throws DeploymentException, IOException {
    return defaults.connectToServer(annotated, path);
  }

  @Override
  public Session connectToServer(Class<?> annotated, URI path) throws DeploymentException, IOException {
    return defaults.connectToServer(annotated, path);
  }

  @Override
  public Session connectToServer(Endpoint endpoint, jakarta.websocket.ClientEndpointConfig config, URI path)
      throws DeploymentException, IOException {
    return defaults.connectToServer(endpoint, config, path);
  }

  @Override
  public Session connectToServer(
      Class<? extends Endpoint> endpoint, jakarta.websocket.ClientEndpointConfig config, URI path)
      throws DeploymentException, IOException {
    return defaults.connectToServer(endpoint, config, path);
  }

  @Override
  public long getDefaultMaxSessionIdleTimeout() {
    return defaults.getDefaultMaxSessionIdleTimeout();
  }

  @Override
  public void setDefaultMaxSessionIdleTimeout(long timeout) {
    defaults.setDefaultMaxSessionIdleTimeout(timeout);
  }

  @Override
  public int getDefaultMaxBinaryMessageBufferSize() {
    return defaults.getDefaultMaxBinaryMessageBufferSize();
  }

  @Override
  public void setDefaultMaxBinaryMessageBufferSize(int max) {
    defaults.setDefaultMaxBinaryMessageBufferSize(max);
  }

  @Override
  public int getDefaultMaxTextMessageBufferSize() {
    return defaults.getDefaultMaxTextMessageBufferSize();
  }

  @Override
  public void setDefaultMaxTextMessageBufferSize(int max) {
    defaults.setDefaultMaxTextMessageBufferSize(max);
  }

  @Override
  public Set<Extension> getInstalledExtensions() {
    return defaults.getInstalledExtensions();
  }
}
