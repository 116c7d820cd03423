package dev.wsjava.transport;

import dev.wsjava.proxy.ProxySpec;
import java.net.URI;
import java.util.concurrent.CompletableFuture;

/** Opens client connections on some transport. Thread-safe. */
public interface ClientTransport extends AutoCloseable {

  /**
   * Connects, runs the opening handshake, and opens the connection.
   *
   * @param uri a {@code ws://} or {@code wss://} URI
   * @param handler where the connection's events go
   * @return completed with the open connection, or failed with the reason (an HTTP status when
   *     the server answered with one)
   */
  default CompletableFuture<Connection> connect(URI uri, ConnectionHandler handler) {
    return connect(uri, null, handler);
  }

  /**
   * Connects through a proxy (or directly), runs the opening handshake, and opens the connection.
   * Through a proxy, the server's host name is never resolved here: the proxy resolves it. For
   * {@code wss}, TLS runs through the tunnel, with SNI and the certificate check for the server's
   * host. The handshake timeout covers the proxy stage too.
   *
   * @param uri a {@code ws://} or {@code wss://} URI
   * @param proxy the proxy to tunnel through, or {@code null} to connect directly
   * @param handler where the connection's events go
   * @return completed with the open connection, or failed with the reason: a {@link
   *     dev.wsjava.proxy.TunnelException} when the proxy could not be reached or refused the tunnel
   */
  CompletableFuture<Connection> connect(URI uri, ProxySpec proxy, ConnectionHandler handler);

  /** Releases the transport's threads; open connections are aborted. */
  @Override
  void close();
}
