package dev.wsjava;

import dev.wsjava.proxy.ProxySpec;
import dev.wsjava.proxy.ProxySpec.Kind;
import dev.wsjava.proxy.Socks5Tunnel;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A proxy that client connections tunnel through: an HTTP proxy (CONNECT, optionally with Basic
 * credentials) or a SOCKS5 proxy (optionally with username/password). {@code ws://} and {@code
 * wss://} both work through either; for {@code wss://}, TLS runs end to end through the tunnel, and
 * SNI and the certificate check name the WebSocket server, never the proxy.
 *
 * <p>The WebSocket server's host name is always sent to the proxy as a name, and the proxy looks
 * it up: wsjava never resolves it itself when a proxy is used (no DNS leak, and names only the
 * proxy's network knows work). So {@code socks5://} and {@code socks5h://} mean the same here;
 * an IP literal goes to a SOCKS5 proxy as an address. The handshake timeout covers the proxy
 * stage too, and {@link WebSocket#remoteAddress()} is then the proxy's address.
 *
 * <pre>{@code
 * WebSocketClient client = WebSocketClient.builder()
 *     .proxy(WebSocketProxy.parse("http://alice:s3cret@proxy.example:3128"))
 *     .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe. {@link #toString()} never shows the password.
 */
public final class WebSocketProxy {
  /** The port of an {@code http://} proxy given without one (RFC 9110 §4.2.1). */
  public static final int DEFAULT_HTTP_PORT = 80;

  /** The port of a {@code socks5://} proxy given without one (RFC 1928 §3). */
  public static final int DEFAULT_SOCKS_PORT = 1080;

  private final ProxySpec spec;

  private WebSocketProxy(ProxySpec spec) {
    this.spec = spec;
  }

  /**
   * An HTTP proxy without credentials.
   *
   * @param host the proxy's host name or IP literal
   * @param port the proxy's port
   * @return the proxy
   * @throws IllegalArgumentException when the host is empty or the port is not 1 to 65535
   */
  public static WebSocketProxy http(String host, int port) {
    return of(Kind.HTTP, host, port, null, null);
  }

  /**
   * An HTTP proxy that wants Basic credentials ({@code Proxy-Authorization}, RFC 7617, UTF-8).
   * Basic credentials cross the network readable by anyone on the path to the proxy.
   *
   * @param host the proxy's host name or IP literal
   * @param port the proxy's port
   * @param user the user name, without {@code ':'}
   * @param password the password
   * @return the proxy
   */
  public static WebSocketProxy http(String host, int port, String user, String password) {
    return withCredentials(Kind.HTTP, host, port, user, password);
  }

  /**
   * A SOCKS5 proxy without authentication.
   *
   * @param host the proxy's host name or IP literal
   * @param port the proxy's port
   * @return the proxy
   */
  public static WebSocketProxy socks5(String host, int port) {
    return of(Kind.SOCKS5, host, port, null, null);
  }

  /**
   * A SOCKS5 proxy with username/password authentication (RFC 1929; sent in the clear).
   *
   * @param host the proxy's host name or IP literal
   * @param port the proxy's port
   * @param user the user name, 1 to 255 UTF-8 bytes
   * @param password the password, at most 255 UTF-8 bytes
   * @return the proxy
   */
  public static WebSocketProxy socks5(String host, int port, String user, String password) {
    return withCredentials(Kind.SOCKS5, host, port, user, password);
  }

  private static WebSocketProxy withCredentials(
      Kind kind, String host, int port, String user, String password) {
    Objects.requireNonNull(user, "user");
    return of(kind, host, port, user, Objects.requireNonNull(password, "password"));
  }

  private static WebSocketProxy of(Kind kind, String host, int port, String user, String password) {
    Objects.requireNonNull(host, "host");
    return new WebSocketProxy(new ProxySpec(kind, unbracket(host), port, user, password));
  }

  /**
   * Reads a proxy URI: {@code http://[user:password@]host[:port]}, {@code socks5://...} or {@code
   * socks5h://...} (the same here: the proxy resolves names either way). User and password are
   * percent-decoded as UTF-8, so {@code p%40ss} is {@code p@ss}. Without a scheme, {@code http}
   * is meant; without a port, {@value #DEFAULT_HTTP_PORT} for HTTP and {@value
   * #DEFAULT_SOCKS_PORT} for SOCKS5.
   *
   * @param uri for example {@code http://alice:s3cret@proxy.example:3128}
   * @return the proxy
   * @throws IllegalArgumentException when the URI is not one of those forms (an {@code https://}
   *     proxy, TLS to the proxy itself, is not supported)
   */
  public static WebSocketProxy parse(String uri) {
    Objects.requireNonNull(uri, "uri");
    String text = uri.strip();
    URI u;
    try {
      u = new URI(text.contains("://") ? text : "http://" + text);
    } catch (URISyntaxException e) {
      // Not chained: the cause's message quotes the whole URI, password and all.
      throw new IllegalArgumentException(
          "not a proxy URI: " + redact(text) + " (" + e.getReason() + ")");
    }
    String scheme = u.getScheme().toLowerCase(Locale.ROOT);
    Kind kind =
        switch (scheme) {
          case "http" -> Kind.HTTP;
          case "socks5", "socks5h" -> Kind.SOCKS5;
          default ->
              throw new IllegalArgumentException(
                  "unsupported proxy scheme '"
                      + scheme
                      + "' in "
                      + redact(text)
                      + ": use http://, socks5:// or socks5h://");
        };
    if (u.getHost() == null) {
      throw new IllegalArgumentException("the proxy URI has no host: " + redact(text));
    }
    String path = u.getRawPath();
    if ((path != null && !path.isEmpty() && !path.equals("/"))
        || u.getRawQuery() != null
        || u.getRawFragment() != null) {
      throw new IllegalArgumentException(
          "a proxy URI is scheme://[user:password@]host[:port], with no path: " + redact(text));
    }
    int port = u.getPort() >= 0 ? u.getPort() : kind == Kind.HTTP ? DEFAULT_HTTP_PORT : DEFAULT_SOCKS_PORT;
    String user = null;
    String password = null;
    String info = u.getRawUserInfo();
    if (info != null) {
      int colon = info.indexOf(':');
      user = percentDecode(colon < 0 ? info : info.substring(0, colon));
      password = colon < 0 ? "" : percentDecode(info.substring(colon + 1));
    }
    return of(kind, u.getHost(), port, user, password);
  }

  /** Hides a password in a URI quoted in an error message. */
  private static String redact(String uri) {
    int at = uri.lastIndexOf('@');
    int start = uri.indexOf("://");
    start = start < 0 ? 0 : start + 3;
    int colon = uri.indexOf(':', start);
    return at < 0 || colon < 0 || colon > at ? uri : uri.substring(0, colon) + ":***" + uri.substring(at);
  }

  private static String percentDecode(String s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
    int i = 0;
    while (i < s.length()) {
      int percent = s.indexOf('%', i);
      int end = percent < 0 ? s.length() : percent;
      out.writeBytes(s.substring(i, end).getBytes(StandardCharsets.UTF_8));
      if (percent < 0) {
        break;
      }
      int hi = percent + 2 < s.length() ? Character.digit(s.charAt(percent + 1), 16) : -1;
      int lo = percent + 2 < s.length() ? Character.digit(s.charAt(percent + 2), 16) : -1;
      if (hi < 0 || lo < 0) {
        throw new IllegalArgumentException(
            "a '%' in the proxy credentials must be followed by two hex digits");
      }
      out.write(hi << 4 | lo);
      i = percent + 3;
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /**
   * Picks the proxy the environment sets for {@code target}, as curl and most tools do: {@code
   * https_proxy} (then {@code HTTPS_PROXY}) for {@code wss://}, {@code http_proxy} (then {@code
   * HTTP_PROXY}) for {@code ws://}, else {@code all_proxy} (then {@code ALL_PROXY}); empty values
   * count as unset. {@code no_proxy} (then {@code NO_PROXY}) is a comma-separated list of
   * exceptions: {@code *} for every host; a host name, which also covers its subdomains (a leading
   * {@code .} or {@code *.} is ignored: {@code example.com} covers {@code ws.example.com}); an IP
   * literal (IPv6 with or without brackets), matched as an address; any of these with {@code
   * :port}, which then covers that port only. Names are compared without case and never looked
   * up.
   *
   * @param target the {@code ws://} or {@code wss://} URI to connect to
   * @return the proxy to use, or empty for a direct connection
   * @throws IllegalArgumentException when the variable that applies holds no valid proxy URI (the
   *     message names the variable)
   */
  public static Optional<WebSocketProxy> fromEnvironment(URI target) {
    return fromEnvironment(target, System.getenv());
  }

  /** {@link #fromEnvironment(URI)} on the given variables. */
  static Optional<WebSocketProxy> fromEnvironment(URI target, Map<String, String> env) {
    Objects.requireNonNull(target, "target");
    String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(Locale.ROOT);
    boolean secure = scheme.equals("wss") || scheme.equals("https");
    String host = target.getHost();
    if (host == null) {
      return Optional.empty();
    }
    int port = target.getPort() >= 0 ? target.getPort() : secure ? 443 : 80;
    String[] names =
        secure
            ? new String[] {"https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"}
            : new String[] {"http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"};
    for (String name : names) {
      String value = env.get(name);
      if (value == null || value.isBlank()) {
        continue;
      }
      if (bypassed(unbracket(host).toLowerCase(Locale.ROOT), port, env)) {
        return Optional.empty();
      }
      try {
        return Optional.of(parse(value));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
      }
    }
    return Optional.empty();
  }

  private static boolean bypassed(String host, int port, Map<String, String> env) {
    String list = env.get("no_proxy");
    if (list == null || list.isBlank()) {
      list = env.get("NO_PROXY");
    }
    if (list == null || list.isBlank()) {
      return false;
    }
    byte[] address = Socks5Tunnel.ipLiteral(host);
    for (String raw : list.split(",")) {
      String entry = raw.strip().toLowerCase(Locale.ROOT);
      if (entry.equals("*")) {
        return true;
      }
      int entryPort = -1;
      int colon = entry.lastIndexOf(':');
      boolean bracketed = entry.startsWith("[");
      if (colon > 0 && (bracketed ? colon > entry.indexOf(']') : entry.indexOf(':') == colon)) {
        try {
          entryPort = Integer.parseInt(entry.substring(colon + 1));
        } catch (NumberFormatException e) {
          continue;
        }
        entry = entry.substring(0, colon);
      }
      entry = unbracket(entry);
      if (entry.isEmpty() || (entryPort >= 0 && entryPort != port)) {
        continue;
      }
      byte[] entryAddress = Socks5Tunnel.ipLiteral(entry);
      if (entryAddress != null || address != null) {
        if (Arrays.equals(entryAddress, address)) {
          return true;
        }
        continue;
      }
      if (entry.startsWith("*.")) {
        entry = entry.substring(2);
      } else if (entry.startsWith(".")) {
        entry = entry.substring(1);
      }
      if (host.equals(entry) || host.endsWith("." + entry)) {
        return true;
      }
    }
    return false;
  }

  private static String unbracket(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  /**
   * Returns the proxy's host.
   *
   * @return a host name or IP literal (IPv6 without brackets)
   */
  public String host() {
    return spec.host();
  }

  /**
   * Returns the proxy's port.
   *
   * @return 1 to 65535
   */
  public int port() {
    return spec.port();
  }

  /** The transport-level description. */
  ProxySpec spec() {
    return spec;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WebSocketProxy p && p.spec.equals(spec);
  }

  @Override
  public int hashCode() {
    return spec.hashCode();
  }

  /**
   * Returns the proxy as a URI, the password replaced by {@code ***}.
   *
   * @return for example {@code http://alice:***@proxy.example:3128}
   */
  @Override
  public String toString() {
    return spec.toString();
  }
}
