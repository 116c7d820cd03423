package dev.wsjava.internal.proxyprotocol;

import java.io.IOException;

/**
 * A connection's first bytes are not a PROXY protocol header that a server requiring one can
 * accept: the connection is closed without an answer (nothing can be answered before the header,
 * not even TLS). The message says which rule of {@code proxy-protocol.txt} was broken.
 */
public final class ProxyHeaderException extends IOException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the rule broken
   */
  public ProxyHeaderException(String message) {
    super(message);
  }
}
