package dev.wsjava.bench.e2e;

import dev.wsjava.bench.peer.PeerArgs;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The throwaway key and certificate of the wss points, made by the suite for each run: an ECDSA
 * P-256 key and a self-signed certificate for {@code localhost}, 127.0.0.1 and the simulated LAN's
 * server address, in the forms the peers read ({@link PeerArgs#KEY_STORE} for JVM servers, {@link
 * PeerArgs#TRUST_STORE} for JVM clients, {@link PeerArgs#KEY_PEM} and {@link PeerArgs#CERT_PEM} for
 * Node, Go and C++). One key type for every target, since the handshake's signature dominates the
 * cost of a wss connection.
 */
final class TlsFiles {
  /** What the report says about the key. */
  static final String DESCRIPTION = "ECDSA P-256 key, self-signed certificate (SHA256withECDSA),"
      + " TLS 1.3 as every target negotiates by default";

  /** The key types the TLS handshake benchmark compares. */
  enum KeyType {
    /** ECDSA P-256, signed SHA256withECDSA: the suite's and wsjava's default. */
    EC_P256("ECDSA P-256", List.of("-keyalg", "EC", "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA")),
    /** RSA 2048, signed SHA256withRSA (TLS 1.3 signs with RSA-PSS in the handshake). */
    RSA_2048("RSA-2048", List.of("-keyalg", "RSA", "-keysize", "2048", "-sigalg", "SHA256withRSA"));

    final String label;
    final List<String> keytool;

    KeyType(String label, List<String> keytool) {
      this.label = label;
      this.keytool = keytool;
    }
  }

  private TlsFiles() {}

  /**
   * Makes the files in a directory, replacing any there.
   *
   * @param dir the directory
   * @param ips the addresses the certificate names besides localhost
   * @return the directory
   * @throws IOException when keytool fails or a file cannot be written
   */
  static Path create(Path dir, List<String> ips) throws IOException {
    return create(dir, ips, KeyType.EC_P256);
  }

  /**
   * Makes the files with a given key type in a directory, replacing any there.
   *
   * @param dir the directory
   * @param ips the addresses the certificate names besides localhost
   * @param type the key type
   * @return the directory
   * @throws IOException when keytool fails or a file cannot be written
   */
  static Path create(Path dir, List<String> ips, KeyType type) throws IOException {
    Files.createDirectories(dir);
    Path store = dir.resolve(PeerArgs.KEY_STORE);
    Files.deleteIfExists(store);
    StringBuilder san = new StringBuilder("SAN=dns:localhost");
    ips.forEach(ip -> san.append(",ip:").append(ip));
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    List<String> cmd = new ArrayList<>(List.of(keytool, "-genkeypair", "-alias", "bench"));
    cmd.addAll(type.keytool);
    cmd.addAll(List.of("-dname", "CN=localhost", "-ext", san.toString(),
        "-validity", "30", "-storetype", "PKCS12", "-keystore", store.toString(),
        "-storepass", PeerArgs.STORE_PASSWORD, "-keypass", PeerArgs.STORE_PASSWORD));
    ServerProcess.run(cmd);
    try {
      KeyStore ks = PeerArgs.keyStore(store);
      Key key = ks.getKey("bench", PeerArgs.STORE_PASSWORD.toCharArray());
      Certificate cert = ks.getCertificate("bench");
      pem(dir.resolve(PeerArgs.KEY_PEM), "PRIVATE KEY", key.getEncoded()); // PKCS#8
      pem(dir.resolve(PeerArgs.CERT_PEM), "CERTIFICATE", cert.getEncoded());
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("bench", cert);
      try (OutputStream out = Files.newOutputStream(dir.resolve(PeerArgs.TRUST_STORE))) {
        trust.store(out, PeerArgs.STORE_PASSWORD.toCharArray());
      }
    } catch (GeneralSecurityException e) {
      throw new IOException("the key keytool made cannot be read: " + e, e);
    }
    return dir;
  }

  private static void pem(Path file, String type, byte[] der) throws IOException {
    String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    Files.writeString(file, "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n",
        StandardCharsets.US_ASCII);
  }
}
