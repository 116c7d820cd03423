package dev.wsjava.internal.http;

import dev.wsjava.http.HttpRequest;
import dev.wsjava.http.HttpHandler;
import dev.wsjava.http.HttpResponse;
import dev.wsjava.handshake.ServerHandshakeConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Maps a request's method and path to what answers it (RFC 9110 §9.1, §7.1): a plain {@link
 * HttpHandler}, static files, or a WebSocket route. A request's path (as sent: percent-encoding
 * included, query excluded) is matched in this order, and the first kind that matches decides:
 *
 * <ol>
 *   <li>exact paths ({@code /rooms/lobby}), plain and WebSocket;
 *   <li>path templates ({@code /rooms/{room}}): a {@code {name}} segment matches one non-empty
 *       segment, which the handler reads percent-decoded from {@link HttpRequest#pathParam} (or,
 *       on a WebSocket route, from the handshake request). Of several templates that match, the
 *       most specific decides: at the first segment where they differ, a literal beats a
 *       parameter ({@code /rooms/{room}/log} beats {@code /{any}/{room}/log});
 *   <li>static file mounts, by prefix, the longest first.
 * </ol>
 *
 * <p>The route that decides answers alone: a path no route matches gets 404; a method the deciding
 * route has no handler for gets 405 with {@code Allow} listing the methods it has. A GET route also
 * answers HEAD. A WebSocket route takes every method: its handshake answers a request that is not
 * a GET upgrade (405 with {@code Allow: GET}, or 426).
 *
 * <p>Built once with a {@link Builder}, then immutable and thread-safe: one router serves every
 * connection. The handlers it holds must be thread-safe too.
 *
 * @param <T> what the transport needs for a WebSocket route (for example the listener factory); the
 *     router only carries it
 */
public final class Router<T> {
  private static final HttpResponse NOT_FOUND_PAGE = HttpResponse.notFound();
  private static final HttpHandler NOT_FOUND = request -> NOT_FOUND_PAGE;
  private static final List<String> STATIC_METHODS = List.of("GET", "HEAD");

  /** For each exact path: the route for each method, HEAD included, and the 405 route. */
  private final Map<String, Map<String, Plain<T>>> plain;

  private final Map<String, Plain<T>> notAllowed;
  private final Map<String, WebSocket<T>> webSockets;
  private final List<StaticMount<T>> statics;
  private final List<Templated<T>> templates;
  private final Plain<T> notFound = new Plain<>(NOT_FOUND);

  private record StaticMount<T>(StaticFiles files, Plain<T> serve, Plain<T> notAllowed) {}

  /** A template's routes: a WebSocket route, or plain ones by method and the 405 answer. */
  private record Templated<T>(
      PathTemplate template, WebSocket<T> webSocket, Map<String, Plain<T>> byMethod, Plain<T> notAllowed) {}

  private Router(Builder<T> b) {
    Map<String, Map<String, Plain<T>>> byPath = new HashMap<>();
    Map<String, Plain<T>> refusals = new HashMap<>();
    Map<String, Templated<T>> byShape = new HashMap<>();
    b.plain.forEach(
        (path, handlers) -> {
          PathTemplate template = PathTemplate.isTemplate(path) ? new PathTemplate(path) : null;
          Map<String, Plain<T>> byMethod = new HashMap<>();
          handlers.forEach(
              (method, handler) -> byMethod.put(method, new Plain<>(withParams(template, handler))));
          List<String> allow = new ArrayList<>(handlers.keySet());
          if (handlers.containsKey("GET") && !handlers.containsKey("HEAD")) {
            byMethod.put("HEAD", byMethod.get("GET"));
            allow.add(allow.indexOf("GET") + 1, "HEAD");
          }
          HttpResponse refusal = HttpResponse.methodNotAllowed(allow);
          Plain<T> notAllowedHere = new Plain<>(request -> refusal);
          if (template != null) {
            byShape.put(
                template.shape(),
                new Templated<>(template, null, Map.copyOf(byMethod), notAllowedHere));
          } else {
            byPath.put(path, Map.copyOf(byMethod));
            refusals.put(path, notAllowedHere);
          }
        });
    this.plain = Map.copyOf(byPath);
    this.notAllowed = Map.copyOf(refusals);
    Map<String, WebSocket<T>> ws = new HashMap<>();
    b.webSockets.forEach(
        (path, route) -> {
          WebSocket<T> r =
              route.handshake() != null ? route : new WebSocket<>(route.data(), b.handshake);
          if (PathTemplate.isTemplate(path)) {
            PathTemplate template = new PathTemplate(path);
            byShape.put(template.shape(), new Templated<>(template, r, Map.of(), null));
          } else {
            ws.put(path, r);
          }
        });
    this.webSockets = Map.copyOf(ws);
    List<Templated<T>> t = new ArrayList<>(byShape.values());
    t.sort((x, y) -> PathTemplate.bySpecificity(x.template(), y.template()));
    this.templates = List.copyOf(t);
    HttpResponse staticRefusal = HttpResponse.methodNotAllowed(STATIC_METHODS);
    List<StaticMount<T>> mounts = new ArrayList<>();
    for (StaticFiles f : b.statics) {
      mounts.add(new StaticMount<>(f, new Plain<>(f), new Plain<>(request -> staticRefusal)));
    }
    mounts.sort(
        Comparator.comparingInt((StaticMount<T> m) -> m.files().prefix().length()).reversed());
    this.statics = List.copyOf(mounts);
  }

  /**
   * Starts a router.
   *
   * @param <T> the WebSocket route data type
   * @return an empty builder
   */
  public static <T> Builder<T> builder() {
    return new Builder<>();
  }

  /**
   * Finds what answers a request. Never null: an unknown path yields a handler that answers 404, a
   * known path with another method one that answers 405.
   *
   * @param method the request method, case-sensitive
   * @param path the request path as in {@link HttpRequest#path()}
   * @return a {@link Plain} route to call, or the {@link WebSocket} route of the path (whatever the
   *     method: the handshake decides what a request that is not a GET upgrade gets)
   */
  public Route<T> find(String method, String path) {
    WebSocket<T> ws = webSockets.get(path);
    if (ws != null) {
      return ws;
    }
    Map<String, Plain<T>> byMethod = plain.get(path);
    if (byMethod != null) {
      Plain<T> route = byMethod.get(method);
      return route != null ? route : notAllowed.get(path);
    }
    for (Templated<T> t : templates) {
      if (t.template().matches(path)) {
        if (t.webSocket() != null) {
          return t.webSocket();
        }
        Plain<T> route = t.byMethod().get(method);
        return route != null ? route : t.notAllowed();
      }
    }
    for (StaticMount<T> m : statics) {
      if (m.files().covers(path)) {
        return STATIC_METHODS.contains(method) ? m.serve() : m.notAllowed();
      }
    }
    return notFound;
  }

  /** A template route's handler: gives the request its path parameters first. */
  private static HttpHandler withParams(PathTemplate template, HttpHandler handler) {
    if (template == null) {
      return handler;
    }
    return request -> handler.handle(((Request) request).withPathParams(template.match(request.path())));
  }

  /**
   * Returns what reads the parameters of a path template out of request paths.
   *
   * @param template a route path, for example {@code /rooms/{room}}
   * @return given a request path (for example {@code /rooms/lobby}), its parameters, name to
   *     percent-decoded value in template order; empty when the template has none or the path does
   *     not match it
   * @throws IllegalArgumentException when the template is malformed
   */
  public static java.util.function.Function<String, Map<String, String>> pathParams(
      String template) {
    if (!PathTemplate.isTemplate(template)) {
      return path -> Map.of();
    }
    PathTemplate t = new PathTemplate(template);
    return path -> {
      Map<String, String> params = t.match(path);
      return params == null ? Map.of() : java.util.Collections.unmodifiableMap(params);
    };
  }

  /**
   * What answers a request: {@link Plain} or {@link WebSocket}.
   *
   * @param <T> the WebSocket route data type
   */
  public sealed interface Route<T> permits Plain, WebSocket {}

  /**
   * A plain HTTP route: call the handler.
   *
   * @param <T> the WebSocket route data type (unused here)
   * @param handler answers the request
   */
  public record Plain<T>(HttpHandler handler) implements Route<T> {}

  /**
   * A WebSocket route: validate the upgrade with the handshake configuration; once accepted, the
   * transport uses the data to set the connection up.
   *
   * @param <T> the WebSocket route data type
   * @param data what the route was registered with
   * @param handshake the handshake configuration of the route, or the router's default
   */
  public record WebSocket<T>(T data, ServerHandshakeConfig handshake) implements Route<T> {}

  /**
   * Collects routes; {@link #build()} makes the router. Registering the same method and path twice,
   * or a path both as a plain and as a WebSocket route, is refused. Not thread-safe.
   *
   * @param <T> the WebSocket route data type
   */
  public static final class Builder<T> {
    private final Map<String, Map<String, HttpHandler>> plain = new LinkedHashMap<>();
    private final Map<String, WebSocket<T>> webSockets = new LinkedHashMap<>();
    private final List<StaticFiles> statics = new ArrayList<>();
    private ServerHandshakeConfig handshake = ServerHandshakeConfig.defaults();

    private Builder() {}

    /**
     * Adds a GET route, which also answers HEAD (the body is then not sent).
     *
     * @param path the exact path, starting with {@code /}
     * @param handler answers the requests
     * @return this builder
     */
    public Builder<T> get(String path, HttpHandler handler) {
      return route("GET", path, handler);
    }

    /**
     * Adds a route for one method.
     *
     * @param method a method token, case-sensitive, for example {@code POST}
     * @param path the exact path, starting with {@code /}
     * @param handler answers the requests
     * @return this builder
     * @throws IllegalArgumentException when the method is not a token, the path is not a path, or
     *     the pair is already routed
     */
    public Builder<T> route(String method, String path, HttpHandler handler) {
      Objects.requireNonNull(handler, "handler");
      if (method == null || !method.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
        throw new IllegalArgumentException("method must be a token (RFC 9110 §9.1): " + method);
      }
      checkPath(path);
      if (webSockets.containsKey(path)) {
        throw new IllegalArgumentException(path + " is already a WebSocket route");
      }
      path = sameShape(path, plain.keySet(), webSockets.keySet());
      Map<String, HttpHandler> byMethod = plain.computeIfAbsent(path, p -> new LinkedHashMap<>());
      if (byMethod.putIfAbsent(method, handler) != null) {
        throw new IllegalArgumentException(method + " " + path + " is already routed");
      }
      return this;
    }

    /**
     * Adds a WebSocket route validated with the router's handshake configuration ({@link
     * #handshake}).
     *
     * @param path the exact path, starting with {@code /}
     * @param data what the transport needs to serve the route
     * @return this builder
     */
    public Builder<T> websocket(String path, T data) {
      return addWebSocket(path, data, null);
    }

    /**
     * Adds a WebSocket route with its own handshake configuration.
     *
     * @param path the exact path, starting with {@code /}
     * @param data what the transport needs to serve the route
     * @param config origin policy, subprotocols, extensions and extra 101 fields of this route; its
     *     head limits are not used, since the connection read the head under {@link
     *     HttpLimits#head()}
     * @return this builder
     */
    public Builder<T> websocket(String path, T data, ServerHandshakeConfig config) {
      return addWebSocket(path, data, Objects.requireNonNull(config, "config"));
    }

    private Builder<T> addWebSocket(String path, T data, ServerHandshakeConfig config) {
      Objects.requireNonNull(data, "data");
      checkPath(path);
      if (plain.containsKey(path)
          || webSockets.containsKey(path)
          || !sameShape(path, plain.keySet(), webSockets.keySet()).equals(path)) {
        throw new IllegalArgumentException(path + " is already routed");
      }
      webSockets.put(path, new WebSocket<>(data, config));
      return this;
    }

    /**
     * Returns whether a WebSocket route has this path.
     *
     * @param path the path, as it was added
     * @return true when it is a WebSocket route
     */
    public boolean hasWebSocket(String path) {
      return webSockets.containsKey(path);
    }

    /**
     * Gives a WebSocket route added before its own handshake configuration, replacing what it had.
     *
     * @param path the route's path, as it was added
     * @param config origin policy, subprotocols, extensions and extra 101 fields of this route
     * @return this builder
     * @throws IllegalArgumentException when no WebSocket route has this path
     */
    public Builder<T> websocketHandshake(String path, ServerHandshakeConfig config) {
      WebSocket<T> route = webSockets.get(path);
      if (route == null) {
        throw new IllegalArgumentException("no WebSocket route " + path);
      }
      webSockets.put(path, new WebSocket<>(route.data(), Objects.requireNonNull(config, "config")));
      return this;
    }

    /**
     * Serves the files under a directory for GET and HEAD; see {@link StaticFiles} for the rules
     * (path traversal and links out of the directory get 404, a directory its {@code index.html}).
     *
     * @param urlPrefix where the files appear, for example {@code /static/} or {@code /}
     * @param directory an existing directory
     * @return this builder
     * @throws IllegalArgumentException when the directory does not exist, or the prefix is not a
     *     path or is already mounted
     */
    public Builder<T> staticFiles(String urlPrefix, Path directory) {
      checkPath(urlPrefix);
      StaticFiles files = new StaticFiles(urlPrefix, directory);
      for (StaticFiles f : statics) {
        if (f.prefix().equals(files.prefix())) {
          throw new IllegalArgumentException(urlPrefix + " is already mounted");
        }
      }
      statics.add(files);
      return this;
    }

    /**
     * Sets the handshake configuration of the WebSocket routes added without their own, whenever
     * they were added.
     *
     * @param config the default; {@link ServerHandshakeConfig#defaults()} unless set
     * @return this builder
     */
    public Builder<T> handshake(ServerHandshakeConfig config) {
      this.handshake = Objects.requireNonNull(config, "config");
      return this;
    }

    /**
     * Builds the router; the builder may go on being used.
     *
     * @return an immutable router
     */
    public Router<T> build() {
      return new Router<>(this);
    }

    /**
     * Returns the plain route template of the same shape as {@code path} ({@code /a/{x}} and
     * {@code /a/{y}} match the same paths), so that its methods join that route; {@code path}
     * itself when there is none. A WebSocket template of that shape is a conflict.
     */
    private static String sameShape(String path, Set<String> plainPaths, Set<String> wsPaths) {
      if (!PathTemplate.isTemplate(path)) {
        return path;
      }
      String shape = new PathTemplate(path).shape();
      for (String p : wsPaths) {
        if (PathTemplate.isTemplate(p) && new PathTemplate(p).shape().equals(shape)) {
          throw new IllegalArgumentException(path + " matches the paths of WebSocket route " + p);
        }
      }
      for (String p : plainPaths) {
        if (PathTemplate.isTemplate(p) && new PathTemplate(p).shape().equals(shape)) {
          if (!p.equals(path)) {
            throw new IllegalArgumentException(
                path + " matches the same paths as " + p + " with other parameter names");
          }
          return p;
        }
      }
      return path;
    }

    private static void checkPath(String path) {
      if (path == null || !path.startsWith("/") || !path.matches("[\\x21-\\x7E&&[^?#]]+")) {
        throw new IllegalArgumentException(
            "a route path starts with / and holds visible ASCII but no ? or #: " + path);
      }
      if (PathTemplate.isTemplate(path)) {
        new PathTemplate(path); // checks the parameters' syntax now, not at build()
      }
    }
  }

  /**
   * Describes the routes for logs.
   *
   * @return for example {@code Router[plain=[/], webSockets=[/chat], static=[/static/]]}
   */
  @Override
  public String toString() {
    List<String> mounts = statics.stream().map(m -> m.files().prefix()).toList();
    return "Router[plain="
        + plain.keySet()
        + ", webSockets="
        + webSockets.keySet()
        + ", templates="
        + templates.stream().map(t -> t.template().template()).toList()
        + ", static="
        + mounts
        + "]";
  }
}
