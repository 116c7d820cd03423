package dev.wsjava.bench.attack;

import dev.wsjava.Message;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

/**
 * Issue 23's attacks at the scale, each against a fresh server process started with
 * {@code -Xmx512m -XX:+ExitOnOutOfMemoryError}: {@code wsjava serve} (default settings) on NIO and
 * on blocking sockets, and Netty's echo server of {@code bench-peers/netty} (the suite's peer:
 * frames echoed as they come, 16 MiB frames, deflate only for attack 2). During each attack an
 * honest client sends 1 KiB echoes one after the other and records their latency. Prints one
 * Markdown table row per attack and server.
 *
 * <p>Command line: {@code [--root DIR] [--servers wsjava-nio,wsjava-blocking,netty] [--attacks
 * 1,2,3] [--seconds N]} (N: the length of each attack, 20 by default; each run is bounded to N + 10
 * s). Needs {@code wsjava-cli/target/wsjava.jar} and {@code bench-peers/netty/target} built
 * ({@code ./mvnw -q -DskipTests package -pl wsjava-bench,wsjava-cli,bench-peers/netty -am}).
 *
 * <p>Attacks: (1) 64 connections each send a text first frame without FIN, then 1 MiB
 * continuations up to 15 MiB, never finishing, and read what comes; (2) 100 connections that
 * negotiated permessage-deflate each send one ~1 MiB frame inflating to 1 GiB, and read; (3) 100
 * connections each send 4 x 16 MiB binary messages to {@code /echo} and never read, beside a client
 * that sends 4 x 1 MiB and reads its echoes only after the attack (the "late reader").
 */
public final class AttackBench {
  private static final int MIB = 1 << 20;
  private static final List<String> SERVER_FLAGS = List.of("-Xmx512m", "-XX:+ExitOnOutOfMemoryError");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  /** The longest an honest echo, a late read or a probe may wait. */
  private static final int WAIT_MS = 3_000;
  /** The longest the late reader waits for each of its echoes. */
  private static final int LATE_WAIT_MS = 8_000;
  private static final String PEER = "dev.wsjava.bench.peer.netty.NettyEchoServer";

  private AttackBench() {}

  enum Attack {
    FRAGMENTS("1: 64 x unfinished 15 MiB text", 64, false),
    DEFLATE_BOMBS("2: 100 x deflate bomb (1 GiB)", 100, true),
    ECHO_NEVER_READ("3: 100 x 4 x 16 MiB, never read", 100, false);

    final String label;
    final int connections;
    final boolean deflate;

    Attack(String label, int connections, boolean deflate) {
      this.label = label;
      this.connections = connections;
      this.deflate = deflate;
    }
  }

  /**
   * Runs the attacks against the servers and prints the table.
   *
   * @param args see the class comment
   * @throws Exception when a server cannot be started
   */
  public static void main(String[] args) throws Exception {
    Path root = Path.of(".");
    List<String> servers = List.of("wsjava-nio", "wsjava-blocking", "netty");
    List<String> attacks = List.of("1", "2", "3");
    int seconds = 20;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--root" -> root = Path.of(args[i + 1]);
        case "--servers" -> servers = List.of(args[i + 1].split(","));
        case "--attacks" -> attacks = List.of(args[i + 1].split(","));
        case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    Duration window = Duration.ofSeconds(Math.min(seconds, 30));
    System.out.println("| attack | server | survived | honest echoes during: n, p99, max | "
        + "attackers' close codes | MiB attackers sent | late reader | peak heap | peak RSS | server CPU |");
    System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (String a : attacks) {
      Attack attack = Attack.values()[Integer.parseInt(a) - 1];
      if (attack == Attack.DEFLATE_BOMBS) {
        bomb(); // made once, before any server starts
      }
      for (String s : servers) {
        System.out.println(run(root.toAbsolutePath().normalize(), s, attack, window));
      }
    }
  }

  private static String run(Path root, String server, Attack attack, Duration window)
      throws IOException, InterruptedException {
    try (Forked srv = Forked.start(root, server, attack.deflate)) {
      String row = "| " + attack.label + " | " + server + " | ";
      List<Attacker> attackers = new ArrayList<>();
      for (int i = 0; i < attack.connections; i++) {
        Socket s = connect(srv.port, attack.deflate);
        if (s == null) {
          closeAll(attackers);
          return row + "skipped: no permessage-deflate negotiated | | | | | | | |";
        }
        attackers.add(new Attacker(s, attack));
      }
      LateReader late = attack == Attack.ECHO_NEVER_READ ? new LateReader(connect(srv.port, false)) : null;
      WebSocketConfig noDeflate = WebSocketConfig.builder().deflate(null).build();
      WebSocketClient client = WebSocketClient.builder().config(noDeflate).build();
      WebSocket ws = client.open(URI.create("ws://127.0.0.1:" + srv.port + "/echo"));
      attackers.forEach(Attacker::start);
      long end = System.nanoTime() + window.toNanos();
      Honest honest = Honest.run(ws, end);
      client.close();
      String lateResult = late == null ? "-" : late.readAll();
      Map<String, Integer> outcomes = new TreeMap<>();
      long sent = 0;
      for (Attacker a : attackers) {
        outcomes.merge(a.outcome(), 1, Integer::sum);
        sent += a.sent.get();
      }
      srv.sampleHeap(); // while the attackers still hold what they hold
      closeAll(attackers);
      if (late != null) {
        late.socket.close();
      }
      String rss = srv.peakRss(); // before it is stopped
      String cpu = srv.cpuSeconds();
      String survived = srv.survived();
      return row + survived + " | " + honest + " | " + outcomes.toString().replaceAll("[{}]", "")
          + " | " + sent / MIB + " | " + lateResult + " | " + srv.peakHeap() + " | " + rss
          + " | " + cpu + " |";
    }
  }

  private static void closeAll(List<Attacker> attackers) throws IOException {
    for (Attacker a : attackers) {
      a.socket.close(); // ends its sender and reader threads
    }
  }

  /** A server process with its GC log; stopped by its own id. */
  static final class Forked implements AutoCloseable {
    private static final Pattern GC = Pattern.compile("(\\d+)([KMG])->\\d+[KMG]\\(\\d+[KMG]\\)");
    final Process process;
    final Path dir;
    final int port;

    private Forked(Process process, Path dir, int port) {
      this.process = process;
      this.dir = dir;
      this.port = port;
    }

    static Forked start(Path root, String server, boolean deflate) throws IOException, InterruptedException {
      return start(root, server, deflate, 0, List.of());
    }

    /**
     * Starts a server.
     *
     * @param nofile the process's descriptor limit ({@code ulimit -n}), or 0 to inherit it
     * @param serveArgs more options for {@code wsjava serve} (none for Netty)
     */
    static Forked start(Path root, String server, boolean deflate, int nofile,
        List<String> serveArgs) throws IOException, InterruptedException {
      int port;
      try (ServerSocket free = new ServerSocket(0)) {
        port = free.getLocalPort();
      }
      Path dir = Files.createTempDirectory("attack-" + server);
      List<String> cmd = new ArrayList<>();
      if (nofile > 0) { // bash lowers the limit, then becomes the server (the same process id)
        cmd.addAll(List.of("bash", "-c", "ulimit -n " + nofile + " && exec \"$@\"", "bash"));
      }
      if (new File("/usr/bin/taskset").canExecute() && Runtime.getRuntime().availableProcessors() > 1) {
        cmd.addAll(List.of("taskset", "-c", "0")); // as the suite: servers on CPU 0
      }
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.addAll(SERVER_FLAGS);
      cmd.add("-Xlog:gc:file=" + dir.resolve("gc.log"));
      if (server.equals("netty")) {
        Path module = root.resolve("bench-peers/netty/target");
        String cp = module.resolve("classes") + File.pathSeparator
            + Files.readString(module.resolve("classpath.txt")).strip();
        cmd.addAll(List.of("-cp", cp, PEER, Integer.toString(port), "--host", "127.0.0.1"));
        if (deflate) {
          cmd.addAll(List.of("--deflate", "6"));
        }
      } else if (server.startsWith("wsjava-")) {
        cmd.addAll(List.of("-cp", root.resolve("wsjava-cli/target/wsjava.jar").toString(),
            "dev.wsjava.cli.Main", "serve", "--port", Integer.toString(port),
            "--transport", server.substring("wsjava-".length())));
        cmd.addAll(serveArgs);
      } else {
        throw new IllegalArgumentException("unknown server " + server);
      }
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
          .redirectOutput(dir.resolve("out.log").toFile()).start();
      Forked f = new Forked(p, dir, port);
      long end = System.nanoTime() + START_TIMEOUT.toNanos();
      while (System.nanoTime() < end && p.isAlive()) {
        try (Socket s = new Socket()) {
          s.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
          return f;
        } catch (IOException notYet) {
          Thread.sleep(100); // a bench, polling a port that is not open yet
        }
      }
      f.close();
      throw new IOException(server + " did not start: " + Files.readString(dir.resolve("out.log")));
    }

    String survived() throws IOException {
      if (process.isAlive()) {
        return "yes";
      }
      String out = Files.readString(dir.resolve("out.log"));
      Matcher oom = Pattern.compile("OutOfMemoryError[^\\n]*").matcher(out);
      return "**no** (exit " + process.exitValue() + (oom.find() ? ", " + oom.group() : "") + ")";
    }

    private long usedNow = -1;

    /** Reads the heap in use now (jcmd GC.heap_info), for {@link #peakHeap()}: before the stop. */
    void sampleHeap() {
      try {
        Process j = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
            Long.toString(process.pid()), "GC.heap_info").redirectErrorStream(true).start();
        String out = new String(j.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        j.waitFor(10, TimeUnit.SECONDS);
        Matcher m = Pattern.compile("total \\d+K, used (\\d+)K").matcher(out);
        if (m.find()) {
          usedNow = Long.parseLong(m.group(1)) >> 10;
        }
      } catch (IOException e) {
        // no figure: the GC log's alone
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    /**
     * The largest heap occupancy the GC log shows before a collection, or the heap in use at the
     * end if larger, in MiB.
     */
    String peakHeap() throws IOException {
      Path log = dir.resolve("gc.log");
      long max = -1;
      Matcher m = GC.matcher(Files.exists(log) ? Files.readString(log) : "");
      while (m.find()) {
        long v = Long.parseLong(m.group(1));
        max = Math.max(max, switch (m.group(2)) {
          case "K" -> v >> 10;
          case "G" -> v << 10;
          default -> v;
        });
      }
      max = Math.max(max, usedNow);
      return max < 0 ? "-" : max + " MiB";
    }

    /** The process's resident set high-water mark (heap, direct buffers, zlib and all). */
    String peakRss() {
      try {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
          if (line.startsWith("VmHWM:")) {
            return Long.parseLong(line.replaceAll("\\D", "")) / 1024 + " MiB";
          }
        }
      } catch (IOException | RuntimeException e) {
        // gone, or not Linux
      }
      return "-";
    }

    /** User and system CPU time of the process so far (Linux: clock ticks of 1/100 s). */
    String cpuSeconds() {
      try {
        String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return String.format("%.1f s", (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0);
      } catch (IOException | RuntimeException e) {
        return "-";
      }
    }

    @Override
    public void close() {
      try {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * 1 KiB echoes one after the other on a connection opened before the attack, until its end;
   * each echo waits for as long as the attack has left plus {@link #WAIT_MS}, so a slow echo is
   * measured rather than given up.
   */
  private record Honest(List<Long> micros, String error) {
    static Honest run(WebSocket ws, long end) {
      List<Long> micros = new ArrayList<>();
      String error = null;
      byte[] kib = new byte[1024];
      try {
        for (int i = 0; i < 1_000_000 && System.nanoTime() < end; i++) {
          long t0 = System.nanoTime();
          Duration wait = Duration.ofNanos(end - t0).plusMillis(WAIT_MS);
          ws.sendBinary(kib).get(wait.toMillis(), TimeUnit.MILLISECONDS);
          Message m = ws.receive(wait);
          if (!(m instanceof Message.Binary b) || b.data().remaining() != kib.length) {
            error = "no echo within " + wait.toMillis() + " ms";
            break;
          }
          micros.add((System.nanoTime() - t0) / 1_000);
        }
        ws.abort();
      } catch (Exception e) {
        error = e.getClass().getSimpleName();
      }
      while (System.nanoTime() < end) { // the attack goes on for its full length regardless
        try {
          Thread.sleep(Math.max(1, (end - System.nanoTime()) / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      return new Honest(micros, error);
    }

    @Override
    public String toString() {
      String e = error == null ? "" : ", then " + error;
      if (micros.isEmpty()) {
        return "0" + e;
      }
      List<Long> sorted = new ArrayList<>(micros);
      Collections.sort(sorted);
      long p99 = sorted.get(Math.min(sorted.size() - 1, (int) (sorted.size() * 0.99)));
      return String.format("%,d, %.1f ms, %.1f ms%s", sorted.size(), p99 / 1e3,
          sorted.get(sorted.size() - 1) / 1e3, e);
    }
  }

  /** One hostile connection: sends on a thread of its own; reads (skipping data) unless attack 3. */
  private static final class Attacker {
    private static final byte[] MIB_OF_A = filled(MIB, (byte) 'a');
    private static final byte[] SIXTEEN_MIB = new byte[16 * MIB];
    final Socket socket;
    final Attack attack;
    final AtomicLong sent = new AtomicLong();
    /** The server's close code, "eof", "reset", or not done while the connection is open. */
    final CompletableFuture<String> closed = new CompletableFuture<>();

    Attacker(Socket socket, Attack attack) {
      this.socket = socket;
      this.attack = attack;
    }

    void start() {
      Thread.ofVirtual().start(this::send);
      if (attack != Attack.ECHO_NEVER_READ) {
        Thread.ofVirtual().start(() -> closed.complete(readUntilClose(socket, null)));
      }
    }

    private void send() {
      try {
        OutputStream out = socket.getOutputStream();
        switch (attack) {
          case FRAGMENTS -> {
            for (int i = 0; i < 15; i++) {
              writeFrame(out, i == 0 ? 0x1 : 0x0, false, 0, MIB_OF_A, sent);
            }
          }
          case DEFLATE_BOMBS -> writeFrame(out, 0x2, true, 4, bomb(), sent);
          case ECHO_NEVER_READ -> {
            for (int i = 0; i < 4; i++) {
              writeFrame(out, 0x2, true, 0, SIXTEEN_MIB, sent);
            }
          }
        }
      } catch (IOException e) {
        // closed or reset by the server, or by the end of the run: the reader or the probe says
      }
    }

    /** What happened to it by the end of the attack; a never-reader is probed with one byte. */
    String outcome() {
      if (attack != Attack.ECHO_NEVER_READ) {
        return closed.getNow("open");
      }
      try {
        socket.setSoTimeout(200);
        return socket.getInputStream().read() < 0 ? "eof" : "open";
      } catch (SocketTimeoutException e) {
        return "open";
      } catch (IOException e) {
        return "reset";
      }
    }
  }

  /** Sends 4 x 1 MiB at once and reads the echoes only after the attack. */
  private static final class LateReader {
    final Socket socket;
    final List<byte[]> messages = new ArrayList<>();

    LateReader(Socket socket) {
      this.socket = socket;
      for (int i = 0; i < 4; i++) {
        byte[] m = new byte[MIB];
        for (int j = 0; j < m.length; j++) {
          m[j] = (byte) (j * 31 + i);
        }
        messages.add(m);
      }
      Thread.ofVirtual().start(() -> { // its sends may wait for TCP while the server is busy
        try {
          for (byte[] m : messages) {
            writeFrame(socket.getOutputStream(), 0x2, true, 0, m, new AtomicLong());
          }
        } catch (IOException e) {
          // seen when it reads
        }
      });
    }

    String readAll() {
      List<byte[]> got = new ArrayList<>();
      String end = readUntilClose(socket, got);
      int intact = 0;
      for (int i = 0; i < got.size() && i < messages.size(); i++) {
        intact += Arrays.equals(got.get(i), messages.get(i)) ? 1 : 0;
      }
      return intact + "/" + messages.size() + " echoes intact" + (intact < messages.size() ? ", " + end : "");
    }
  }

  /**
   * Reads server frames until a close frame, the end of the stream, or (when collecting data
   * messages) four messages, 10,000 frames or {@link #LATE_WAIT_MS} without one.
   *
   * @return the close code, "eof", "reset", "timeout", or "done" when four messages came
   */
  static String readUntilClose(Socket socket, List<byte[]> collect) {
    try {
      socket.setSoTimeout(collect == null ? 0 : LATE_WAIT_MS);
      DataInputStream in = new DataInputStream(socket.getInputStream());
      for (int frames = 0; collect == null || collect.size() < 4 && frames < 10_000; frames++) {
        int b0 = in.readUnsignedByte();
        long len = in.readUnsignedByte() & 0x7f;
        len = len == 126 ? in.readUnsignedShort() : len == 127 ? in.readLong() : len;
        int opcode = b0 & 0xf;
        if (opcode == 0x8) {
          return len >= 2 ? Integer.toString(in.readUnsignedShort()) : "1005";
        } else if (collect != null && opcode == 0x2 && len <= 16 * MIB) {
          byte[] payload = new byte[(int) len];
          in.readFully(payload);
          collect.add(payload);
        } else {
          in.skipNBytes(len);
        }
      }
      return "done";
    } catch (SocketTimeoutException e) {
      return "timeout";
    } catch (EOFException e) {
      return "eof";
    } catch (IOException e) {
      return "reset";
    }
  }

  /**
   * Opens a WebSocket to /echo by hand, optionally offering permessage-deflate.
   *
   * @return the socket, or null when deflate was offered and not accepted
   */
  private static Socket connect(int port, boolean deflate) throws IOException {
    Socket s = new Socket("127.0.0.1", port);
    String head = upgrade(s, "/echo", deflate, 10_000);
    if (deflate && !head.toLowerCase(java.util.Locale.ROOT).contains("permessage-deflate")) {
      s.close();
      return null;
    }
    return s;
  }

  /**
   * Upgrades a connected socket by hand to a WebSocket on {@code path}, optionally offering
   * permessage-deflate; reads are timed while the head comes, then untimed.
   *
   * @return the server's 101 response head
   * @throws IOException with the response head as its message when the server refused, or
   *     "closed in the HTTP head" when the stream ended inside it
   */
  static String upgrade(Socket s, String path, boolean deflate, int timeoutMs) throws IOException {
    s.setSoTimeout(timeoutMs);
    s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket"
        + "\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        + "Sec-WebSocket-Version: 13\r\n"
        + (deflate ? "Sec-WebSocket-Extensions: permessage-deflate\r\n" : "") + "\r\n")
        .getBytes(StandardCharsets.US_ASCII));
    InputStream in = s.getInputStream();
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    for (int last4 = 0; last4 != 0x0d0a0d0a; ) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("closed in the HTTP head");
      }
      head.write(b);
      last4 = last4 << 8 | b;
    }
    String text = head.toString(StandardCharsets.US_ASCII);
    if (!text.startsWith("HTTP/1.1 101")) {
      throw new IOException(text);
    }
    s.setSoTimeout(0);
    return text;
  }

  /**
   * Writes a client frame masked with the all-zero key (the payload goes as it is), 1 MiB at a
   * time, adding to {@code sent} what the socket took.
   */
  static void writeFrame(OutputStream out, int opcode, boolean fin, int rsv, byte[] payload,
      AtomicLong sent) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream(14);
    head.write((fin ? 0x80 : 0) | rsv << 4 | opcode);
    head.write(0x80 | 127); // every payload here is over 64 KiB: the 8-byte length is the shortest
    for (int i = 7; i >= 0; i--) {
      head.write((int) ((long) payload.length >>> (8 * i)));
    }
    head.write(new byte[4]);
    out.write(head.toByteArray());
    for (int off = 0; off < payload.length; off += MIB) {
      int n = Math.min(MIB, payload.length - off);
      out.write(payload, off, n);
      sent.addAndGet(n);
    }
    out.flush();
  }

  private static byte[] filled(int n, byte b) {
    byte[] a = new byte[n];
    Arrays.fill(a, b);
    return a;
  }

  private static byte[] bomb;

  /** 1 GiB of zeros deflated, without the sync flush's trailer (RFC 7692 §7.2.1): about 1 MiB. */
  static synchronized byte[] bomb() throws IOException {
    if (bomb == null) {
      Deflater d = new Deflater(Deflater.BEST_COMPRESSION, true);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      DeflaterOutputStream z = new DeflaterOutputStream(out, d, 64 * 1024, true);
      byte[] zeros = new byte[MIB];
      for (int i = 0; i < 1024; i++) {
        z.write(zeros);
      }
      z.flush(); // a sync flush: ends with 00 00 ff ff
      d.end();
      bomb = Arrays.copyOf(out.toByteArray(), out.size() - 4);
    }
    return bomb;
  }
}
