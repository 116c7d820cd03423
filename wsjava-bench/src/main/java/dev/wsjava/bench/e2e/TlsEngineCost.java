package dev.wsjava.bench.e2e;

import dev.wsjava.bench.peer.PeerArgs;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * The JDK's own TLS cost per server handshake, without sockets or other processes: a client and a
 * server {@link SSLEngine} in one thread hand each other their records through buffers, and the
 * thread's CPU time is counted only while the server's engine works (wrap, unwrap, delegated
 * tasks). What {@code wsjava} pays per handshake on top of TCP and HTTP, per key type, full or
 * resumed (TLS 1.3 session tickets), and per key-exchange group. Thread CPU time is what this
 * thread ran, so neighbours on a busy machine change it far less than they change wall time; part
 * of the {@code ./bench tls-handshake} output.
 */
final class TlsEngineCost {
  private TlsEngineCost() {}

  /** One configuration: key, resumption, key-exchange group. */
  record Case(TlsFiles.KeyType key, boolean resume, String group) {}

  /**
   * Measures and prints one table.
   *
   * @param files the TLS files per key type (as {@link TlsFiles#create} made them)
   * @param keys the key types
   * @param handshakes measured handshakes per case (as many again warm up first)
   * @param out where the table goes
   * @param providers which security providers do the cryptography, for the heading
   * @throws Exception when an engine fails
   */
  static void run(java.util.Map<TlsFiles.KeyType, Path> files, List<TlsFiles.KeyType> keys,
      int handshakes, PrintStream out, String providers) throws Exception {
    out.println();
    out.println("The JDK's TLS alone (" + Runtime.version() + ", " + providers + "; in-process"
        + " SSLEngine pair, thread CPU time of the server engine's work, " + handshakes
        + " handshakes after as many to warm up):");
    out.println();
    out.println("| key | handshake | key exchange | server µs/handshake | resumed |");
    out.println("|---|---|---|---:|---:|");
    for (TlsFiles.KeyType key : keys) {
      Path dir = files.get(key);
      SSLContext server = serverContext(dir);
      for (Case c : List.of(new Case(key, false, "x25519"), new Case(key, true, "x25519"),
          new Case(key, false, "secp256r1"))) {
        SSLContext client = PeerArgs.clientTls(dir.resolve(PeerArgs.TRUST_STORE));
        measure(server, client, c, handshakes); // warm-up
        double[] r = measure(server, client, c, handshakes);
        out.printf(Locale.ROOT, "| %s | %s | %s | %.0f | %.0f %% |%n", key.label,
            c.resume() ? "resumed" : "full", c.group(), r[0], 100 * r[1]);
      }
    }
  }

  private static SSLContext serverContext(Path dir) throws Exception {
    KeyStore ks = PeerArgs.keyStore(dir.resolve(PeerArgs.KEY_STORE));
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, PeerArgs.STORE_PASSWORD.toCharArray());
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf.getKeyManagers(), null, null);
    return ctx;
  }

  /** Returns the server's CPU µs per handshake and the share resumed. */
  private static double[] measure(SSLContext server, SSLContext client, Case c, int n) throws Exception {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long serverNanos = 0;
    int resumed = 0;
    for (int i = 0; i < n; i++) {
      if (!c.resume()) {
        ConnectClient.forgetSessions(client.getClientSessionContext());
      }
      SSLEngine ce = client.createSSLEngine("localhost", 443);
      ce.setUseClientMode(true);
      SSLParameters p = ce.getSSLParameters();
      p.setProtocols(new String[] {"TLSv1.3"});
      p.setNamedGroups(new String[] {c.group()});
      ce.setSSLParameters(p);
      SSLEngine se = server.createSSLEngine();
      se.setUseClientMode(false);
      long before = System.currentTimeMillis();
      serverNanos += handshake(ce, se, mx);
      if (ce.getSession().getCreationTime() < before) {
        resumed++;
      }
    }
    return new double[] {serverNanos / 1e3 / n, (double) resumed / n};
  }

  /** Runs one handshake to the end, both ways; returns the server engine's thread CPU time. */
  private static long handshake(SSLEngine client, SSLEngine server, ThreadMXBean mx) throws SSLException {
    int size = Math.max(client.getSession().getPacketBufferSize(), server.getSession().getPacketBufferSize());
    ByteBuffer toServer = ByteBuffer.allocate(4 * size);
    ByteBuffer toClient = ByteBuffer.allocate(4 * size);
    ByteBuffer app = ByteBuffer.allocate(4 * size);
    ByteBuffer empty = ByteBuffer.allocate(0);
    long serverNanos = 0;
    client.beginHandshake();
    server.beginHandshake();
    // After both report done, the server's NewSessionTicket still has to reach the client.
    for (int round = 0; round < 64; round++) {
      step(client, empty, toServer, toClient, app);
      long t0 = mx.getCurrentThreadCpuTime();
      step(server, empty, toClient, toServer, app);
      serverNanos += mx.getCurrentThreadCpuTime() - t0;
      if (done(client) && done(server) && toServer.position() == 0 && toClient.position() == 0) {
        return serverNanos;
      }
    }
    throw new SSLException("the handshake did not finish in 64 rounds");
  }

  private static boolean done(SSLEngine e) {
    SSLEngineResult.HandshakeStatus s = e.getHandshakeStatus();
    return s == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING;
  }

  /** Reads what the peer sent, runs tasks, writes what this engine has to send. */
  private static void step(SSLEngine e, ByteBuffer empty, ByteBuffer out, ByteBuffer in, ByteBuffer app)
      throws SSLException {
    in.flip();
    while (in.hasRemaining()) {
      SSLEngineResult r = e.unwrap(in, app);
      app.clear();
      runTasks(e);
      if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW || r.bytesConsumed() == 0) {
        break;
      }
    }
    in.compact();
    while (true) {
      SSLEngineResult r = e.wrap(empty, out);
      runTasks(e);
      if (r.bytesProduced() == 0) {
        break;
      }
    }
  }

  private static void runTasks(SSLEngine e) {
    Runnable task;
    while ((task = e.getDelegatedTask()) != null) {
      task.run();
    }
  }
}
