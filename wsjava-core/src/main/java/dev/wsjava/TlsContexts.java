package dev.wsjava;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Builds {@link SSLContext}s for servers (from a PKCS12 key store or PEM files), for clients that
 * trust a specific certificate, and for mutual TLS: a server that checks client certificates
 * against its own trusted ones, a client that presents a certificate (the same methods, given the
 * certificates to trust). Clients without a context use the JDK's default trust store;
 * certificate and host name checks are always on unless a client builder is told otherwise by a
 * method whose name says it is insecure.
 */
public final class TlsContexts {
  private static final Pattern PEM =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");

  private TlsContexts() {}

  /**
   * A server context from a PKCS12 key store holding the key and its certificate chain.
   *
   * @param keyStore the .p12 file
   * @param password the store's (and the key's) password
   * @return a TLS context
   * @throws IOException when the file cannot be read
   * @throws GeneralSecurityException when the store or key is unusable
   */
  public static SSLContext fromPkcs12(Path keyStore, char[] password)
      throws IOException, GeneralSecurityException {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keyStore)) {
      ks.load(in, password);
    }
    return serverContext(ks, password);
  }

  /**
   * A server context from PEM files: a certificate chain (leaf first) and an unencrypted PKCS#8
   * private key ({@code BEGIN PRIVATE KEY}, RSA, EC or EdDSA).
   *
   * @param certificateChain the certificates
   * @param privateKey the key
   * @return a TLS context
   * @throws IOException when a file cannot be read
   * @throws GeneralSecurityException when the key or certificates are unusable; a PKCS#1 or SEC1
   *     key is refused with the command that converts it
   */
  public static SSLContext fromPem(Path certificateChain, Path privateKey)
      throws IOException, GeneralSecurityException {
    char[] password = new char[0];
    return serverContext(pemKeyStore(certificateChain, privateKey, password), password);
  }

  private static KeyStore pemKeyStore(Path certificateChain, Path privateKey, char[] password)
      throws IOException, GeneralSecurityException {
    List<Certificate> chain = certificates(Files.readString(certificateChain, StandardCharsets.US_ASCII));
    if (chain.isEmpty()) {
      throw new GeneralSecurityException("no CERTIFICATE block in " + certificateChain);
    }
    PrivateKey key = privateKey(Files.readString(privateKey, StandardCharsets.US_ASCII), privateKey);
    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(null, null);
    ks.setKeyEntry("key", key, password, chain.toArray(new Certificate[0]));
    return ks;
  }

  /**
   * A context for mutual TLS from a PKCS12 key store and the certificates to trust: a server's
   * (with {@code WebSocketServer.Builder.requireClientCertificates()}, it accepts the clients whose
   * chain ends in one of them), or a client's (it presents the key's certificate and trusts servers
   * whose chain ends in one of them, host name checks still on).
   *
   * @param keyStore the .p12 file with this end's key and certificate chain
   * @param password the store's (and the key's) password
   * @param trusted PEM certificates to trust: a CA, or the peers' own certificates
   * @return a TLS context
   * @throws IOException when a file cannot be read
   * @throws GeneralSecurityException when the store, key or certificates are unusable
   */
  public static SSLContext fromPkcs12(Path keyStore, char[] password, Path trusted)
      throws IOException, GeneralSecurityException {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keyStore)) {
      ks.load(in, password);
    }
    return context(ks, password, trusted);
  }

  /**
   * A context for mutual TLS from PEM files, as {@link #fromPkcs12(Path, char[], Path)}.
   *
   * @param certificateChain this end's certificates, leaf first
   * @param privateKey its unencrypted PKCS#8 key
   * @param trusted PEM certificates to trust
   * @return a TLS context
   * @throws IOException when a file cannot be read
   * @throws GeneralSecurityException when the key or certificates are unusable
   */
  public static SSLContext fromPem(Path certificateChain, Path privateKey, Path trusted)
      throws IOException, GeneralSecurityException {
    char[] password = new char[0];
    return context(pemKeyStore(certificateChain, privateKey, password), password, trusted);
  }

  /**
   * A client context that trusts exactly the certificates in a PEM file (for a private CA or a
   * self-signed development server), with host name checks still on.
   *
   * @param trusted PEM certificates to trust
   * @return a TLS context
   * @throws IOException when the file cannot be read
   * @throws GeneralSecurityException when a certificate is unusable
   */
  public static SSLContext trusting(Path trusted) throws IOException, GeneralSecurityException {
    return context(null, null, trusted);
  }

  private static SSLContext serverContext(KeyStore ks, char[] password)
      throws GeneralSecurityException, IOException {
    return context(ks, password, null);
  }

  /** A context with this key (or none) and trusting these certificates (or the JDK's default). */
  private static SSLContext context(KeyStore keys, char[] password, Path trusted)
      throws IOException, GeneralSecurityException {
    javax.net.ssl.KeyManager[] km = null;
    if (keys != null) {
      KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, password);
      km = kmf.getKeyManagers();
    }
    javax.net.ssl.TrustManager[] tm = null;
    if (trusted != null) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      int i = 0;
      for (Certificate c : certificates(Files.readString(trusted, StandardCharsets.US_ASCII))) {
        ks.setCertificateEntry("trusted-" + i++, c);
      }
      if (i == 0) {
        throw new GeneralSecurityException("no CERTIFICATE block in " + trusted);
      }
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(ks);
      tm = tmf.getTrustManagers();
    }
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(km, tm, null);
    return ctx;
  }

  private static List<Certificate> certificates(String pem) throws GeneralSecurityException {
    CertificateFactory cf = CertificateFactory.getInstance("X.509");
    List<Certificate> out = new ArrayList<>();
    Matcher m = PEM.matcher(pem);
    while (m.find()) {
      if (m.group(1).equals("CERTIFICATE")) {
        out.add(cf.generateCertificate(new java.io.ByteArrayInputStream(der(m.group(2)))));
      }
    }
    return out;
  }

  private static PrivateKey privateKey(String pem, Path file) throws GeneralSecurityException {
    Matcher m = PEM.matcher(pem);
    while (m.find()) {
      String type = m.group(1);
      if (type.equals("PRIVATE KEY")) {
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der(m.group(2)));
        for (String algorithm : new String[] {"RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS"}) {
          try {
            return KeyFactory.getInstance(algorithm).generatePrivate(spec);
          } catch (GeneralSecurityException wrongAlgorithm) {
            // try the next
          }
        }
        throw new GeneralSecurityException("unsupported private key algorithm in " + file);
      }
      if (type.equals("RSA PRIVATE KEY") || type.equals("EC PRIVATE KEY")
          || type.equals("ENCRYPTED PRIVATE KEY")) {
        throw new GeneralSecurityException(
            file + " holds a " + type + "; convert it to unencrypted PKCS#8 with: "
                + "openssl pkcs8 -topk8 -nocrypt -in " + file + " -out key.pk8.pem");
      }
    }
    throw new GeneralSecurityException("no PRIVATE KEY block in " + file);
  }

  private static byte[] der(String base64) {
    return Base64.getMimeDecoder().decode(base64);
  }
}
