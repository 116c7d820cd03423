package dev.wsjava.bench.peer.jakarta;

import dev.wsjava.bench.peer.PeerArgs;
import jakarta.websocket.CloseReason;
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
 *
 * <p>The suite's limit ({@link PeerArgs#MAX_MESSAGE}, 16 MiB) is kept here, by the endpoint, the
 * same way on every container: containers apply their message-size settings to whole-message
 * handlers only (Tomcat and Jetty deliver partial messages of any length, and Tomcat's {@code
 * maxMessageSize} on a partial handler would allocate a buffer of that size per session), so a
 * message that grows past the limit is refused here with 1009 before any more of it is echoed.
 */
@ServerEndpoint(value = "/echo", configurator = JakartaEcho.NoExtensions.class)
public final class JakartaEcho {
  /** Bytes of the message under way so far (text counted in chars, at most as many as bytes). */
  private long received;
  /** Whether the session was closed for a message over the limit: nothing more is echoed. */
  private boolean refused;

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
    if (withinLimit(part.length(), last, session)) {
      session.getBasicRemote().sendText(part, last);
    }
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
    if (withinLimit(part.remaining(), last, session)) {
      session.getBasicRemote().sendBinary(part, last);
    }
  }

  /** Counts a part; past the suite's limit, closes with 1009 and says not to echo it. */
  private boolean withinLimit(int n, boolean last, Session session) throws IOException {
    if (refused) {
      return false;
    }
    long total = received + n;
    received = last ? 0 : total;
    if (total > PeerArgs.MAX_MESSAGE) {
      refused = true;
      session.close(new CloseReason(CloseReason.CloseCodes.TOO_BIG,
          "message over " + PeerArgs.MAX_MESSAGE + " bytes"));
      return false;
    }
    return true;
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
