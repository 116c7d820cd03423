package dev.wsjava.jakarta.diff;

import jakarta.websocket.WebSocketContainer;
import jakarta.websocket.server.ServerEndpointConfig;
import java.net.URI;
import java.util.List;

/**
 * One Jakarta WebSocket implementation under test: its server side (deploys endpoint classes and
 * configs on a free loopback port) and its client side ({@link #client()}).
 */
interface Container {
  /** The short name in tables: "tomcat", "jetty", "wsjava". */
  String name();

  /**
   * Starts a server with these endpoints and returns its base URI ({@code ws://127.0.0.1:PORT}).
   */
  URI start(List<Class<?>> annotated, List<ServerEndpointConfig> configs) throws Exception;

  /** This implementation's own client container (a fresh one, started). */
  WebSocketContainer client() throws Exception;

  /** Stops the server and any client container it made. */
  void stop() throws Exception;
}
