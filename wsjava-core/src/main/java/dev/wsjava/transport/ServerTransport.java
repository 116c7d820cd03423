package dev.wsjava.transport;

import java.net.InetSocketAddress;
import java.time.Duration;

/** A running server on some transport: what the API layer needs of it. Thread-safe. */
public interface ServerTransport extends AutoCloseable {

  /**
   * Returns the bound port.
   *
   * @return the port (the one picked when 0 was asked for)
   */
  int port();

  /**
   * Returns the bound address.
   *
   * @return the local address
   */
  InetSocketAddress localAddress();

  /**
   * Returns the connections open now (WebSocket and plain HTTP).
   *
   * @return the count
   */
  int openConnections();

  /**
   * Stops accepting, closes every WebSocket with 1001, waits up to {@code grace} for them to
   * close, then aborts the rest.
   *
   * @param grace the longest wait
   * @return true when every connection closed within the grace period
   * @throws InterruptedException when interrupted while waiting
   */
  boolean shutdown(Duration grace) throws InterruptedException;

  /**
   * Stops accepting connections (the listening socket closes, so a balancer's health check sees
   * the node leave) and leaves the open ones alone; for a drain. Idempotent.
   */
  void stopAccepting();

  /**
   * Serves new connections with this TLS context from now on; open ones keep theirs.
   *
   * @param context the new context (key material, trust)
   * @throws IllegalStateException when the server was started without TLS
   */
  void reloadTls(javax.net.ssl.SSLContext context);

  /** Shuts down with a default grace period. */
  @Override
  void close();
}
