package dev.wsjava;

import java.io.IOException;

/**
 * A client connection failed at its proxy: the proxy refused the TCP connection, refused the
 * tunnel, rejected the credentials, or broke its protocol. The message names the proxy (never its
 * password) and quotes its answer: the status line for an HTTP proxy (for example {@code 407 Proxy
 * Authentication Required}), the reply code and its meaning for SOCKS5 (for example {@code reply 5
 * (connection refused)}).
 */
public class ProxyException extends IOException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what happened, naming the proxy
   * @param cause the failure underneath (for example a {@link java.net.ConnectException}), or
   *     {@code null}
   */
  public ProxyException(String message, Throwable cause) {
    super(message, cause);
  }
}
