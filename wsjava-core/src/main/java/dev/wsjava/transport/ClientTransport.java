package dev.wsjava.transport;

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
  CompletableFuture<Connection> connect(URI uri, ConnectionHandler handler);

  /** Releases the transport's threads; open connections are aborted. */
  @Override
  void close();
}
