package dev.wsjava.transport.nio;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for localhost and 127.0.0.1, made by the JDK's keytool in a temporary
 * directory, with a server context (key), a client context (trusting only it) and its trust store.
 */
record SelfSignedCert(SSLContext server, SSLContext client, KeyStore trustStore) {
  private static final char[] PASSWORD = "changeit".toCharArray();

  static SelfSignedCert create(Path dir) throws Exception {
    return create(dir, "dns:localhost,ip:127.0.0.1");
  }

  /** Makes a certificate whose subject alternative names are {@code san} (keytool syntax). */
  static SelfSignedCert create(Path dir, String san) throws Exception {
    Path store = Files.createTempFile(dir, "test", ".p12");
    Files.delete(store);
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process p =
        new ProcessBuilder(
                List.of(
                    keytool.toString(),
                    "-genkeypair",
                    "-alias",
                    "test",
                    "-keyalg",
                    "EC",
                    "-groupname",
                    "secp256r1",
                    "-validity",
                    "2",
                    "-dname",
                    "CN=localhost",
                    "-ext",
                    "san=" + san,
                    "-keystore",
                    store.toString(),
                    "-storetype",
                    "PKCS12",
                    "-storepass",
                    new String(PASSWORD),
                    "-keypass",
                    new String(PASSWORD)))
            .redirectErrorStream(true)
            .start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("keytool did not finish in 60 s");
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new IllegalStateException("keytool failed: " + out);
    }
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      ks.load(in, PASSWORD);
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, PASSWORD);
    SSLContext server = SSLContext.getInstance("TLS");
    server.init(kmf.getKeyManagers(), null, null);

    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("test", ks.getCertificate("test"));
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext client = SSLContext.getInstance("TLS");
    client.init(null, tmf.getTrustManagers(), null);
    return new SelfSignedCert(server, client, trust);
  }
}
