package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Message;
import dev.wsjava.TlsContexts;
import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The attacks of issue 23 against {@code wsjava serve} in a JVM of its own with a small heap that
 * exits on {@link OutOfMemoryError}: each would fill such a heap many times over without the
 * memory budget. The server must stay alive, an honest client must get its echoes during the
 * attack, attackers that can still read get the documented close codes (1008 for a connection
 * evicted from the spent budget, 1009 for a message past its limit), and a client that does not
 * read its echoes for a while gets every one once it reads.
 *
 * <p>Set {@code -Dwsjava.attack.classpath=...} to run the server from another build (for
 * example the code before the budget, to see it die), {@code -Dwsjava.attack.only=NAME} to run
 * one attack.
 */
class MemoryAttackTest {
  static final int MIB = 1 << 20;
  static final String HEAP = "-Xmx128m"; // a budget of 32 MiB: a quarter of it
  static final Duration ATTACK = Duration.ofSeconds(6);
  static final Duration STALL = Duration.ofSeconds(2);

  enum Attack {
    /** Connections each start a text message and send 1 MiB continuations up to 15 MiB. */
    UNFINISHED_FRAGMENTS(12),
    /** Connections each send one compressed frame that inflates to 1 GiB. */
    DEFLATE_BOMBS(12),
    /** Connections each send 4 x 16 MiB to /echo and never read. */
    ECHO_NEVER_READ(8);

    final int connections;

    Attack(int connections) {
      this.connections = connections;
    }
  }

  static Stream<Arguments> runs() {
    List<Arguments> out = new ArrayList<>();
    String only = System.getProperty("wsjava.attack.only", ""); // e.g. DEFLATE_BOMBS
    for (Attack a : Attack.values()) {
      if (!only.isEmpty() && !a.name().equals(only)) {
        continue;
      }
      for (Transport t : Transport.values()) {
        out.add(Arguments.of(a, t, false));
        if (a != Attack.DEFLATE_BOMBS) {
          out.add(Arguments.of(a, t, true));
        }
      }
    }
    return out.stream();
  }

  Process server;
  Path pem; // the self-signed certificate of a TLS server
  final List<Socket> sockets = Collections.synchronizedList(new ArrayList<>());
  final StringBuffer serverErr = new StringBuffer();

  @AfterEach
  void stop() throws Exception {
    for (Socket s : sockets) {
      s.close();
    }
    if (server != null) {
      server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @ParameterizedTest(name = "{0} {1} tls={2}")
  @MethodSource("runs")
  void theServerSurvivesAndKeepsServing(Attack attack, Transport transport, boolean tls)
      throws Exception {
    int port = startServer(transport, tls);
    SSLContext trust = tls ? TlsContexts.trusting(pem) : null;
    String base = (tls ? "wss" : "ws") + "://127.0.0.1:" + port;

    List<Attacker> attackers = new ArrayList<>();
    for (int i = 0; i < attack.connections; i++) {
      attackers.add(new Attacker(port, trust, attack));
    }
    Socket slowReader = attack == Attack.ECHO_NEVER_READ ? connect(port, trust, false) : null;
    byte[][] slowMessages = new byte[4][];
    if (slowReader != null) {
      for (int i = 0; i < slowMessages.length; i++) {
        slowMessages[i] = pattern(MIB, i);
      }
      Thread.ofVirtual().start(() -> { // its sends may wait for TCP: the server reads it slowly
        try {
          for (byte[] m : slowMessages) {
            writeFrame(slowReader.getOutputStream(), 0x2, true, 0, m);
          }
        } catch (IOException e) {
          // seen below: its echoes do not come
        }
      });
    }
    attackers.forEach(Attacker::start);

    // The honest client: 1 KiB echoes one after the other while the attack goes on.
    List<Long> latenciesMs = new ArrayList<>();
    WebSocketClient.Builder cb =
        WebSocketClient.builder().config(WebSocketConfig.builder().deflate(null).build());
    if (trust != null) {
      cb.tls(trust);
    }
    try (WebSocketClient client = cb.build()) {
      WebSocket ws = client.open(URI.create(base + "/echo"));
      long end = System.nanoTime() + ATTACK.toNanos();
      byte[] honest = pattern(1024, 99);
      for (int i = 0; System.nanoTime() < end && i < 100_000; i++) {
        long t0 = System.nanoTime();
        ws.sendBinary(honest).get(10, TimeUnit.SECONDS);
        Message m = ws.receive(Duration.ofSeconds(10));
        assertThat(m).as("echo %d during %s", i, attack).isInstanceOf(Message.Binary.class);
        latenciesMs.add((System.nanoTime() - t0) / 1_000_000);
        assertThat(server.isAlive()).as("server alive; its stderr:\n%s", serverErr).isTrue();
      }
      ws.close();
    }
    assertThat(server.isAlive()).as("server alive; its stderr:\n%s", serverErr).isTrue();

    if (slowReader != null) {
      // It reads at last: every echo, intact, in order.
      slowReader.setSoTimeout(30_000);
      DataInputStream in = new DataInputStream(slowReader.getInputStream());
      for (byte[] sent : slowMessages) {
        RawWebSocket.Frame f = RawWebSocket.read(in);
        assertThat(f.opcode()).isEqualTo(0x2);
        java.io.ByteArrayOutputStream message = new java.io.ByteArrayOutputStream();
        message.write(f.payload());
        while (!f.fin()) { // sent as frames of at most maxOutboundFramePayload
          f = RawWebSocket.read(in);
          assertThat(f.opcode()).as("a continuation").isZero();
          message.write(f.payload());
        }
        assertThat(message.toByteArray()).isEqualTo(sent);
      }
    }

    for (Socket s : sockets) {
      s.close(); // the TCP sockets under any TLS: a writer blocked on a full socket lets go
    }
    List<Integer> codes = new ArrayList<>();
    for (Attacker a : attackers) {
      Integer code = a.closeCode.get(10, TimeUnit.SECONDS);
      if (code != null) {
        codes.add(code);
      }
    }
    Collections.sort(latenciesMs);
    long p99 = latenciesMs.get((int) Math.min(latenciesMs.size() - 1, latenciesMs.size() * 0.99));
    System.out.printf(
        "attack %s %s tls=%s: server alive, %d honest echoes, p99 %d ms, max %d ms,"
            + " attackers' close codes %s%n",
        attack, transport, tls, latenciesMs.size(), p99, latenciesMs.get(latenciesMs.size() - 1),
        codes);
    assertThat(latenciesMs).hasSizeGreaterThan(20);
    assertThat(p99).as("honest echo p99 in ms").isLessThan(3_000);
    assertThat(codes).as("attackers' close codes").allMatch(c -> c == 1008 || c == 1009);
    if (attack != Attack.ECHO_NEVER_READ) {
      assertThat(codes).as("attackers' close codes").isNotEmpty();
    }
    assertThat(server.isAlive()).as("server alive; its stderr:\n%s", serverErr).isTrue();
  }

  // ---------------------------------------------------------------------------------------------

  private int startServer(Transport transport, boolean tls) throws IOException {
    String java = ProcessHandle.current().info().command().orElse("java");
    String other = System.getProperty("wsjava.attack.classpath");
    String cp = other != null ? other : System.getProperty("java.class.path");
    List<String> cmd = new ArrayList<>(List.of(
        java, HEAP, "-XX:+ExitOnOutOfMemoryError", "-cp", cp, "dev.wsjava.cli.Main", "serve",
        "--port", "0", "--transport", transport.name()));
    if (other == null) { // a build from before the budget knows no such option
      cmd.addAll(List.of("--memory-stall-timeout", STALL.toSeconds() + "s"));
    }
    if (tls) {
      cmd.add("--self-signed");
    }
    server = new ProcessBuilder(cmd).start();
    if (tls) {
      // The certificate's PEM file is named on stderr before the URLs go to stdout.
      BufferedReader err = new BufferedReader(
          new InputStreamReader(server.getErrorStream(), StandardCharsets.UTF_8));
      Pattern file = Pattern.compile("PEM\\s+(\\S+\\.pem)");
      for (String line; pem == null && (line = err.readLine()) != null; ) {
        serverErr.append(line).append('\n');
        Matcher m = file.matcher(line);
        if (m.find()) {
          pem = Path.of(m.group(1));
        }
      }
    }
    Thread.ofVirtual().start(() -> copy(server.getErrorStream(), serverErr));
    BufferedReader out =
        new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
    Pattern url = Pattern.compile("wss?://[^ ]*:(\\d+)/echo");
    for (String line; (line = out.readLine()) != null; ) {
      Matcher m = url.matcher(line);
      if (m.find()) {
        Thread.ofVirtual().start(() -> copy(server.getInputStream(), new StringBuffer()));
        return Integer.parseInt(m.group(1));
      }
    }
    throw new IOException("the server did not start: " + serverErr);
  }

  private static void copy(InputStream in, StringBuffer to) {
    byte[] b = new byte[8192];
    try {
      for (int n; (n = in.read(b)) > 0; ) {
        to.append(new String(b, 0, n, StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      // the process ended
    }
  }

  /** Opens a WebSocket to /echo by hand (optionally offering permessage-deflate). */
  Socket connect(int port, SSLContext tls, boolean deflate) throws IOException {
    Socket raw = new Socket("127.0.0.1", port);
    sockets.add(raw); // closed at the end: at once, where a TLS close would wait for a writer
    Socket s = tls == null
        ? raw
        : tls.getSocketFactory().createSocket(raw, "127.0.0.1", port, true);
    s.setSoTimeout(10_000);
    OutputStream out = s.getOutputStream();
    out.write(("GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        + "Sec-WebSocket-Version: 13\r\n"
        + (deflate ? "Sec-WebSocket-Extensions: permessage-deflate\r\n" : "")
        + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    String head = RawWebSocket.readHead(s.getInputStream());
    assertThat(head).startsWith("HTTP/1.1 101");
    if (deflate) {
      assertThat(head).contains("permessage-deflate");
    }
    s.setSoTimeout(0);
    return s;
  }

  /** Writes a client frame, masked with the all-zero key (the payload goes as it is). */
  static void writeFrame(OutputStream out, int opcode, boolean fin, int rsv, byte[] payload)
      throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream(14);
    head.write((fin ? 0x80 : 0) | rsv << 4 | opcode);
    if (payload.length < 126) {
      head.write(0x80 | payload.length);
    } else if (payload.length < 65536) {
      head.write(0x80 | 126);
      head.write(payload.length >>> 8);
      head.write(payload.length);
    } else {
      head.write(0x80 | 127);
      for (int i = 7; i >= 0; i--) {
        head.write((int) ((long) payload.length >>> (8 * i)));
      }
    }
    head.write(new byte[4]); // the masking key
    out.write(head.toByteArray());
    out.write(payload);
    out.flush();
  }

  static byte[] pattern(int n, int seed) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 31 + seed);
    }
    return b;
  }

  /** 1 GiB of zeros, deflated without the final flush's trailer (RFC 7692 §7.2.1). */
  static synchronized byte[] bomb() {
    if (bomb == null) {
      Deflater d = new Deflater(Deflater.BEST_COMPRESSION, true);
      byte[] zeros = new byte[MIB];
      byte[] buf = new byte[64 * 1024];
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (int i = 0; i < 1024; i++) {
        d.setInput(zeros);
        while (!d.needsInput()) {
          out.write(buf, 0, d.deflate(buf));
        }
      }
      for (int n; (n = d.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH)) > 0; ) {
        out.write(buf, 0, n);
        if (n < buf.length) {
          break;
        }
      }
      d.end();
      byte[] all = out.toByteArray();
      bomb = Arrays.copyOf(all, all.length - 4); // drop 00 00 ff ff
    }
    return bomb;
  }

  private static byte[] bomb;

  /** One hostile connection: sends on a thread of its own, and reads what the server sends. */
  final class Attacker {
    final Socket socket;
    final Attack attack;
    /** The code of the server's close frame, or null when none came (a reset, or the end). */
    final CompletableFuture<Integer> closeCode = new CompletableFuture<>();

    Attacker(int port, SSLContext tls, Attack attack) throws IOException {
      this.socket = connect(port, tls, attack == Attack.DEFLATE_BOMBS);
      this.attack = attack;
    }

    void start() {
      Thread.ofVirtual().start(this::send);
      if (attack == Attack.ECHO_NEVER_READ) {
        closeCode.complete(null); // it never reads
      } else {
        Thread.ofVirtual().start(this::read);
      }
    }

    private void send() {
      try {
        OutputStream out = socket.getOutputStream();
        switch (attack) {
          case UNFINISHED_FRAGMENTS -> {
            byte[] mib = new byte[MIB];
            Arrays.fill(mib, (byte) 'a');
            writeFrame(out, 0x1, false, 0, mib);
            for (int i = 1; i < 15; i++) {
              writeFrame(out, 0x0, false, 0, mib);
            }
          }
          case DEFLATE_BOMBS -> writeFrame(out, 0x2, true, 4, bomb());
          case ECHO_NEVER_READ -> {
            byte[] big = new byte[16 * MIB];
            for (int i = 0; i < 4; i++) {
              writeFrame(out, 0x2, true, 0, big);
            }
          }
        }
      } catch (IOException e) {
        // the server closed or reset it, or the test ended
      }
    }

    private void read() {
      try {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        while (true) {
          RawWebSocket.Frame f = RawWebSocket.read(in);
          if (f.opcode() == 0x8) {
            byte[] p = f.payload();
            closeCode.complete(p.length >= 2 ? (p[0] & 0xff) << 8 | (p[1] & 0xff) : 1005);
            return;
          }
        }
      } catch (IOException e) {
        closeCode.complete(null);
      }
    }
  }
}
