package dev.wsjava.bench.e2e;

import dev.wsjava.bench.peer.ClientBench;
import dev.wsjava.bench.peer.CpuTime;
import dev.wsjava.bench.peer.PeerArgs;
import dev.wsjava.bench.peer.ResultLine;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocket;

/**
 * Scenario 9's client: opens connections to a server one after the other, each a TCP connect, a
 * TLS handshake for wss (a full one every time: the client forgets every session, so none is
 * resumed), the opening handshake (RFC 6455 §4.1, the accept key checked), then a normal close (a
 * masked close frame, the server's answer or its end of stream, the socket closed). Prints one
 * {@link ResultLine}: connections per second, connect-to-101 time (p50, p99), and each side's CPU
 * time per connection.
 *
 * <p>Command line: {@code --port P [--host 127.0.0.1] [--path /echo] [--trust TRUST_STORE]
 * [--resume] [--warmup-conns 0] [--warmup-jit PERCENT] [--warmup-max-ms 120000] [--warmup-ms 2000]
 * [--measure-ms 5000] [--server-pid PID]}; with {@code --trust} it
 * speaks wss and names its result {@code connect_tls}, else {@code connect}. With {@code --resume}
 * (the TLS handshake benchmark's resumed points) it keeps the JDK's client session cache, so every
 * handshake after the first offers the server's last session ticket (TLS 1.3 PSK with (EC)DHE), and
 * adds {@code resumed} (the share of handshakes that were resumed) to its result line. {@code
 * --warmup-conns N} opens N connections before the timed warm-up starts: a JVM server's TLS code is
 * compiled only after some thousand handshakes, which a cold client opens slowly. {@code
 * --warmup-jit P} then goes on in rounds of {@value #WARMUP_ROUND} connections until the server's
 * JIT compiler threads used less than P % of its CPU in three rounds in a row (bounded by {@code
 * --warmup-max-ms}), and the result line says how many connections that took ({@code
 * warmup_conns}) and the last round's share ({@code warmup_jit_share}).
 */
public final class ConnectClient {
  private static final int TIMEOUT_MS = 10_000;

  private final InetSocketAddress address;
  private final String hostHeader;
  private final String path;
  private final SSLContext tls;
  private final boolean resume;
  private final SplittableRandom random = new SplittableRandom(42);
  private long handshakes;
  private long resumed;

  /**
   * Creates the client.
   *
   * @param host the server's address
   * @param port its port
   * @param path the echo path
   * @param tls the TLS context for wss, or {@code null} for ws
   */
  public ConnectClient(String host, int port, String path, SSLContext tls) {
    this(host, port, path, tls, false);
  }

  /**
   * Creates the client.
   *
   * @param host the server's address
   * @param port its port
   * @param path the echo path
   * @param tls the TLS context for wss, or {@code null} for ws
   * @param resume whether to keep TLS sessions and resume them
   */
  public ConnectClient(String host, int port, String path, SSLContext tls, boolean resume) {
    this.address = new InetSocketAddress(host, port);
    this.hostHeader = host + ":" + port;
    this.path = path;
    this.tls = tls;
    this.resume = resume;
  }

  /**
   * Runs the command line.
   *
   * @param args see the class comment
   * @throws Exception on a bad command line or a failed TLS set-up
   */
  public static void main(String[] args) throws Exception {
    String host = "127.0.0.1";
    String path = "/echo";
    int port = -1;
    long warmup = 2000;
    long measure = 5000;
    long serverPid = -1;
    Path trust = null;
    boolean resume = false;
    int warmupConns = 0;
    double warmupJit = -1;
    long warmupMaxMs = 120_000;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--host" -> host = args[++i];
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--path" -> path = args[++i];
        case "--trust" -> trust = Path.of(args[++i]);
        case "--resume" -> resume = true;
        case "--warmup-conns" -> warmupConns = Integer.parseInt(args[++i]);
        case "--warmup-jit" -> warmupJit = Double.parseDouble(args[++i]) / 100;
        case "--warmup-max-ms" -> warmupMaxMs = Long.parseLong(args[++i]);
        case "--warmup-ms" -> warmup = Long.parseLong(args[++i]);
        case "--measure-ms" -> measure = Long.parseLong(args[++i]);
        case "--server-pid" -> serverPid = Long.parseLong(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (port < 0) {
      throw new IllegalArgumentException("--port is required");
    }
    ConnectClient client = new ConnectClient(host, port, path,
        trust == null ? null : PeerArgs.clientTls(trust), resume);
    String id = trust == null ? "connect" : "connect_tls";
    try {
      Warm warm = client.warmUp(warmupConns, warmupJit, warmupMaxMs, serverPid, System.err);
      ResultLine line = client.run(id, warmup, measure, serverPid);
      line.put("warmup_conns", warm.connections());
      if (warm.jitShare() >= 0) {
        line.put("warmup_jit_share", warm.jitShare());
      }
      line.print(System.out);
    } catch (IOException | RuntimeException e) {
      ResultLine.error(System.out, id, e.toString());
    }
  }

  /** Connections opened per round of the JIT-bounded warm-up ({@link #warmUp}). */
  static final int WARMUP_ROUND = 500;

  /**
   * Rounds in a row the compilers must stay under the share before the server counts as warm: the
   * JDK's handshake code runs most of its methods once per connection, so they reach C2's
   * threshold (some thousand calls) at different connection counts, in bursts with quiet rounds
   * between them.
   */
  static final int WARMUP_QUIET_ROUNDS = 3;

  /**
   * What the warm-up did.
   *
   * @param connections connections it opened
   * @param jitShare the share of the server's CPU its JIT compiler threads used in the last
   *     round, or -1 when that was not watched
   */
  record Warm(long connections, double jitShare) {}

  /**
   * Opens {@code minConns} connections, then, when {@code jitShare} is not negative and the
   * server's process is known, further rounds of {@link #WARMUP_ROUND} connections until the
   * server's JIT compiler threads used less than {@code jitShare} of its CPU in {@link
   * #WARMUP_QUIET_ROUNDS} rounds in a row (it has compiled what the handshake runs), or {@code
   * maxMs} has passed since the start. A server without compiler threads (a native one) stops
   * after those first quiet rounds. Each round is logged.
   *
   * @param minConns connections to open in any case
   * @param jitShare the compiler share (0 to 1) under which the server counts as warm; negative
   *     for no rounds
   * @param maxMs the bound on the whole warm-up, in milliseconds
   * @param serverPid the server's process, or -1
   * @param log where each round is reported
   * @return what it did
   * @throws IOException when a connection fails
   */
  Warm warmUp(int minConns, double jitShare, long maxMs, long serverPid, PrintStream log)
      throws IOException {
    long start = System.nanoTime();
    long deadline = start + maxMs * 1_000_000;
    long opened = 0;
    for (; opened < minConns && System.nanoTime() < deadline; opened++) {
      once();
    }
    if (jitShare < 0 || serverPid <= 0) {
      return new Warm(opened, -1);
    }
    double share = 1;
    int quiet = 0;
    for (int round = 1; quiet < WARMUP_QUIET_ROUNDS && System.nanoTime() < deadline; round++) {
      Map<Long, CpuTime.ThreadCpu> before = CpuTime.threads(serverPid);
      long cpuBefore = CpuTime.micros(serverPid);
      for (int i = 0; i < WARMUP_ROUND; i++) {
        once();
      }
      opened += WARMUP_ROUND;
      share = CpuTime.compilerShare(before, CpuTime.threads(serverPid));
      quiet = share < jitShare ? quiet + 1 : 0;
      log.printf(Locale.ROOT, "warm-up round %d: %d connections in %.1f s, server %.0f µs/conn,"
          + " JIT compilers %.1f %% of it%n", round, opened, (System.nanoTime() - start) / 1e9,
          (CpuTime.micros(serverPid) - cpuBefore) / (double) WARMUP_ROUND, 100 * share);
    }
    return new Warm(opened, share);
  }

  /**
   * Connects and closes for the warm-up, then for the measured interval.
   *
   * @param id the result's workload name
   * @param warmupMs warm-up
   * @param measureMs measured interval
   * @param serverPid the server's process, or -1
   * @return the result line
   * @throws IOException when a connection fails
   */
  public ResultLine run(String id, long warmupMs, long measureMs, long serverPid) throws IOException {
    try {
      ResultLine line = ClientBench.connectLoop(id, warmupMs, measureMs, serverPid, this::once);
      if (tls != null && handshakes > 0) {
        line.put("resumed", resumedShare());
      }
      return line;
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e);
    }
  }

  /**
   * The share of this client's TLS handshakes so far that resumed a session.
   *
   * @return 0 to 1; 0 before the first
   */
  double resumedShare() {
    return handshakes == 0 ? 0 : (double) resumed / handshakes;
  }

  /**
   * Opens one connection, checks the 101, closes it.
   *
   * @return {@link System#nanoTime()} when the 101 was checked
   * @throws IOException when the connection fails or the handshake is refused
   */
  long once() throws IOException {
    Socket plain = new Socket();
    try (plain) {
      plain.setTcpNoDelay(true);
      plain.connect(address, TIMEOUT_MS);
      plain.setSoTimeout(TIMEOUT_MS);
      Socket s = plain;
      if (tls != null) {
        SSLSocket ssl = (SSLSocket) tls.getSocketFactory().createSocket(plain, address.getHostString(),
            address.getPort(), true);
        long before = System.currentTimeMillis();
        ssl.startHandshake();
        // A resumed session keeps the creation time of the one it resumes (the JDK copies it).
        handshakes++;
        if (ssl.getSession().getCreationTime() < before) {
          resumed++;
        }
        s = ssl;
      }
      try (Socket open = s) {
        byte[] nonce = new byte[16];
        random.nextBytes(nonce);
        String key = Base64.getEncoder().encodeToString(nonce);
        OutputStream out = open.getOutputStream();
        out.write(("GET " + path + " HTTP/1.1\r\nHost: " + hostHeader + "\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = new java.io.BufferedInputStream(open.getInputStream(), 1024);
        String head;
        try {
          head = readHead(in);
        } catch (IOException e) {
          throw new IOException("waiting for the 101: " + e, e);
        }
        if (!head.startsWith("HTTP/1.1 101")) {
          throw new IOException("handshake refused: " + head.lines().findFirst().orElse(""));
        }
        if (!head.toLowerCase(java.util.Locale.ROOT).contains(
            "sec-websocket-accept: " + RawConnection.acceptFor(key).toLowerCase(java.util.Locale.ROOT))) {
          throw new IOException("wrong or missing Sec-WebSocket-Accept");
        }
        long opened = System.nanoTime();
        // Close 1000, masked with a zero key (RFC 6455 §5.3 allows any key); then the answer.
        out.write(new byte[] {(byte) 0x88, (byte) 0x82, 0, 0, 0, 0, 0x03, (byte) 0xe8});
        out.flush();
        try {
          awaitClose(in);
        } catch (IOException e) {
          throw new IOException("waiting for the server's close: " + e, e);
        }
        return opened;
      } finally {
        if (tls != null && !resume) {
          forgetSessions(tls.getClientSessionContext());
        }
      }
    }
  }

  /** Reads the response head up to its blank line. */
  private static String readHead(InputStream in) throws IOException {
    StringBuilder sb = new StringBuilder(256);
    while (sb.length() < 4 || !sb.substring(sb.length() - 4).equals("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the server closed during the handshake");
      }
      if (sb.length() == 16384) {
        throw new IOException("handshake response longer than 16 KiB");
      }
      sb.append((char) b);
    }
    return sb.toString();
  }

  /** Reads until the server's close frame has come or it ended the stream. */
  private static void awaitClose(InputStream in) throws IOException {
    int b0 = in.read();
    if (b0 < 0) {
      return;
    }
    int len = in.read() & 0x7f;
    if ((b0 & 0x0f) != 0x8) {
      throw new IOException("expected the server's close frame, got opcode " + (b0 & 0x0f));
    }
    in.readNBytes(len);
  }

  /** Invalidates every cached client session, so that the next handshake is a full one. */
  static void forgetSessions(SSLSessionContext sessions) {
    for (byte[] id : Collections.list(sessions.getIds())) {
      var s = sessions.getSession(id);
      if (s != null) {
        s.invalidate();
      }
    }
  }
}
