package dev.wsjava.jakarta;

/**
 * The user-property keys wsjava's client container reads from a {@code ClientEndpointConfig}'s
 * {@code getUserProperties()} when it connects. Where another container has a key for the same
 * thing, the same key is used, so a configuration written for it works here too.
 *
 * <pre>{@code
 * ClientEndpointConfig config = ClientEndpointConfig.Builder.create().build();
 * config.getUserProperties().put(JakartaProperties.TRANSPORT, "BLOCKING");
 * config.getUserProperties().put(JakartaProperties.PROXY, "http://proxy.local:3128");
 * }</pre>
 *
 * <p>Constants only; thread-safe.
 */
public final class JakartaProperties {
  private JakartaProperties() {}

  /**
   * Which wsjava transport runs the connection: {@code "NIO"} (the default) or {@code
   * "BLOCKING"}, as a string or a {@link dev.wsjava.Transport}.
   */
  public static final String TRANSPORT = "dev.wsjava.transport";

  /**
   * An {@link javax.net.ssl.SSLContext} for {@code wss://}, used when the config's own {@code
   * getSSLContext()} (the standard way since Jakarta WebSocket 2.1) is null. Tomcat's key.
   */
  public static final String SSL_CONTEXT = "org.apache.tomcat.websocket.SSL_CONTEXT";

  /**
   * The proxy to connect through: a URI string ({@code http://host:port}, {@code
   * http://user:password@host:port}, {@code socks5://host:port}) or a {@link
   * dev.wsjava.WebSocketProxy}. Tyrus's key ({@code ClientProperties.PROXY_URI}).
   */
  public static final String PROXY = "org.glassfish.tyrus.client.proxy";
}
