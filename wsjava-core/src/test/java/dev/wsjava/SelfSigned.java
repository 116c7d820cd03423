package dev.wsjava;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;

/**
 * Test helper: a self-signed certificate for localhost and 127.0.0.1, made with the JDK's keytool,
 * as a PKCS12 store and as PEM files.
 */
public record SelfSigned(Path pkcs12, char[] password, Path certPem, Path keyPem) {

  /** Creates the files under {@code dir}. */
  public static SelfSigned create(Path dir) throws Exception {
    return create(dir, "server", "CN=localhost");
  }

  /** Creates {@code NAME.p12}, {@code NAME-cert.pem} and {@code NAME-key.pem} for this subject. */
  public static SelfSigned create(Path dir, String name, String subject) throws Exception {
    Path p12 = dir.resolve(name + ".p12");
    char[] password = "changeit".toCharArray();
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process p =
        new ProcessBuilder(
                keytool.toString(), "-genkeypair", "-alias", "server", "-keyalg", "EC",
                "-groupname", "secp256r1", "-validity", "2", "-dname", subject,
                "-ext", "SAN=dns:localhost,ip:127.0.0.1,ip:::1", "-storetype", "PKCS12",
                "-keystore", p12.toString(), "-storepass", "changeit", "-keypass", "changeit")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException("keytool failed: " + out);
    }
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(p12)) {
      ks.load(in, password);
    }
    Certificate cert = ks.getCertificate("server");
    byte[] key = ks.getKey("server", password).getEncoded();
    boolean server = name.equals("server");
    Path certPem = dir.resolve(server ? "cert.pem" : name + "-cert.pem");
    Path keyPem = dir.resolve(server ? "key.pem" : name + "-key.pem");
    Files.writeString(certPem, pem("CERTIFICATE", cert.getEncoded()));
    Files.writeString(keyPem, pem("PRIVATE KEY", key));
    return new SelfSigned(p12, password, certPem, keyPem);
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }
}
