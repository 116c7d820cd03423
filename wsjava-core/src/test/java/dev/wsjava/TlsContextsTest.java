package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsContextsTest {
  @TempDir static Path dir;
  static SelfSigned cert;

  @BeforeAll
  static void makeCertificate() throws Exception {
    cert = SelfSigned.create(dir);
  }

  /** Runs one TLS exchange on loopback: the client sends a byte, the server echoes it. */
  static int exchange(SSLContext server, SSLContext client, String host) throws Exception {
    try (SSLServerSocket ss = (SSLServerSocket) server.getServerSocketFactory().createServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
        try (SSLSocket s = (SSLSocket) ss.accept()) {
          s.setSoTimeout(5000);
          InputStream in = s.getInputStream();
          OutputStream out = s.getOutputStream();
          out.write(in.read());
          out.flush();
        } catch (Exception e) {
          // the client's assertion reports what went wrong
        }
      });
      try (SSLSocket c = (SSLSocket) client.getSocketFactory().createSocket(host, ss.getLocalPort())) {
        SSLParameters p = c.getSSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS");
        c.setSSLParameters(p);
        c.setSoTimeout(5000);
        c.getOutputStream().write(42);
        c.getOutputStream().flush();
        int got = c.getInputStream().read();
        served.join();
        return got;
      }
    }
  }

  @Test
  void aPkcs12ServerIsTrustedByAClientTrustingItsCertificate() throws Exception {
    SSLContext server = TlsContexts.fromPkcs12(cert.pkcs12(), cert.password());
    assertThat(exchange(server, TlsContexts.trusting(cert.certPem()), "localhost")).isEqualTo(42);
  }

  @Test
  void aPemServerIsTrustedByAClientTrustingItsCertificate() throws Exception {
    SSLContext server = TlsContexts.fromPem(cert.certPem(), cert.keyPem());
    assertThat(exchange(server, TlsContexts.trusting(cert.certPem()), "127.0.0.1")).isEqualTo(42);
  }

  @Test
  void theDefaultTrustStoreRejectsASelfSignedServer() throws Exception {
    SSLContext server = TlsContexts.fromPkcs12(cert.pkcs12(), cert.password());
    assertThatThrownBy(() -> exchange(server, SSLContext.getDefault(), "localhost"))
        .isInstanceOf(SSLHandshakeException.class);
  }

  @Test
  void aPkcs1KeyIsRefusedWithTheCommandThatConvertsIt() throws Exception {
    Path rsa = dir.resolve("rsa.pem");
    Files.writeString(rsa, "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
    assertThatThrownBy(() -> TlsContexts.fromPem(cert.certPem(), rsa))
        .isInstanceOf(GeneralSecurityException.class)
        .hasMessageContaining("openssl pkcs8 -topk8");
  }
}
