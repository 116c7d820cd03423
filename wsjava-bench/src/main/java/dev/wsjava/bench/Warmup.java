package dev.wsjava.bench;

import dev.wsjava.bench.peer.CpuTime;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./bench warmup}: how soon a freshly started server reaches its steady state (issue 39).
 * Each target is started as a new process (pinned to CPU 0 when there are two or more, as the
 * suite pins its servers), and one connection then echoes 300-byte binary messages, pipelined
 * ({@link #WINDOW} in flight), until {@code --messages} have come back. The server's CPU time
 * (user plus system, from /proc, all its threads: JIT compilers and GC included) is read at start,
 * when the port first accepts, and after every {@link #STEP} echoes; the table has the CPU per
 * message over the first 100 k and the first 1 M, and over the last 1 M (the steady state), and
 * the first point from which the CPU per message over the next 500 k stays within 1.25 times the
 * steady state's.
 *
 * <p>Targets: {@code wsjava} ({@code ./wsjava serve}: the launcher, with its ahead-of-time cache on
 * JDK 25), {@code wsjava-noaot} (the same with {@code WSJAVA_AOT=0}: the JIT starts cold) and
 * {@code netty} (the suite's Netty echo peer). Command line: {@code --root DIR [--targets
 * wsjava,wsjava-noaot,netty] [--messages 4000000] [--runs 1]}; with several runs, the targets
 * alternate run by run.
 */
public final class Warmup {
  static final int SIZE = 300;
  static final int WINDOW = 256;
  static final int BATCH = 64;
  static final int STEP = 100_000;
  private static final long START_TIMEOUT_MS = 180_000;
  private static final long RUN_TIMEOUT_MS = 300_000;
  private static final String NETTY = "dev.wsjava.bench.peer.netty.NettyEchoServer";

  private Warmup() {}

  /**
   * Runs the command line.
   *
   * @param args see the class comment
   * @throws Exception when a server cannot be started or stops answering
   */
  public static void main(String[] args) throws Exception {
    Path root = Path.of(".");
    List<String> targets = List.of("wsjava", "wsjava-noaot", "netty");
    long messages = 4_000_000;
    int runs = 1;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--root" -> root = Path.of(args[++i]);
        case "--targets" -> targets = List.of(args[++i].split(","));
        case "--messages" -> messages = Long.parseLong(args[++i]);
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (messages < 2_000_000) {
      throw new IllegalArgumentException("--messages must be at least 2000000 (1 M warm-up, 1 M steady)");
    }
    messages = messages / STEP * STEP;
    System.out.printf(Locale.ROOT, "Warm-up: one connection, %d B binary echoes, %d in flight,"
        + " %,d messages per run; server CPU per message in µs (user + system, all threads)%n%n",
        SIZE, WINDOW, messages);
    System.out.println("| server | run | listening after (ms) | CPU to listen (ms) | first 100 k"
        + " (µs/msg) | first 1 M (µs/msg) | steady, last 1 M (µs/msg) | first 1 M / steady"
        + " | steady from (msgs) | steady after (s) |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (int run = 1; run <= runs; run++) {
      for (String target : targets) {
        System.out.println(row(root, target, run, messages));
      }
    }
  }

  private static String row(Path root, String target, int run, long messages) throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Path log = Files.createTempFile("warmup-" + target, ".log");
    ProcessBuilder pb = new ProcessBuilder(command(root, target, port)).redirectErrorStream(true)
        .redirectOutput(log.toFile()).directory(root.toFile());
    if (target.equals("wsjava-noaot")) {
      pb.environment().put("WSJAVA_AOT", "0");
    }
    long t0 = System.nanoTime();
    Process p = pb.start();
    try {
      long listening = waitForPort(p, port, log, t0);
      long cpuListening = CpuTime.micros(p.pid());
      long[] cpu = new long[(int) (messages / STEP) + 1];
      long[] wall = new long[cpu.length];
      cpu[0] = cpuListening;
      wall[0] = System.nanoTime();
      echo(port, messages, p.pid(), cpu, wall);
      int n = cpu.length - 1;
      int per1m = 1_000_000 / STEP;
      double first100k = perMessage(cpu, 0, 1);
      double first1m = perMessage(cpu, 0, per1m);
      double steady = perMessage(cpu, n - per1m, n);
      int window = 5; // 500 k
      int from = -1;
      for (int k = 0; k + window <= n; k++) {
        if (perMessage(cpu, k, k + window) <= 1.25 * steady) {
          from = k;
          break;
        }
      }
      return String.format(Locale.ROOT, "| %s | %d | %,d | %,d | %.2f | %.2f | %.2f | %.2fx | %s | %s |",
          target, run, (listening - t0) / 1_000_000, cpuListening / 1_000, first100k, first1m,
          steady, first1m / steady, from < 0 ? "-" : String.format(Locale.ROOT, "%,d", (long) from * STEP),
          from < 0 ? "-" : String.format(Locale.ROOT, "%.1f", (wall[from] - t0) / 1e9));
    } finally {
      p.destroy();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
      Files.deleteIfExists(log);
    }
  }

  private static double perMessage(long[] cpu, int from, int to) {
    return (double) (cpu[to] - cpu[from]) / ((long) (to - from) * STEP);
  }

  private static List<String> command(Path root, String target, int port) throws IOException {
    List<String> cmd = new ArrayList<>();
    if (new File("/usr/bin/taskset").canExecute() && Runtime.getRuntime().availableProcessors() > 1) {
      cmd.addAll(List.of("taskset", "-c", "0"));
    }
    switch (target) {
      case "wsjava", "wsjava-noaot" -> cmd.addAll(List.of(root.resolve("wsjava").toString(), "serve",
          "--host", "127.0.0.1", "--port", Integer.toString(port)));
      case "netty" -> {
        Path module = root.resolve("bench-peers/netty/target");
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
            module.resolve("classes") + File.pathSeparator
                + Files.readString(module.resolve("classpath.txt")).strip(),
            NETTY, Integer.toString(port), "--host", "127.0.0.1"));
      }
      default -> throw new IllegalArgumentException("unknown target " + target
          + " (wsjava, wsjava-noaot, netty)");
    }
    return cmd;
  }

  /** Polls the port until it accepts; returns the {@link System#nanoTime()} it first did. */
  private static long waitForPort(Process p, int port, Path log, long t0) throws Exception {
    while (System.nanoTime() - t0 < TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MS)) {
      if (!p.isAlive()) {
        throw new IOException("the server exited: " + Files.readString(log));
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
        return System.nanoTime();
      } catch (IOException notYet) {
        Thread.sleep(5); // a bench polling a port that is not open yet
      }
    }
    throw new IOException("the server did not listen within " + START_TIMEOUT_MS + " ms: "
        + Files.readString(log));
  }

  /**
   * Echoes {@code messages} on one connection, {@link #WINDOW} in flight; records the server's CPU
   * time and the wall clock after every {@link #STEP} echoes.
   */
  private static void echo(int port, long messages, long pid, long[] cpu, long[] wall)
      throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setTcpNoDelay(true);
      s.setSoTimeout((int) RUN_TIMEOUT_MS);
      InputStream in = s.getInputStream();
      OutputStream out = s.getOutputStream();
      upgrade(in, out);
      byte[] frame = new byte[8 + SIZE]; // FIN binary, masked with the key 0, 16-bit length
      frame[0] = (byte) 0x82;
      frame[1] = (byte) (0x80 | 126);
      frame[2] = (byte) (SIZE >>> 8);
      frame[3] = (byte) SIZE;
      for (int i = 8; i < frame.length; i++) {
        frame[i] = (byte) i;
      }
      byte[] batch = new byte[frame.length * BATCH];
      for (int i = 0; i < BATCH; i++) {
        System.arraycopy(frame, 0, batch, i * frame.length, frame.length);
      }
      Semaphore window = new Semaphore(WINDOW);
      Thread writer = Thread.ofPlatform().name("warmup-writer").start(() -> {
        try {
          for (long sent = 0; sent < messages; sent += BATCH) {
            int n = (int) Math.min(BATCH, messages - sent);
            window.acquire(n);
            out.write(batch, 0, n * frame.length);
          }
        } catch (IOException | InterruptedException e) {
          // the reader notices: its read fails or times out
        }
      });
      int echo = 4 + SIZE;
      byte[] buf = new byte[64 * 1024];
      long bytes = 0;
      long done = 0;
      int next = 1;
      while (done < messages) {
        int r = in.read(buf);
        if (r < 0) {
          throw new IOException("the server closed after " + done + " echoes");
        }
        bytes += r;
        long now = bytes / echo;
        if (now > done) {
          window.release((int) (now - done));
          done = now;
        }
        while (next < cpu.length && done >= (long) next * STEP) {
          cpu[next] = CpuTime.micros(pid);
          wall[next] = System.nanoTime();
          next++;
        }
      }
      writer.join();
    }
  }

  private static void upgrade(InputStream in, OutputStream out) throws IOException {
    out.write(("GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the server closed during the upgrade: " + head);
      }
      head.append((char) b);
    }
    if (!head.toString().startsWith("HTTP/1.1 101")) {
      throw new IOException("the server refused the upgrade: " + head);
    }
  }
}
