package dev.wsjava.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A development certificate for {@code localhost} and {@code 127.0.0.1} (and {@code ::1}), made
 * at start by the running JDK's {@code keytool} in a private temporary directory: an EC P-256 key
 * in a PKCS12 store, and the certificate as PEM for clients to trust. Valid for 30 days; never
 * for production.
 *
 * @param directory the temporary directory holding both files
 * @param keyStore the PKCS12 store with the key and certificate
 * @param password the store's random password
 * @param certificatePem the certificate alone, PEM
 * @param certificate the certificate
 */
record SelfSignedCertificate(
    Path directory, Path keyStore, char[] password, Path certificatePem, X509Certificate certificate) {
  private static final String ALIAS = "wsjava";
  private static final long KEYTOOL_SECONDS = 60;

  /** Runs keytool and reads back what it made. */
  static SelfSignedCertificate create() throws IOException, GeneralSecurityException, InterruptedException {
    Path dir;
    try {
      dir = Files.createTempDirectory(
          "wsjava-tls", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (UnsupportedOperationException notPosix) {
      dir = Files.createTempDirectory("wsjava-tls");
    }
    Path store = dir.resolve("server.p12");
    byte[] random = new byte[18];
    new SecureRandom().nextBytes(random);
    char[] password = Base64.getUrlEncoder().encodeToString(random).toCharArray();
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    ProcessBuilder pb =
        new ProcessBuilder(
                List.of(
                    keytool.toString(), "-genkeypair", "-alias", ALIAS, "-keyalg", "EC",
                    "-groupname", "secp256r1", "-validity", "30",
                    "-dname", "CN=localhost, O=wsjava development",
                    "-ext", "SAN=dns:localhost,ip:127.0.0.1,ip:::1",
                    "-storetype", "PKCS12", "-keystore", store.toString(),
                    // the password goes through the environment, not the process list
                    "-storepass:env", "WSJAVA_STOREPASS", "-keypass:env", "WSJAVA_STOREPASS"))
            .redirectErrorStream(true);
    pb.environment().put("WSJAVA_STOREPASS", new String(password));
    Process p = pb.start();
    String output;
    try (InputStream in = p.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    if (!p.waitFor(KEYTOOL_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException(keytool + " did not finish in " + KEYTOOL_SECONDS + " s");
    }
    if (p.exitValue() != 0) {
      throw new IOException(keytool + " failed (" + p.exitValue() + "): " + output.strip());
    }
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      ks.load(in, password);
    }
    X509Certificate cert = (X509Certificate) ks.getCertificate(ALIAS);
    Path pem = dir.resolve("cert.pem");
    Files.writeString(
        pem,
        "-----BEGIN CERTIFICATE-----\n"
            + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(cert.getEncoded())
            + "\n-----END CERTIFICATE-----\n",
        StandardCharsets.US_ASCII);
    return new SelfSignedCertificate(dir, store, password, pem, cert);
  }

  /** The SHA-256 fingerprint as browsers show it: {@code AB:CD:...}. */
  String fingerprint() {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
      return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is not available in this JVM", e);
    }
  }

  /** Deletes the temporary files. */
  void delete() {
    for (Path p : new Path[] {keyStore, certificatePem, directory}) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException ignored) {
        // a temporary file left behind is harmless
      }
    }
  }
}
