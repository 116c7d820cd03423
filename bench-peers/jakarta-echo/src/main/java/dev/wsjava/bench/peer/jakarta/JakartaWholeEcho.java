package dev.wsjava.bench.peer.jakarta;

import dev.wsjava.bench.peer.PeerArgs;
import jakarta.websocket.OnMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The whole-message form of the shared echo endpoint, deployed unchanged by every Jakarta
 * target's {@code -whole} variant: each message is taken whole ({@code String}, {@code
 * ByteBuffer}) and sent back whole through the blocking remote, the form a container may serve
 * with a faster path than parts. The suite's limit is the handlers' {@code maxMessageSize}, which
 * every container enforces itself with 1009; Tomcat allocates a buffer of that size per session,
 * so these variants do not run the 1,000-connection scenario. No extensions.
 */
@ServerEndpoint(value = "/echo", configurator = JakartaEcho.NoExtensions.class)
public final class JakartaWholeEcho {
  /** Made by the container, one per connection. */
  public JakartaWholeEcho() {}

  /**
   * Sends a text message back.
   *
   * @param message the message
   * @param session the connection
   * @throws IOException when the send fails
   */
  @OnMessage(maxMessageSize = PeerArgs.MAX_MESSAGE)
  public void text(String message, Session session) throws IOException {
    session.getBasicRemote().sendText(message);
  }

  /**
   * Sends a binary message back.
   *
   * @param message the message
   * @param session the connection
   * @throws IOException when the send fails
   */
  @OnMessage(maxMessageSize = PeerArgs.MAX_MESSAGE)
  public void binary(ByteBuffer message, Session session) throws IOException {
    session.getBasicRemote().sendBinary(message);
  }
}
