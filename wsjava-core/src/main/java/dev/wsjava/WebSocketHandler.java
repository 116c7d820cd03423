package dev.wsjava;

/**
 * Serves one connection in plain blocking code (pull style): runs on its own virtual thread once
 * the connection is open, typically looping on {@link WebSocket#receive()}. When it returns the
 * connection is closed normally (1000); when it throws, with 1011.
 */
@FunctionalInterface
public interface WebSocketHandler {

  /**
   * Serves the connection.
   *
   * @param ws the open connection, made without a listener
   * @throws Exception anything; the connection is then closed with 1011
   */
  void handle(WebSocket ws) throws Exception;
}
