package dev.wsjava.bench;

import dev.wsjava.Transport;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import dev.wsjava.http.HttpResponse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.ObjectName;
import jdk.jfr.Recording;

/**
 * Measures what an idle server connection costs, in one JVM, deterministically: the heap after a
 * full GC, the RSS, the bytes allocated while the connections opened (handshakes included), and
 * a live-object class histogram, each as (with N connections − before) / N. The clients run in a
 * child process so that none of their objects are counted.
 *
 * <p>Command line: {@code wsjava N} (a wsjava NIO server as the end-to-end suite runs it: a
 * listener on {@code /echo}, deflate off, default config; the child is {@code LoadClient --idle
 * N}, which completes each handshake), {@code blocking N} (the same server on the blocking
 * transport), {@code floor N} (a bare NIO server that accepts each socket
 * and registers it with a selector, nothing else; the child only connects), or {@code connect
 * PORT N} (that child). Run it with the suite's JVM flags ({@code -Xms1g -Xmx1g
 * -XX:+UseParallelGC}) for figures comparable to scenario 5. After N, {@code --jfr FILE} also
 * records allocation samples with stacks while the N connections open (read them with {@code jfr
 * print --events jdk.ObjectAllocationSample FILE}).
 */
public final class Footprint {
  /** Histogram rows printed. */
  private static final int TOP = 40;

  private Footprint() {}

  /**
   * Runs the command line.
   *
   * @param args see the class comment
   * @throws Exception when a server or the child fails
   */
  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "wsjava" -> measure("wsjava NIO server", Integer.parseInt(args[1]),
          wsjavaServer(Transport.NIO), jfr(args));
      case "blocking" -> measure("wsjava blocking server", Integer.parseInt(args[1]),
          wsjavaServer(Transport.BLOCKING), jfr(args));
      case "floor" -> measure("bare NIO floor", Integer.parseInt(args[1]), new Floor(), jfr(args));
      case "connect" -> connect(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
      default ->
          throw new IllegalArgumentException("wsjava N | blocking N | floor N | connect PORT N");
    }
  }

  /** The file of {@code --jfr FILE}, or null. */
  private static Path jfr(String[] args) {
    return args.length > 3 && args[2].equals("--jfr") ? Path.of(args[3]) : null;
  }

  /** A server under measurement. */
  private interface Target {
    int port();

    /** The child's command line after the java executable and class path. */
    List<String> client(int n);

    /** Waits until the server side holds {@code n} connections (after the child reported). */
    default void await(int n) throws InterruptedException {}

    /** Connections the server holds now. */
    int open();

    void close() throws Exception;
  }

  private static Target wsjavaServer(Transport transport) throws IOException {
    WebSocketConfig config = WebSocketConfig.builder().transport(transport).deflate(null).build();
    WebSocketServer server =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(config)
            .get("/", req -> HttpResponse.text(200, "hello"))
            // The connections stay silent, so what the listener does never runs; the suite's
            // echo listener (bench-peers WsjavaEchoServer) costs nothing per connection either.
            .websocket("/echo", new WebSocketListener() {})
            .start();
    return new Target() {
      @Override
      public int port() {
        return server.port();
      }

      @Override
      public List<String> client(int n) {
        return List.of(
            "dev.wsjava.bench.e2e.LoadClient", "--port", Integer.toString(port()), "--idle",
            Integer.toString(n));
      }

      @Override
      public int open() {
        return server.openTcpConnections();
      }

      @Override
      public void close() {
        server.close();
      }
    };
  }

  /** The floor: accept, register with a selector, hold nothing else. */
  private static final class Floor implements Target {
    private static final ByteBuffer SINK = ByteBuffer.allocate(64);
    private final ServerSocketChannel server = ServerSocketChannel.open();
    private final Selector selector = Selector.open();
    private final AtomicInteger accepted = new AtomicInteger();
    private final Thread thread;
    private volatile boolean running = true;

    Floor() throws IOException {
      server.bind(new InetSocketAddress("127.0.0.1", 0), 1024);
      server.configureBlocking(false);
      server.register(selector, SelectionKey.OP_ACCEPT);
      thread = Thread.ofPlatform().name("floor").start(this::run);
    }

    private void run() {
      try {
        while (running) {
          selector.select(100);
          for (SelectionKey k : selector.selectedKeys()) {
            if (k.isAcceptable()) {
              SocketChannel ch;
              while ((ch = server.accept()) != null) {
                ch.configureBlocking(false);
                ch.register(selector, SelectionKey.OP_READ);
                accepted.incrementAndGet();
              }
            } else if (k.isReadable() && ((SocketChannel) k.channel()).read(SINK.clear()) < 0) {
              k.channel().close(); // the child ended
              accepted.decrementAndGet();
            }
          }
          selector.selectedKeys().clear();
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    @Override
    public int port() {
      return server.socket().getLocalPort();
    }

    @Override
    public List<String> client(int n) {
      return List.of(Footprint.class.getName(), "connect", Integer.toString(port()),
          Integer.toString(n));
    }

    @Override
    public int open() {
      return accepted.get();
    }

    @Override
    public void await(int n) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (accepted.get() < n && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
    }

    @Override
    public void close() throws Exception {
      running = false;
      selector.wakeup();
      thread.join();
      for (SelectionKey k : selector.keys()) {
        k.channel().close();
      }
      selector.close();
    }
  }

  /** The floor's child: opens {@code n} plain TCP connections and holds them until stdin ends. */
  private static void connect(int port, int n) throws IOException {
    List<SocketChannel> open = new ArrayList<>(n);
    InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
    try {
      for (int i = 0; i < n; i++) {
        open.add(SocketChannel.open(address));
      }
      System.out.println("RESULT workload=idle connections=" + open.size());
      System.out.flush();
      System.in.read();
    } finally {
      for (SocketChannel ch : open) {
        ch.close();
      }
    }
  }

  private static void measure(String name, int n, Target target, Path jfr) throws Exception {
    try {
      // Warm up the path once (class loading, loop buffers, JIT stubs) so it is not counted.
      runClient(target, Math.min(n, 200), () -> {});
      // Past the handshake timeout: its timers (cancelled, still queued) no longer hold anything.
      Thread.sleep(11_000);
      Snapshot heapBefore = Snapshot.take();
      Map<String, long[]> histBefore = histogram();
      // Counted after the histogram, which allocates a lot itself.
      Recording recording = null;
      if (jfr != null) {
        // Allocation samples of the opening only, with stacks: where the handshake's bytes go.
        recording = new Recording();
        recording.enable("jdk.ObjectAllocationSample").with("throttle", "20000/s").withStackTrace();
        // With -XX:-UseTLAB every allocation is one of these: an exact profile (slow; small N).
        recording.enable("jdk.ObjectAllocationOutsideTLAB").withStackTrace();
        recording.start();
      }
      Recording rec = recording;
      Snapshot before = new Snapshot(heapBefore.heap(), heapBefore.rssKib(), allocatedBytes());
      runClient(target, n, () -> {
        long allocated = allocatedBytes();
        if (rec != null) {
          rec.stop();
          rec.dump(jfr);
          rec.close();
        }
        if (target.open() != n) {
          throw new IllegalStateException("the server holds " + target.open() + ", not " + n);
        }
        Snapshot taken = Snapshot.take();
        Snapshot after = new Snapshot(taken.heap(), taken.rssKib(), allocated);
        Map<String, long[]> histAfter = histogram();
        report(name, n, before, after, histBefore, histAfter);
      });
    } finally {
      target.close();
    }
  }

  /** Starts the child, waits for its connections, runs {@code whileOpen}, then ends the child. */
  private static void runClient(Target target, int n, ThrowingRunnable whileOpen)
      throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx512m");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.addAll(target.client(n));
    Process child = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try (OutputStream stdin = child.getOutputStream();
        BufferedReader out =
            new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.startsWith("RESULT")) {
        // skip
      }
      if (line == null || line.contains("error")) {
        throw new IllegalStateException("the client failed: " + line);
      }
      target.await(n);
      Thread.sleep(1000); // as scenario 5 waits after the client's report
      whileOpen.run();
      stdin.write('\n');
    } finally {
      if (!child.waitFor(30, TimeUnit.SECONDS)) {
        child.destroyForcibly();
      }
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (target.open() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(10); // the server notices the closes
    }
    if (target.open() > 0) {
      throw new IllegalStateException(target.open() + " connections still open on the server");
    }
  }

  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  /** Heap after full GC, RSS, and bytes allocated by every thread so far. */
  private record Snapshot(long heap, long rssKib, long allocated) {
    static Snapshot take() throws IOException {
      long allocated = allocatedBytes(); // before the GC: System.gc allocates little, but some
      for (int i = 0; i < 3; i++) {
        System.gc();
      }
      long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      return new Snapshot(heap, Footprint.rssKib(), allocated);
    }
  }

  private static long allocatedBytes() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long total = 0;
    for (long a : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
      if (a > 0) {
        total += a;
      }
    }
    return total;
  }

  private static long rssKib() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return -1;
  }

  /** Live objects by class: instances and bytes (the diagnostic command runs a full GC first). */
  private static Map<String, long[]> histogram() throws Exception {
    String text =
        (String)
            ManagementFactory.getPlatformMBeanServer()
                .invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "gcClassHistogram",
                    new Object[] {new String[0]},
                    new String[] {String[].class.getName()});
    Map<String, long[]> rows = new HashMap<>();
    for (String line : text.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 4 && f[0].endsWith(":")) {
        rows.put(f[3], new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])});
      }
    }
    return rows;
  }

  private static void report(
      String name,
      int n,
      Snapshot before,
      Snapshot after,
      Map<String, long[]> histBefore,
      Map<String, long[]> histAfter) {
    System.out.printf(Locale.ROOT, "%s, N=%d%n", name, n);
    System.out.printf(Locale.ROOT, "  heap per connection      %8.1f B  (%.2f KiB)%n",
        (after.heap() - before.heap()) / (double) n, (after.heap() - before.heap()) / 1024.0 / n);
    System.out.printf(Locale.ROOT, "  RSS per connection       %8.2f KiB%n",
        (after.rssKib() - before.rssKib()) / (double) n);
    System.out.printf(Locale.ROOT, "  allocated per connection %8.0f B  (accept + handshake)%n",
        (after.allocated() - before.allocated()) / (double) n);
    List<Map.Entry<String, long[]>> diff = new ArrayList<>();
    long sum = 0;
    long ours = 0; // what wsjava's own classes hold: the part this project can cut
    for (Map.Entry<String, long[]> e : histAfter.entrySet()) {
      long[] b = histBefore.getOrDefault(e.getKey(), new long[2]);
      long[] d = {e.getValue()[0] - b[0], e.getValue()[1] - b[1]};
      sum += d[1];
      if (e.getKey().startsWith("dev.wsjava.")) {
        ours += d[1];
      }
      diff.add(Map.entry(e.getKey(), d));
    }
    diff.sort((x, y) -> Long.compare(y.getValue()[1], x.getValue()[1]));
    System.out.printf(Locale.ROOT,
        "  live objects per connection: %.1f B (wsjava's own classes %.1f B); top classes:%n",
        sum / (double) n, ours / (double) n);
    System.out.printf(Locale.ROOT, "  %10s %10s  %s%n", "inst/conn", "B/conn", "class");
    for (int i = 0; i < Math.min(TOP, diff.size()); i++) {
      long[] d = diff.get(i).getValue();
      System.out.printf(Locale.ROOT, "  %10.2f %10.1f  %s%n", d[0] / (double) n, d[1] / (double) n,
          diff.get(i).getKey());
    }
  }
}
