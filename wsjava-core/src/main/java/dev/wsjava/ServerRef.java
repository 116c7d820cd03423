package dev.wsjava;

/**
 * The server a builder is starting, for the requests its routes see ({@link
 * dev.wsjava.http.HttpRequest#server()}). Set once, as soon as {@code start()} has the server; a
 * request that arrives in the instant between the listener opening and that waits for it.
 * Thread-safe.
 */
final class ServerRef {
  private WebSocketServer server;

  synchronized void set(WebSocketServer value) {
    server = value;
    notifyAll();
  }

  /** The server, once set (waiting the instant until {@code start()} sets it). */
  synchronized WebSocketServer get() {
    boolean interrupted = false;
    while (server == null) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return server;
  }
}
