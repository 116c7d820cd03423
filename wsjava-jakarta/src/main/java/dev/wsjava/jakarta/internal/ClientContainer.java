package dev.wsjava.jakarta.internal;

import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketProxy;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.jakarta.JakartaProperties;
import jakarta.websocket.ClientEndpoint;
import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.Decoder;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.Encoder;
import jakarta.websocket.Endpoint;
import jakarta.websocket.Extension;
import jakarta.websocket.Session;
import jakarta.websocket.WebSocketContainer;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The client container (Jakarta WebSocket 2.2 §2.1, §6): each {@code connectToServer} opens one
 * wsjava connection with the endpoint's subprotocols, extensions, the configurator's header fields,
 * TLS and proxy, and gives back its {@link Session}. Each connection has a wsjava client of its own
 * (the header fields and subprotocols are per connection), closed with it. Thread-safe.
 */
public final class ClientContainer implements WebSocketContainer {
  private static final ClassValue<Object> MODELS =
      new ClassValue<>() {
        @Override
        protected Object computeValue(Class<?> type) {
          ClientEndpoint a = type.getAnnotation(ClientEndpoint.class);
          if (a == null) {
            return new DeploymentException(type.getName() + " has no @ClientEndpoint annotation");
          }
          try {
            List<Codecs.DecoderType> decoders = new ArrayList<>();
            for (Class<? extends Decoder> d : a.decoders()) {
              decoders.add(Codecs.DecoderType.of(d));
            }
            return EndpointModel.scan(type, decoders);
          } catch (DeploymentException e) {
            return e;
          }
        }
      };

  private final WebSocketConfig base;
  private final Set<Session> open = JSession.newOpenSet();
  private volatile long asyncSendTimeout = -1;
  private volatile long maxIdle;
  private volatile int maxText;
  private volatile int maxBinary;

  /**
   * Makes a container whose connections start from this configuration.
   *
   * @param base transport, limits, timeouts; its deflate settings are used when an endpoint asks
   *     for permessage-deflate
   */
  public ClientContainer(WebSocketConfig base) {
    this.base = base;
    int max = (int) Math.min(Integer.MAX_VALUE, base.maxMessageSize());
    this.maxText = max;
    this.maxBinary = max;
    this.maxIdle = base.idleTimeout() == null ? 0 : base.idleTimeout().toMillis();
  }

  /** The extensions this container can use: permessage-deflate when the base config has it. */
  List<Extension> getInstalledExtensionList() {
    return base.deflate() == null
        ? List.of()
        : List.of(new JExtension(PerMessageDeflate.NAME, List.of()));
  }

  @Override
  public Set<Extension> getInstalledExtensions() {
    return Set.copyOf(getInstalledExtensionList());
  }

  // -------------------------------------------------------------------------------------------
  // connectToServer

  @Override
  public Session connectToServer(Object annotated, URI path) throws DeploymentException, IOException {
    if (annotated instanceof Endpoint e) {
      return connectToServer(e, ClientEndpointConfig.Builder.create().build(), path);
    }
    EndpointModel model = model(annotated.getClass());
    ClientEndpoint a = annotated.getClass().getAnnotation(ClientEndpoint.class);
    ClientEndpointConfig.Configurator configurator;
    try {
      configurator = a.configurator().getConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new DeploymentException("cannot make configurator " + a.configurator().getName(), e);
    }
    ClientEndpointConfig config =
        ClientEndpointConfig.Builder.create()
            .preferredSubprotocols(List.of(a.subprotocols()))
            .decoders(List.of(a.decoders()))
            .encoders(List.of(a.encoders()))
            .configurator(configurator)
            .build();
    return connect(new AnnotatedEndpoint(model, annotated), model, config, path);
  }

  @Override
  public Session connectToServer(Class<?> annotated, URI path) throws DeploymentException, IOException {
    return connectToServer(instantiate(annotated), path);
  }

  @Override
  public Session connectToServer(Endpoint endpoint, ClientEndpointConfig config, URI path)
      throws DeploymentException, IOException {
    return connect(endpoint, null, config, path);
  }

  @Override
  public Session connectToServer(
      Class<? extends Endpoint> endpoint, ClientEndpointConfig config, URI path)
      throws DeploymentException, IOException {
    return connect(instantiate(endpoint), null, config, path);
  }

  private static EndpointModel model(Class<?> type) throws DeploymentException {
    Object m = MODELS.get(type);
    if (m instanceof DeploymentException e) {
      throw new DeploymentException(e.getMessage(), e);
    }
    return (EndpointModel) m;
  }

  private static <T> T instantiate(Class<T> type) throws DeploymentException {
    try {
      return type.getConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new DeploymentException(
          "cannot make " + type.getName() + ": it needs a public no-argument constructor", e);
    }
  }

  private Session connect(Endpoint endpoint, EndpointModel model, ClientEndpointConfig config, URI uri)
      throws DeploymentException, IOException {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("ws") && !scheme.equals("wss")) {
      throw new DeploymentException("a WebSocket URI is ws:// or wss://: " + uri);
    }
    List<Codecs.DecoderType> decoders = new ArrayList<>();
    for (Class<? extends Decoder> d : config.getDecoders()) {
      decoders.add(Codecs.DecoderType.of(d));
    }
    List<Codecs.EncoderType> encoders = new ArrayList<>();
    for (Class<? extends Encoder> e : config.getEncoders()) {
      encoders.add(Codecs.EncoderType.of(e));
    }
    Map<String, Object> props = config.getUserProperties();
    Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    config.getConfigurator().beforeRequest(headers);

    WebSocketConfig.Builder c = base.toBuilder()
        .subprotocols(config.getPreferredSubprotocols())
        .streamMessages(model == null || model.streams())
        .eventLoops(1);
    boolean deflate = false;
    for (Extension e : config.getExtensions()) {
      deflate |= e.getName().equals(PerMessageDeflate.NAME);
    }
    c.deflate(deflate ? (base.deflate() == null ? PerMessageDeflate.defaults() : base.deflate()) : null);
    Object transport = props.get(JakartaProperties.TRANSPORT);
    if (transport != null) {
      c.transport(transport instanceof Transport t ? t : Transport.valueOf(transport.toString().toUpperCase(Locale.ROOT)));
    }
    long idle = maxIdle;
    if (idle > 0) {
      c.idleTimeout(java.time.Duration.ofMillis(idle));
    }
    WebSocketClient.Builder b = WebSocketClient.builder().config(c.build());
    for (Map.Entry<String, List<String>> h : headers.entrySet()) {
      for (String v : h.getValue()) {
        if (h.getKey().equalsIgnoreCase("Origin")) {
          b.origin(v);
        } else {
          b.header(h.getKey(), v);
        }
      }
    }
    javax.net.ssl.SSLContext ssl = config.getSSLContext();
    if (ssl == null && props.get(JakartaProperties.SSL_CONTEXT) instanceof javax.net.ssl.SSLContext s) {
      ssl = s;
    }
    if (ssl != null) {
      b.tls(ssl);
    }
    Object proxy = props.get(JakartaProperties.PROXY);
    if (proxy instanceof WebSocketProxy p) {
      b.proxy(p);
    } else if (proxy != null) {
      b.proxy(WebSocketProxy.parse(proxy.toString()));
    }
    WebSocketClient client = b.build();
    Map<String, List<String>> query = parseQuery(uri.getRawQuery());
    JSession session =
        new JSession(
            endpoint, config, this, open, uri, Map.of(), query, null,
            new java.util.concurrent.ConcurrentHashMap<>(props), decoders, encoders,
            scheme.equals("wss"), maxText, maxBinary, idle);
    session.afterResponse(config.getConfigurator());
    WebSocket ws;
    try {
      long timeout = base.handshakeTimeout().toMillis() + 5_000;
      ws = client.connect(uri, session).get(timeout, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      client.close();
      Throwable cause = e.getCause();
      throw new DeploymentException("cannot connect to " + uri + ": " + cause.getMessage(), cause);
    } catch (TimeoutException e) {
      client.close();
      throw new IOException("the handshake with " + uri + " took too long", e);
    } catch (InterruptedException e) {
      client.close();
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while connecting to " + uri);
    }
    ws.closeFuture().whenComplete((v, e) -> Thread.ofVirtual().start(client::close));
    return session;
  }

  private static Map<String, List<String>> parseQuery(String query) {
    Map<String, List<String>> out = new java.util.LinkedHashMap<>();
    if (query == null || query.isEmpty()) {
      return Map.of();
    }
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      String k = decode(eq < 0 ? pair : pair.substring(0, eq));
      String v = eq < 0 ? "" : decode(pair.substring(eq + 1));
      out.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
    }
    return java.util.Collections.unmodifiableMap(out);
  }

  private static String decode(String s) {
    try {
      return java.net.URLDecoder.decode(s, java.nio.charset.StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return s;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Defaults

  @Override
  public long getDefaultAsyncSendTimeout() {
    return asyncSendTimeout;
  }

  @Override
  public void setAsyncSendTimeout(long timeout) {
    asyncSendTimeout = timeout;
  }

  @Override
  public long getDefaultMaxSessionIdleTimeout() {
    return maxIdle;
  }

  @Override
  public void setDefaultMaxSessionIdleTimeout(long timeout) {
    maxIdle = timeout;
  }

  @Override
  public int getDefaultMaxBinaryMessageBufferSize() {
    return maxBinary;
  }

  @Override
  public void setDefaultMaxBinaryMessageBufferSize(int max) {
    maxBinary = max;
  }

  @Override
  public int getDefaultMaxTextMessageBufferSize() {
    return maxText;
  }

  @Override
  public void setDefaultMaxTextMessageBufferSize(int max) {
    maxText = max;
  }
}
