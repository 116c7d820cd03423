package dev.wsjava.transport.blocking;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Test helper: a self-signed certificate made by the JDK's keytool into a temporary directory, as
 * a server context (its key) and a client context (trusting just that certificate).
 */
final class TestTls {
  private static final char[] PASSWORD = "changeit".toCharArray();

  final SSLContext server;
  final SSLContext client;

  private TestTls(KeyStore store) throws GeneralSecurityException {
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, PASSWORD);
    server = SSLContext.getInstance("TLS");
    server.init(keys.getKeyManagers(), null, null);
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    client = SSLContext.getInstance("TLS");
    client.init(null, trust.getTrustManagers(), null);
  }

  /**
   * Makes an EC certificate for {@code san} (keytool's syntax, for example {@code
   * dns:localhost,ip:127.0.0.1}).
   */
  static TestTls create(Path dir, String san) throws Exception {
    Path file = dir.resolve("test-" + Integer.toHexString(san.hashCode()) + ".p12");
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process p =
        new ProcessBuilder(
                List.of(
                    keytool.toString(),
                    "-genkeypair",
                    "-alias", "test",
                    "-keyalg", "EC",
                    "-groupname", "secp256r1",
                    "-dname", "CN=wsjava test",
                    "-ext", "SAN=" + san,
                    "-validity", "2",
                    "-storetype", "PKCS12",
                    "-keystore", file.toString(),
                    "-storepass", new String(PASSWORD),
                    "-keypass", new String(PASSWORD)))
            .redirectErrorStream(true)
            .start();
    String output;
    try (InputStream out = p.getInputStream()) {
      output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
    }
    if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException("keytool failed: " + output);
    }
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, PASSWORD);
    }
    return new TestTls(store);
  }
}
