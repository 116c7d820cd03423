package dev.wsjava;

import java.nio.file.Path;
import javax.net.ssl.SSLContext;

/**
 * Test helper: TLS contexts for a fresh self-signed localhost certificate, the server's holding
 * its key and the client's trusting it.
 */
record TestTls(SSLContext server, SSLContext client) {

  /** Makes the certificate under {@code dir} and both contexts. */
  static TestTls create(Path dir) throws Exception {
    SelfSigned cert = SelfSigned.create(dir);
    return new TestTls(
        TlsContexts.fromPkcs12(cert.pkcs12(), cert.password()),
        TlsContexts.trusting(cert.certPem()));
  }
}
