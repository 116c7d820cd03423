package dev.wsjava.proxy;

import dev.wsjava.handshake.HttpHead;
import dev.wsjava.handshake.HttpHeadException;
import dev.wsjava.handshake.HttpHeadLimits;
import dev.wsjava.handshake.HttpHeadParser;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * RFC 9110 §9.3.6: a CONNECT tunnel through an HTTP proxy. Sends {@code CONNECT host:port
 * HTTP/1.1} with {@code Host} and, when credentials are given, {@code Proxy-Authorization: Basic}
 * (RFC 7617, UTF-8); reads the answer head with {@link HttpHeadParser} under the default head
 * limits. Interim 1xx heads are skipped (at most a few); any 2xx opens the tunnel and the bytes
 * after its head are the server's (a 2xx to CONNECT has no body, §9.3.6); anything else is a
 * refusal quoted in the failure, for example {@code 407 Proxy Authentication Required}.
 */
public final class HttpConnectTunnel extends Tunnel {
  /** 1xx heads tolerated before the real answer; a proxy has no reason to send any. */
  private static final int MAX_INTERIM = 4;

  private final HttpHeadParser<HttpHead.Response> parser =
      HttpHeadParser.forResponses(HttpHeadLimits.defaults());
  private int interim;
  private boolean finished;

  HttpConnectTunnel(ProxySpec proxy, String targetHost, int targetPort) {
    super(proxy, targetHost, targetPort);
    StringBuilder request = new StringBuilder(128);
    request.append("CONNECT ").append(target()).append(" HTTP/1.1\r\n");
    request.append("Host: ").append(target()).append("\r\n");
    if (proxy.user() != null) {
      String credentials = proxy.user() + ":" + proxy.password();
      request
          .append("Proxy-Authorization: Basic ")
          .append(
              Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)))
          .append("\r\n");
    }
    request.append("\r\n");
    send(request.toString().getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public Step receive(ByteBuffer in) throws TunnelException {
    if (finished) {
      throw new IllegalStateException("the CONNECT exchange is over");
    }
    while (true) {
      HttpHead.Response head;
      try {
        head = parser.parse(in);
      } catch (HttpHeadException e) {
        finished = true;
        throw failure("sent a malformed answer to CONNECT " + target() + ": " + e.getMessage());
      }
      if (head == null) {
        return Step.NEED_MORE;
      }
      int status = head.status();
      if (status < 200) {
        if (++interim > MAX_INTERIM) {
          finished = true;
          throw failure("sent more than " + MAX_INTERIM + " interim answers to CONNECT " + target());
        }
        continue;
      }
      finished = true;
      if (status < 300) {
        return Step.DONE;
      }
      String line = status + (head.reason().isEmpty() ? "" : " " + head.reason());
      throw failure("refused CONNECT " + target() + ": " + line + hint(status));
    }
  }

  /**
   * Explains an authentication refusal: 407 is the proxy's (RFC 9110 §15.5.8), and some proxies
   * (tinyproxy before 1.11.2, its issue 532) answer wrong credentials with 401.
   */
  private String hint(int status) {
    if (status != 407 && status != 401) {
      return "";
    }
    return proxy().user() == null
        ? " (the proxy wants credentials: give them as http://user:password@host:port)"
        : " (the proxy did not accept the credentials of user '" + proxy().user() + "')";
  }

  @Override
  public TunnelException endOfStream() {
    return failure("closed the connection before answering CONNECT " + target());
  }
}
