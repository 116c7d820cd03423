package dev.wsjava.proxy;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Which proxy a client connection goes through, and the credentials it presents. Immutable; {@link
 * #toString()} never shows the password.
 *
 * @param kind HTTP CONNECT or SOCKS5
 * @param host the proxy's host name or IP literal (IPv6 without brackets)
 * @param port the proxy's port
 * @param user the user name, or {@code null} for none
 * @param password the password, or {@code null} for none (then {@code user} is null too)
 */
public record ProxySpec(Kind kind, String host, int port, String user, String password) {

  /** The tunnel protocol a proxy speaks. */
  public enum Kind {
    /** An HTTP proxy: the tunnel is a CONNECT request (RFC 9110 §9.3.6). */
    HTTP,
    /** A SOCKS version 5 proxy (RFC 1928). */
    SOCKS5
  }

  /**
   * Checks the proxy description.
   *
   * @param kind not null
   * @param host not empty
   * @param port 1 to 65535
   * @param user null, or 1 to 255 UTF-8 bytes without control characters (and no colon for HTTP,
   *     RFC 7617 §2)
   * @param password null exactly when {@code user} is; at most 255 UTF-8 bytes without control
   *     characters
   */
  public ProxySpec {
    Objects.requireNonNull(kind, "kind");
    if (host == null || host.isEmpty()) {
      throw new IllegalArgumentException("the proxy's host must not be empty");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("the proxy's port must be 1 to 65535: " + port);
    }
    if ((user == null) != (password == null)) {
      throw new IllegalArgumentException("give both a proxy user and a password, or neither");
    }
    if (user != null) {
      credential("user", user, 1);
      credential("password", password, 0);
      if (kind == Kind.HTTP && user.indexOf(':') >= 0) {
        throw new IllegalArgumentException(
            "an HTTP proxy user must not contain ':' (RFC 7617 §2 Basic credentials)");
      }
    }
  }

  private static void credential(String what, String value, int min) {
    int bytes = value.getBytes(StandardCharsets.UTF_8).length;
    if (bytes < min || bytes > 255) {
      throw new IllegalArgumentException(
          "the proxy " + what + " must be " + min + " to 255 UTF-8 bytes (RFC 1929): " + bytes);
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        throw new IllegalArgumentException("the proxy " + what + " must not hold control characters");
      }
    }
  }

  /**
   * Starts a tunnel to {@code host}:{@code port} through this proxy.
   *
   * @param targetHost the WebSocket server's host name or IP literal (IPv6 without brackets)
   * @param targetPort the WebSocket server's port
   * @return a tunnel whose first bytes to send are ready in {@link Tunnel#output()}
   */
  public Tunnel open(String targetHost, int targetPort) {
    return switch (kind) {
      case HTTP -> new HttpConnectTunnel(this, targetHost, targetPort);
      case SOCKS5 -> new Socks5Tunnel(this, targetHost, targetPort);
    };
  }

  /**
   * Returns the proxy as a URI without the password.
   *
   * @return for example {@code http://alice:***@proxy.example:3128} or {@code
   *     socks5://127.0.0.1:1080}
   */
  @Override
  public String toString() {
    String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
    String creds = user == null ? "" : user + (password.isEmpty() ? "" : ":***") + "@";
    return (kind == Kind.HTTP ? "http" : "socks5") + "://" + creds + h + ":" + port;
  }
}
