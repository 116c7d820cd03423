package dev.wsjava.bench.peer.jakarta;

import jakarta.websocket.Extension;
import jakarta.websocket.OnMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;
import jakarta.websocket.server.ServerEndpointConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The echo endpoint every Jakarta target deploys unchanged (wsjava, Tomcat, Jetty, Tyrus): each
 * part of a message is sent back as it arrives, through the blocking remote. Parts, not whole
 * messages, so that no container needs a per-session buffer of the suite's largest message (Tomcat
 * allocates its message buffers up front, which at 16 MiB would not fit 1,000 connections); a
 * container that gets a message in one frame delivers it as one part. No extensions (the Jakarta
 * targets take no part in the compression scenario).
 */
@ServerEndpoint(value = "/echo", configurator = JakartaEcho.NoExtensions.class)
public final class JakartaEcho {
  /** Made by the container, one per connection. */
  public JakartaEcho() {}

  /**
   * Sends a text part back.
   *
   * @param part the part
   * @param last whether it ends the message
   * @param session the connection
   * @throws IOException when the send fails
   */
  @OnMessage
  public void text(String part, boolean last, Session session) throws IOException {
    session.getBasicRemote().sendText(part, last);
  }

  /**
   * Sends a binary part back.
   *
   * @param part the part
   * @param last whether it ends the message
   * @param session the connection
   * @throws IOException when the send fails
   */
  @OnMessage
  public void binary(ByteBuffer part, boolean last, Session session) throws IOException {
    session.getBasicRemote().sendBinary(part, last);
  }

  /** Negotiates no extension; everything else is the container's default. */
  public static final class NoExtensions extends ServerEndpointConfig.Configurator {
    /** Made by the container. */
    public NoExtensions() {}

    @Override
    public List<Extension> getNegotiatedExtensions(List<Extension> installed,
        List<Extension> requested) {
      return List.of();
    }
  }
}
