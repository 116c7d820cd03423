package dev.wsjava.bench.peer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The command line every echo server peer takes, and the line it prints once it listens ({@code
 * READY PORT detail}). Peers serve the echo at {@code /echo} and, where the library can, {@code GET
 * /} answering 200 {@code text/plain} "hello".
 *
 * <p>{@code PORT [--host ADDR] [--deflate LEVEL] [--one-loop] [--tls DIR]}:
 *
 * <ul>
 *   <li>{@code --host}: the address to listen on, 127.0.0.1 unless given (the simulated LAN
 *       scenarios listen on a network namespace's address);
 *   <li>{@code --deflate LEVEL}: accept permessage-deflate and compress at this zlib level (the
 *       suite passes one level to every target); without it, answer no extension;
 *   <li>{@code --one-loop}: one event loop, selector or worker thread for the I/O, where the library
 *       lets one choose (the per-core variant of scenarios 2 and 4);
 *   <li>{@code --tls DIR}: serve wss:// with the suite's key and certificate from {@code DIR}
 *       ({@link #KEY_STORE}, or {@link #KEY_PEM} and {@link #CERT_PEM} for non-JVM peers).
 * </ul>
 *
 * <p>Every peer keeps the suite's contract: TCP_NODELAY on, messages and frames up to {@link
 * #MAX_MESSAGE} accepted and larger ones refused, deflate only when asked. The suite checks what it
 * can from outside before it measures.
 *
 * @param port the port to listen on
 * @param host the address to listen on
 * @param deflateLevel the zlib level for permessage-deflate, or {@link #NO_DEFLATE}
 * @param oneLoop whether to run one I/O loop or worker
 * @param tls the directory of the key and certificate, or {@code null} for plain ws://
 */
public record PeerArgs(int port, String host, int deflateLevel, boolean oneLoop, Path tls) {
  /** The WebSocket echo path. */
  public static final String ECHO_PATH = "/echo";
  /** The body of {@code GET /}. */
  public static final String HELLO = "hello";
  /** The largest message or frame a peer accepts: 16 MiB, above the suite's largest (1 MiB). */
  public static final int MAX_MESSAGE = 16 << 20;
  /** {@link #deflateLevel()} when permessage-deflate is off. */
  public static final int NO_DEFLATE = -1;
  /** The PKCS#12 key store in the TLS directory (key and certificate, for JVM servers). */
  public static final String KEY_STORE = "server.p12";
  /** The PKCS#12 trust store in the TLS directory (the certificate alone, for JVM clients). */
  public static final String TRUST_STORE = "trust.p12";
  /** The PEM certificate in the TLS directory (for Node, Go and C++). */
  public static final String CERT_PEM = "cert.pem";
  /** The PEM private key (PKCS#8) in the TLS directory (for Node, Go and C++). */
  public static final String KEY_PEM = "key.pem";
  /** The password of both stores: a throwaway key made for the benchmark, nothing to protect. */
  public static final String STORE_PASSWORD = "wsjava-bench";

  /**
   * Parses the command line.
   *
   * @param args {@code PORT [--host ADDR] [--deflate LEVEL] [--one-loop] [--tls DIR]}
   * @return the arguments
   * @throws IllegalArgumentException on anything else
   */
  public static PeerArgs parse(String[] args) {
    if (args.length < 1) {
      throw new IllegalArgumentException(usage());
    }
    int port = Integer.parseInt(args[0]);
    String host = "127.0.0.1";
    int level = NO_DEFLATE;
    boolean oneLoop = false;
    Path tls = null;
    for (int i = 1; i < args.length; i++) {
      switch (args[i]) {
        case "--host" -> host = value(args, ++i);
        case "--deflate" -> {
          level = Integer.parseInt(value(args, ++i));
          if (level < 0 || level > 9) {
            throw new IllegalArgumentException("--deflate takes a zlib level 0-9: " + level);
          }
        }
        case "--one-loop" -> oneLoop = true;
        case "--tls" -> tls = Path.of(value(args, ++i));
        default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; " + usage());
      }
    }
    return new PeerArgs(port, host, level, oneLoop, tls);
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException(args[i - 1] + " needs a value; " + usage());
    }
    return args[i];
  }

  private static String usage() {
    return "usage: PORT [--host ADDR] [--deflate LEVEL] [--one-loop] [--tls DIR]";
  }

  /**
   * Whether to accept permessage-deflate.
   *
   * @return true with {@code --deflate}
   */
  public boolean deflate() {
    return deflateLevel != NO_DEFLATE;
  }

  /**
   * Builds the server's TLS context from the key store in the TLS directory.
   *
   * @return a TLS context holding the suite's key
   * @throws IOException when the store cannot be read
   * @throws GeneralSecurityException when it cannot be used
   */
  public SSLContext serverTls() throws IOException, GeneralSecurityException {
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keyStore(tls.resolve(KEY_STORE)), STORE_PASSWORD.toCharArray());
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf.getKeyManagers(), null, null);
    return ctx;
  }

  /**
   * Builds a client TLS context that trusts the suite's certificate (and nothing else).
   *
   * @param trustStore the trust store ({@link #TRUST_STORE} in the TLS directory)
   * @return the context
   * @throws IOException when the store cannot be read
   * @throws GeneralSecurityException when it cannot be used
   */
  public static SSLContext clientTls(Path trustStore) throws IOException, GeneralSecurityException {
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, trustManagers(trustStore).getTrustManagers(), null);
    return ctx;
  }

  /**
   * Builds the trust managers of a trust store.
   *
   * @param trustStore a PKCS#12 store holding the trusted certificate
   * @return the initialized factory
   * @throws IOException when the store cannot be read
   * @throws GeneralSecurityException when it cannot be used
   */
  public static TrustManagerFactory trustManagers(Path trustStore)
      throws IOException, GeneralSecurityException {
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(keyStore(trustStore));
    return tmf;
  }

  /**
   * Loads a PKCS#12 store with the suite's password.
   *
   * @param file the store
   * @return the loaded store
   * @throws IOException when it cannot be read
   * @throws GeneralSecurityException when it is not a store
   */
  public static KeyStore keyStore(Path file) throws IOException, GeneralSecurityException {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      ks.load(in, STORE_PASSWORD.toCharArray());
    }
    return ks;
  }

  /**
   * Tells the suite the server listens: prints {@code READY PORT io[; deflate level N][; wss]} and
   * flushes. The report shows the text beside the target.
   *
   * @param io how the library runs its I/O here (its loops, selectors, workers or threads), as
   *     read from the library where it says
   */
  public void ready(String io) {
    StringBuilder detail = new StringBuilder(io);
    if (deflate()) {
      detail.append(detail.isEmpty() ? "" : "; ").append("deflate level ").append(deflateLevel);
    }
    if (tls != null) {
      detail.append(detail.isEmpty() ? "" : "; ").append("wss");
    }
    System.out.println("READY " + port + (detail.isEmpty() ? "" : " " + detail));
    System.out.flush();
  }
}
