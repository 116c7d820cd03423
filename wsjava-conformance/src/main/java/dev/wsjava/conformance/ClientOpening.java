package dev.wsjava.conformance;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * RFC 6455 §4.1: the suite opens one connection to the server under test, TCP or TLS, sends an
 * upgrade request with a fresh key (and a permessage-deflate offer when the case has one), and
 * checks the response: status 101, {@code Upgrade} and {@code Connection}, the accept key, no
 * subprotocol and no extension it did not offer.
 */
final class ClientOpening {
  private static final SecureRandom RANDOM = new SecureRandom();

  private ClientOpening() {}

  /** An open connection after a good handshake. */
  record Opened(Socket socket, InputStream in, OutputStream out, Compression compression) {}

  /** Why a case cannot run: a refused or broken handshake (FAILED), a declined offer. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    private final Verdict verdict;

    Refused(Verdict verdict, String message) {
      super(message);
      this.verdict = verdict;
    }

    Verdict verdict() {
      return verdict;
    }
  }

  /**
   * Connects and performs the opening handshake.
   *
   * @param url a ws:// or wss:// URL
   * @param insecure accept any certificate and host name (development only)
   * @param offer the permessage-deflate offers, or null for none
   * @param timeout for connecting and for the handshake
   * @return the open connection
   * @throws Refused when the handshake fails or the offer is declined
   */
  static Opened open(URI url, boolean insecure, DeflateNegotiation offer, Duration timeout)
      throws Refused {
    boolean tls = "wss".equalsIgnoreCase(url.getScheme());
    String host = url.getHost();
    int port = url.getPort() >= 0 ? url.getPort() : tls ? 443 : 80;
    Socket socket = new Socket();
    try {
      socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
      socket.setTcpNoDelay(true);
      if (tls) {
        SSLSocket ssl = (SSLSocket) context(insecure).getSocketFactory()
            .createSocket(socket, host, port, true);
        if (!insecure) {
          SSLParameters params = ssl.getSSLParameters();
          params.setEndpointIdentificationAlgorithm("HTTPS");
          ssl.setSSLParameters(params);
        }
        socket = ssl;
      }
      socket.setSoTimeout((int) timeout.toMillis());
      byte[] nonce = new byte[16];
      RANDOM.nextBytes(nonce);
      String key = Base64.getEncoder().encodeToString(nonce);
      OutputStream out = socket.getOutputStream();
      out.write(request(url, host, port, tls, key, offer).getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
      HttpHead head = HttpHead.read(in);
      socket.setSoTimeout(0);
      Compression compression;
      try {
        compression = check(head, key, offer);
      } catch (Refused e) {
        if (e.verdict() == Verdict.UNIMPLEMENTED) {
          // The connection is open and fine; end it politely before moving on.
          out.write(Frames.encode(Frame.close(1000, "offer declined"), true, 0x5A5A5A5A));
          out.flush();
        }
        throw e;
      }
      return new Opened(socket, in, out, compression);
    } catch (Refused e) {
      closeQuietly(socket);
      throw e;
    } catch (IOException | GeneralSecurityException e) {
      closeQuietly(socket);
      throw new Refused(Verdict.FAILED, "could not open the WebSocket: " + e);
    }
  }

  private static String request(
      URI url, String host, int port, boolean tls, String key, DeflateNegotiation offer) {
    String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
    if (url.getRawQuery() != null) {
      path += "?" + url.getRawQuery();
    }
    boolean defaultPort = port == (tls ? 443 : 80);
    String hostHeader = (host.contains(":") ? "[" + host + "]" : host)
        + (defaultPort ? "" : ":" + port);
    return "GET " + path + " HTTP/1.1\r\n"
        + "Host: " + hostHeader + "\r\n"
        + "Upgrade: websocket\r\n"
        + "Connection: Upgrade\r\n"
        + "Sec-WebSocket-Key: " + key + "\r\n"
        + "Sec-WebSocket-Version: 13\r\n"
        + (offer == null ? "" : "Sec-WebSocket-Extensions: " + offer.offerHeader() + "\r\n")
        + "User-Agent: wsjava-conformance\r\n"
        + "\r\n";
  }

  private static Compression check(HttpHead head, String key, DeflateNegotiation offer)
      throws Refused {
    String[] status = head.startLine().split(" ", 3);
    if (status.length < 2 || !status[1].equals("101")) {
      throw new Refused(Verdict.FAILED, "the server refused the upgrade: " + head.startLine());
    }
    if (!head.hasToken("Upgrade", "websocket")) {
      throw new Refused(Verdict.FAILED,
          "the 101 response lacks Upgrade: websocket (RFC 6455 §4.1, check 2)");
    }
    if (!head.hasToken("Connection", "upgrade")) {
      throw new Refused(Verdict.FAILED,
          "the 101 response lacks Connection: Upgrade (RFC 6455 §4.1, check 3)");
    }
    String accept = head.header("Sec-WebSocket-Accept");
    if (!accept.equals(HttpHead.accept(key))) {
      throw new Refused(Verdict.FAILED, "Sec-WebSocket-Accept is \"" + accept + "\", expected \""
          + HttpHead.accept(key) + "\" (RFC 6455 §4.1, check 4)");
    }
    if (!head.header("Sec-WebSocket-Protocol").isEmpty()) {
      throw new Refused(Verdict.FAILED, "the server chose a subprotocol the client did not offer"
          + " (RFC 6455 §4.1, check 6)");
    }
    String extensions = head.header("Sec-WebSocket-Extensions");
    for (String name : DeflateParameters.names(extensions)) {
      if (offer == null || !name.equalsIgnoreCase(DeflateParameters.NAME)) {
        throw new Refused(Verdict.FAILED, "the server accepted extension " + name
            + ", which the client did not offer (RFC 6455 §4.1, check 5)");
      }
    }
    if (offer == null) {
      return null;
    }
    List<DeflateParameters> accepted;
    try {
      accepted = DeflateParameters.parse(extensions, false);
    } catch (IllegalArgumentException e) {
      throw new Refused(Verdict.FAILED, "invalid permessage-deflate response: " + e.getMessage());
    }
    if (accepted.isEmpty()) {
      throw new Refused(Verdict.UNIMPLEMENTED,
          "the server declined the offer \"" + offer.offerHeader() + "\"");
    }
    if (accepted.size() > 1) {
      throw new Refused(Verdict.FAILED, "permessage-deflate accepted twice (RFC 6455 §9.1)");
    }
    DeflateParameters response = accepted.get(0);
    for (DeflateParameters o : offer.offers()) {
      if (response.misfitAsResponseTo(o) == null) {
        return Compression.asClient(o, response);
      }
    }
    DeflateParameters first = offer.offers().get(0);
    if (first.serverMaxWindowBits() != DeflateParameters.ABSENT
        && response.serverMaxWindowBits() == DeflateParameters.ABSENT) {
      // The server ignored an optional parameter instead of declining the offer: the case
      // cannot test what it is about, and a client keeping to the letter would fail here.
      throw new Refused(Verdict.UNIMPLEMENTED, "the server accepted permessage-deflate but left"
          + " out server_max_window_bits=" + first.serverMaxWindowBits() + ", which it must echo"
          + " to accept the offer (RFC 7692 §7.1.2.1): taken as not supporting the parameter");
    }
    throw new Refused(Verdict.FAILED, "the permessage-deflate response \"" + response.element()
        + "\" fits none of the offers; against the first it breaks a rule: "
        + response.misfitAsResponseTo(first));
  }

  private static SSLContext context(boolean insecure) throws GeneralSecurityException {
    if (!insecure) {
      return SSLContext.getDefault();
    }
    SSLContext c = SSLContext.getInstance("TLS");
    c.init(null, new TrustManager[] {new TrustAnything()}, null);
    return c;
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // nothing to do
    }
  }

  /** INSECURE, for --insecure only: trusts every certificate. */
  private static final class TrustAnything implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
