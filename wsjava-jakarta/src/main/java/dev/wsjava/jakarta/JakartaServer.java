package dev.wsjava.jakarta;

import dev.wsjava.HandshakeDecision;
import dev.wsjava.HandshakeRequest;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketServer;
import dev.wsjava.jakarta.internal.ClientContainer;
import dev.wsjava.jakarta.internal.ServerDeployment;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpointConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A standalone Jakarta WebSocket server container on a wsjava server: deploys {@code
 * @ServerEndpoint} classes and {@link ServerEndpointConfig}s, as Tyrus's standalone server takes
 * endpoint classes, beside wsjava's own WebSocket and HTTP routes on the same port.
 *
 * <pre>{@code
 * JakartaServer server = JakartaServer.builder()
 *     .bind("0.0.0.0", 8080)
 *     .endpoint(ChatEndpoint.class)                       // @ServerEndpoint("/chat/{room}")
 *     .routes(b -> b.get("/", req -> HttpResponse.text(200, "hello")))
 *     .start();
 * }</pre>
 *
 * <p>Thread-safe. {@link #close()} closes every connection with 1001, as {@link WebSocketServer}
 * does.
 */
public final class JakartaServer implements AutoCloseable {
  private final WebSocketServer server;
  private final ServerDeployment container;

  private JakartaServer(WebSocketServer server, ServerDeployment container) {
    this.server = server;
    this.container = container;
  }

  /**
   * Starts building a server.
   *
   * @return a builder bound to localhost:8080 until told otherwise
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the port the server listens on.
   *
   * @return the bound port
   */
  public int port() {
    return server.port();
  }

  /**
   * Returns the Jakarta server container: the session defaults, and a client container to connect
   * out with. Its {@code addEndpoint} throws once the server runs (deploy with the builder).
   *
   * @return the container
   */
  public ServerContainer container() {
    return container;
  }

  /**
   * Returns the wsjava server underneath: its counters, its address.
   *
   * @return the server
   */
  public WebSocketServer server() {
    return server;
  }

  /**
   * Stops accepting, sends 1001 to every connection and waits up to {@code grace}.
   *
   * @param grace the longest wait
   * @return true when everything closed in time
   * @throws InterruptedException when interrupted while waiting
   */
  public boolean shutdown(Duration grace) throws InterruptedException {
    return server.shutdown(grace);
  }

  /** Shuts down with {@link WebSocketServer#DEFAULT_SHUTDOWN_GRACE}. */
  @Override
  public void close() {
    server.close();
  }

  /** Configures and starts a {@link JakartaServer}. Not thread-safe. */
  public static final class Builder {
    private String host = "localhost";
    private int port = 8080;
    private WebSocketConfig config = WebSocketConfig.defaults();
    private final List<Class<?>> classes = new ArrayList<>();
    private final List<ServerEndpointConfig> configs = new ArrayList<>();
    private final List<Consumer<WebSocketServer.Builder>> routes = new ArrayList<>();
    private Function<HandshakeRequest, HandshakeDecision> otherHook;
    private javax.net.ssl.SSLContext tls;
    private Consumer<ServerContainer> defaults = c -> {};

    private Builder() {}

    /**
     * Sets the address to listen on.
     *
     * @param host for example {@code 127.0.0.1} or {@code 0.0.0.0}
     * @param port the port, 0 for any free one
     * @return this builder
     */
    public Builder bind(String host, int port) {
      this.host = Objects.requireNonNull(host, "host");
      this.port = port;
      return this;
    }

    /**
     * Sets the wsjava configuration: transport (NIO by default, or BLOCKING), limits, deflate,
     * timeouts. Its message size limit is the sessions' default buffer size; the server streams
     * messages ({@link WebSocketConfig.Builder#streamMessages}) when an endpoint takes a {@code
     * Reader}, an {@code InputStream}, parts, or a stream decoder.
     *
     * @param value the configuration
     * @return this builder
     */
    public Builder config(WebSocketConfig value) {
      config = Objects.requireNonNull(value, "config");
      return this;
    }

    /**
     * Serves {@code wss://} with this context.
     *
     * @param context the server's TLS context
     * @return this builder
     */
    public Builder tls(javax.net.ssl.SSLContext context) {
      tls = Objects.requireNonNull(context, "context");
      return this;
    }

    /**
     * Deploys an annotated endpoint class ({@code @ServerEndpoint}); checked when the server
     * starts.
     *
     * @param endpointClass the class
     * @return this builder
     */
    public Builder endpoint(Class<?> endpointClass) {
      classes.add(Objects.requireNonNull(endpointClass, "endpointClass"));
      return this;
    }

    /**
     * Deploys a programmatic endpoint (an {@code Endpoint} subclass) or an annotated class with
     * a configuration of its own.
     *
     * @param endpointConfig the configuration
     * @return this builder
     */
    public Builder endpoint(ServerEndpointConfig endpointConfig) {
      configs.add(Objects.requireNonNull(endpointConfig, "endpointConfig"));
      return this;
    }

    /**
     * Sets the session defaults before the server starts (idle timeout, buffer sizes).
     *
     * @param value called once with the container
     * @return this builder
     */
    public Builder containerDefaults(Consumer<ServerContainer> value) {
      defaults = Objects.requireNonNull(value, "value");
      return this;
    }

    /**
     * Adds wsjava's own routes beside the Jakarta endpoints: WebSocket listeners and handlers,
     * plain HTTP routes, static files. Do not set the builder's {@code onHandshake} here: the
     * Jakarta endpoints' configurators decide their upgrades through it; give the hook of the
     * other routes to {@link #onHandshake}.
     *
     * @param value adds routes to the server's builder
     * @return this builder
     */
    public Builder routes(Consumer<WebSocketServer.Builder> value) {
      routes.add(Objects.requireNonNull(value, "value"));
      return this;
    }

    /**
     * Sets the handshake hook of wsjava's own WebSocket routes (see {@link
     * WebSocketServer.Builder#onHandshake}); the Jakarta paths are decided by their configurators.
     *
     * @param hook the decision for upgrades on the other routes
     * @return this builder
     */
    public Builder onHandshake(Function<HandshakeRequest, HandshakeDecision> hook) {
      otherHook = Objects.requireNonNull(hook, "hook");
      return this;
    }

    /**
     * Deploys the endpoints, binds and starts the server.
     *
     * @return the running server
     * @throws DeploymentException when an endpoint breaks the rules of the specification (a bad
     *     path, two endpoints at one path, a method signature it does not allow)
     * @throws IOException when the address cannot be bound
     */
    public JakartaServer start() throws DeploymentException, IOException {
      ServerDeployment container = new ServerDeployment(new ClientContainer(config));
      for (Class<?> c : classes) {
        container.addEndpoint(c);
      }
      for (ServerEndpointConfig c : configs) {
        container.addEndpoint(c);
      }
      defaults.accept(container);
      WebSocketConfig serving = config;
      if (container.needsStreaming() && !config.streamMessages()) {
        serving = config.toBuilder().streamMessages(true).build();
      }
      WebSocketServer.Builder b = WebSocketServer.builder().bind(host, port).config(serving);
      if (tls != null) {
        b.tls(tls);
      }
      for (Consumer<WebSocketServer.Builder> r : routes) {
        r.accept(b);
      }
      for (String path : container.paths()) {
        b.websocket(path, container.listener());
      }
      b.onHandshake(container::decide);
      container.started(tls != null, otherHook);
      return new JakartaServer(b.start(), container);
    }
  }
}
