package dev.wsjava;

import java.time.Duration;

/**
 * Hears a reconnecting client connection's attempts (see {@link
 * WebSocketClient.Builder#reconnect(ReconnectPolicy, ReconnectListener)}). Every method does
 * nothing by default. {@link #onReconnecting} runs on the thread that waits for the attempt; {@link
 * #onReconnected} on the new connection's I/O thread, just before {@link
 * WebSocketListener#onOpen}. Both must return quickly.
 */
public interface ReconnectListener {

  /**
   * An attempt is about to be made, after {@code delay}.
   *
   * @param ws the connection (the same object before and after reconnecting)
   * @param attempt the attempt's number since the drop, from 1
   * @param delay how long it waits first
   * @param cause why the previous connection or attempt failed: a {@link
   *     WebSocketClosedException} with the close code for the drop itself, else the attempt's
   *     failure (for example a {@link java.net.ConnectException} while the server is down)
   */
  default void onReconnecting(WebSocket ws, int attempt, Duration delay, Throwable cause) {}

  /**
   * The connection is open again.
   *
   * @param ws the connection
   * @param attempts how many attempts it took
   */
  default void onReconnected(WebSocket ws, int attempts) {}
}
