package dev.wsjava.proxy;

import java.nio.ByteBuffer;

/**
 * The client side of a proxy tunnel, sans-I/O: what to send to the proxy, and what its answers
 * mean. Use: write {@link #output()} until it is empty, feed what arrives to {@link
 * #receive(ByteBuffer)}, and repeat until it returns {@link Step#DONE}; the bytes left in the
 * buffer after that belong to the tunnelled stream. At the end of the stream before then, throw
 * {@link #endOfStream()}.
 *
 * <p>Not thread-safe: one connection's thread drives it.
 */
public abstract sealed class Tunnel permits HttpConnectTunnel, Socks5Tunnel {
  /** What {@link #receive} concluded. */
  public enum Step {
    /** Send {@link #output()} (when not empty), then feed more of the proxy's bytes. */
    NEED_MORE,
    /** The tunnel is open; bytes left in the input belong to the server behind the proxy. */
    DONE
  }

  private final ProxySpec proxy;
  private final String target;
  private ByteBuffer output;

  Tunnel(ProxySpec proxy, String targetHost, int targetPort) {
    this.proxy = proxy;
    this.target = authority(targetHost, targetPort);
  }

  /**
   * Writes a host and port as an authority.
   *
   * @param host a host name or IP literal, IPv6 without brackets
   * @param port the port
   * @return {@code host:port}, with an IPv6 literal in brackets (RFC 3986 §3.2.2)
   */
  public static String authority(String host, int port) {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }

  /**
   * Returns the bytes to send to the proxy now; the caller advances the buffer's position as it
   * writes them. Check again after each {@link #receive}.
   *
   * @return position to limit; empty when there is nothing to send
   */
  public final ByteBuffer output() {
    return output;
  }

  /**
   * Consumes the proxy's bytes, up to the end of its answer.
   *
   * @param in the bytes received, position to limit; on {@link Step#DONE} the position is just past
   *     the proxy's last byte and the rest is the tunnelled stream's
   * @return whether the tunnel is open
   * @throws TunnelException when the proxy refused, or answered something that breaks its protocol
   * @throws IllegalStateException when called after {@link Step#DONE} or a failure
   */
  public abstract Step receive(ByteBuffer in) throws TunnelException;

  /**
   * Returns the failure to report when the proxy closed the connection before the tunnel opened.
   *
   * @return an exception that names the proxy and the stage
   */
  public abstract TunnelException endOfStream();

  /**
   * Returns the proxy this tunnel goes through.
   *
   * @return the proxy
   */
  public final ProxySpec proxy() {
    return proxy;
  }

  /**
   * Returns the target as the tunnel names it.
   *
   * @return {@code host:port}, IPv6 literals in brackets
   */
  public final String target() {
    return target;
  }

  /** Sets the next bytes to send. */
  final void send(byte[] bytes) {
    output = ByteBuffer.wrap(bytes);
  }

  /** Creates a failure about this proxy: "proxy P: what". */
  final TunnelException failure(String what) {
    return new TunnelException(proxy, "proxy " + proxy + " " + what);
  }
}
