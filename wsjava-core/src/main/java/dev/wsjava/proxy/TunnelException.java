package dev.wsjava.proxy;

import java.io.IOException;

/**
 * A proxy could not be reached, refused the tunnel, or broke its protocol. The message names the
 * proxy (never its password) and quotes its answer: the status line for HTTP, the reply code and
 * its meaning for SOCKS5. The API reports it as {@code dev.wsjava.ProxyException}.
 */
public final class TunnelException extends IOException {
  private static final long serialVersionUID = 1L;

  /** The proxy, as {@link ProxySpec#toString()} shows it. */
  private final String proxy;

  /**
   * Creates the exception.
   *
   * @param proxy the proxy
   * @param message what happened, naming the proxy
   */
  public TunnelException(ProxySpec proxy, String message) {
    super(message);
    this.proxy = proxy.toString();
  }

  /**
   * Creates the exception with a cause.
   *
   * @param proxy the proxy
   * @param message what happened, naming the proxy
   * @param cause the I/O failure underneath
   */
  public TunnelException(ProxySpec proxy, String message, Throwable cause) {
    super(message, cause);
    this.proxy = proxy.toString();
  }

  /**
   * Reports that the TCP connection to the proxy failed.
   *
   * @param proxy the proxy
   * @param cause the connect failure ({@link java.net.ConnectException} when refused)
   * @return an exception that says the proxy refused the connection, or why it could not be reached
   */
  public static TunnelException unreachable(ProxySpec proxy, IOException cause) {
    String why =
        cause instanceof java.net.ConnectException
            ? "refused the connection"
            : "could not be reached";
    String detail = cause.getMessage() == null ? "" : " (" + cause.getMessage() + ")";
    return new TunnelException(proxy, "proxy " + proxy + " " + why + detail, cause);
  }

  /**
   * Reports that the proxy's tunnel delivered bytes before the TLS handshake began: a TLS server
   * never speaks first, so they cannot be the server's.
   *
   * @param proxy the proxy
   * @param count how many bytes came
   * @return the exception
   */
  public static TunnelException bytesBeforeTls(ProxySpec proxy, int count) {
    return new TunnelException(
        proxy,
        "proxy "
            + proxy
            + " sent "
            + count
            + " bytes after opening the tunnel, before the TLS handshake began");
  }

  /**
   * Returns the proxy the failure is about.
   *
   * @return for example {@code http://alice:***@127.0.0.1:3128}
   */
  public String proxy() {
    return proxy;
  }
}
