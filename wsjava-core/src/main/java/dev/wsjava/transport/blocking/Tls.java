package dev.wsjava.transport.blocking;

import java.io.IOException;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * TLS on {@link SSLSocket}, layered over a connected TCP socket so that the transport keeps the
 * plain socket to abort with. Only TLS 1.3 and 1.2 are enabled; older versions are broken or
 * deprecated (RFC 8996).
 */
final class Tls {
  private static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

  private Tls() {}

  /**
   * Runs the server side of a TLS handshake over {@code raw}.
   *
   * @param timeoutMillis the read timeout for each handshake read; the caller bounds the total
   * @param clientAuth whether to ask the client for a certificate
   * @param early bytes already read from {@code raw} (those after a PROXY header), or null
   */
  static SSLSocket server(
      SSLContext context,
      Socket raw,
      int timeoutMillis,
      dev.wsjava.transport.ServerBuilder.ClientAuth clientAuth,
      byte[] early)
      throws IOException {
    SSLSocket tls =
        (SSLSocket)
            (early == null || early.length == 0
                ? context.getSocketFactory().createSocket(raw, null, true)
                : context.getSocketFactory()
                    .createSocket(raw, new java.io.ByteArrayInputStream(early), true));
    tls.setEnabledProtocols(protocols(tls));
    SSLParameters p = tls.getSSLParameters();
    clientAuth.applyTo(p);
    tls.setSSLParameters(p);
    tls.setSoTimeout(timeoutMillis);
    tls.startHandshake();
    return tls;
  }

  /**
   * Runs the client side of a TLS handshake over {@code raw}: SNI names {@code host} (unless it
   * is an IP literal, which SNI cannot carry), and the certificate must name it unless {@code
   * verifyHostname} is off.
   */
  static SSLSocket client(
      SSLContext context, Socket raw, String host, int port, boolean verifyHostname, int timeout)
      throws IOException {
    SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(raw, host, port, true);
    SSLParameters params = tls.getSSLParameters();
    params.setProtocols(protocols(tls));
    params.setEndpointIdentificationAlgorithm(verifyHostname ? "HTTPS" : null);
    if (!isIpLiteral(host)) {
      params.setServerNames(List.of(new SNIHostName(host)));
    }
    tls.setSSLParameters(params);
    tls.setSoTimeout(timeout);
    tls.startHandshake();
    return tls;
  }

  private static String[] protocols(SSLSocket socket) throws SSLException {
    List<String> supported = Arrays.asList(socket.getSupportedProtocols());
    String[] enabled = PROTOCOLS.stream().filter(supported::contains).toArray(String[]::new);
    if (enabled.length == 0) {
      throw new SSLException(
          "the SSLContext supports neither TLS 1.3 nor TLS 1.2: " + supported);
    }
    return enabled;
  }

  /** IPv6 literals hold a colon; IPv4 literals are digits and dots. */
  static boolean isIpLiteral(String host) {
    return host.indexOf(':') >= 0 || host.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
  }
}
