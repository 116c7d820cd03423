package dev.wsjava.bench.peer;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The client side's measuring loop (scenarios 8 and 10), the same for every client library: one
 * connection per workload, a sender thread keeping {@link Workload#window()} messages in flight,
 * every echo checked ({@link EchoPayload}) and its round trip recorded (HdrHistogram), a warm-up,
 * then a measured interval, then a drain. The workload {@value #CONNECT} opens and closes
 * connections one after the other instead. Prints one {@link ResultLine} per workload, with the
 * client process's CPU time per echo and, given the server's process id, the server's.
 *
 * <p>Command line: {@code --url ws://127.0.0.1:PORT/echo --workloads latency,small
 * [--warmup-ms 2000] [--measure-ms 5000] [--server-pid PID] [--trust TRUST_STORE]}.
 */
public final class ClientBench {
  /** The workload that opens and closes connections: connect, handshake, close, again. */
  public static final String CONNECT = "connect";
  private static final long SEND_TIMEOUT_S = 30;
  private static final long DRAIN_TIMEOUT_MS = 10_000;

  /** Builds a client library's driver. */
  @FunctionalInterface
  public interface DriverFactory {
    /**
     * Creates the driver.
     *
     * @param trustStore the PKCS#12 store holding the certificate to trust for wss://, or {@code
     *     null} for plain ws://
     * @return the driver
     * @throws Exception when the library cannot start
     */
    EchoClientDriver create(Path trustStore) throws Exception;
  }

  private final EchoClientDriver driver;
  private final URI uri;
  private final long warmupMs;
  private final long measureMs;
  private long serverPid = -1;

  /**
   * Creates the loop for one driver.
   *
   * @param driver the client library
   * @param uri the echo endpoint
   * @param warmupMs warm-up per workload
   * @param measureMs measured interval per workload
   */
  public ClientBench(EchoClientDriver driver, URI uri, long warmupMs, long measureMs) {
    this.driver = driver;
    this.uri = uri;
    this.warmupMs = warmupMs;
    this.measureMs = measureMs;
  }

  /**
   * Runs the workloads named on the command line and prints their results; the process's entry
   * point for every driver.
   *
   * @param args the command line
   * @param factory builds the client library's driver (closed at the end)
   * @throws Exception when the driver cannot be built
   */
  public static void main(String[] args, DriverFactory factory) throws Exception {
    URI uri = null;
    List<String> workloads = new ArrayList<>();
    long warmup = 2000;
    long measure = 5000;
    long serverPid = -1;
    Path trust = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--url" -> uri = URI.create(args[++i]);
        case "--workloads" -> {
          for (String id : args[++i].split(",")) {
            if (!id.equals(CONNECT)) {
              Workload.byId(id);
            }
            workloads.add(id);
          }
        }
        case "--warmup-ms" -> warmup = Long.parseLong(args[++i]);
        case "--measure-ms" -> measure = Long.parseLong(args[++i]);
        case "--server-pid" -> serverPid = Long.parseLong(args[++i]);
        case "--trust" -> trust = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (uri == null || workloads.isEmpty()) {
      throw new IllegalArgumentException("--url and --workloads are required");
    }
    EchoClientDriver driver = factory.create(trust);
    System.out.println("CLIENT " + driver.describe());
    try (driver) {
      ClientBench bench = new ClientBench(driver, uri, warmup, measure);
      bench.serverPid = serverPid;
      for (String id : workloads) {
        try {
          (id.equals(CONNECT) ? bench.connects() : bench.run(Workload.byId(id))).print(System.out);
        } catch (Exception e) {
          ResultLine.error(System.out, id, e.toString());
        }
      }
    }
  }

  /**
   * Runs one workload on one connection.
   *
   * @param w the workload (its connection count is ignored: one connection)
   * @return the result line
   * @throws Exception when the connection fails, an echo is wrong, or echoes stop coming
   */
  public ResultLine run(Workload w) throws Exception {
    EchoPayload payload = EchoPayload.of(w.size(), w.text());
    Tracker tracker = new Tracker(payload, w.window());
    EchoClientDriver.Connection conn = driver.connect(uri, tracker);
    try {
      byte[][] slots = new byte[w.window()][w.size()];
      for (byte[] slot : slots) {
        payload.fill(0, slot);
      }
      long start = System.nanoTime();
      long measureStart = start + TimeUnit.MILLISECONDS.toNanos(warmupMs);
      long end = measureStart + TimeUnit.MILLISECONDS.toNanos(measureMs);
      boolean measuring = false;
      long echoesAtStart = 0;
      CpuTime.Edge atStart = null;
      long seq = 0;
      long now;
      while ((now = System.nanoTime()) < end) {
        tracker.throwIfFailed();
        if (!measuring && now >= measureStart) {
          measuring = true;
          echoesAtStart = tracker.echoes.get();
          atStart = CpuTime.edge(serverPid);
          tracker.recorder.reset();
          measureStart = now;
        }
        if (!tracker.permits.tryAcquire(100, TimeUnit.MILLISECONDS)) {
          continue;
        }
        byte[] slot = slots[(int) (seq % slots.length)];
        payload.stamp(seq, slot);
        tracker.sentAt.set((int) (seq % slots.length), System.nanoTime());
        seq++;
        if (w.text()) {
          conn.sendText(new String(slot, StandardCharsets.ISO_8859_1))
              .get(SEND_TIMEOUT_S, TimeUnit.SECONDS);
        } else {
          conn.sendBinary(ByteBuffer.wrap(slot)).get(SEND_TIMEOUT_S, TimeUnit.SECONDS);
        }
      }
      long measuredEnd = System.nanoTime();
      CpuTime.Edge atEnd = CpuTime.edge(serverPid);
      long echoes = tracker.echoes.get() - echoesAtStart;
      Histogram h = tracker.recorder.getIntervalHistogram();
      if (!tracker.permits.tryAcquire(w.window(), DRAIN_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
        tracker.throwIfFailed();
        throw new IllegalStateException("echoes stopped: " + (seq - tracker.echoes.get())
            + " of " + seq + " messages never came back");
      }
      tracker.throwIfFailed();
      if (!measuring || echoes == 0) {
        throw new IllegalStateException("no echo in the measured interval");
      }
      return CpuTime.costs(summarize(w, echoes, measuredEnd - measureStart, h), atStart, atEnd,
          echoes, "_per_msg");
    } finally {
      conn.close();
    }
  }

  /**
   * Opens connections one after the other (connect, opening handshake, then a normal close) for
   * the warm-up and the measured interval: connections per second, the time from the start of
   * the connect to the open connection (p50, p99), and each side's CPU time per connection.
   *
   * @return the result line
   * @throws Exception when a connection fails
   */
  public ResultLine connects() throws Exception {
    EchoClientDriver.Inbound ignore = new EchoClientDriver.Inbound() {
      @Override
      public void onText(CharSequence text) {}

      @Override
      public void onBinary(ByteBuffer data) {}

      @Override
      public void onError(Throwable error) {}
    };
    return connectLoop(CONNECT, warmupMs, measureMs, serverPid, () -> {
      EchoClientDriver.Connection conn = driver.connect(uri, ignore);
      long opened = System.nanoTime();
      conn.close();
      return opened;
    });
  }

  /** One connection of a connect loop. */
  @FunctionalInterface
  public interface OneConnection {
    /**
     * Opens a connection, waits until it is open, and closes it.
     *
     * @return {@link System#nanoTime()} when it was open
     * @throws Exception when it fails
     */
    long openAndClose() throws Exception;
  }

  /**
   * Opens and closes connections one after the other through the warm-up and the measured
   * interval: connections per second, the time from the start of each to its opening (p50, p99),
   * and each side's CPU time per connection.
   *
   * @param id the result's workload name
   * @param warmupMs warm-up
   * @param measureMs measured interval
   * @param serverPid the server's process, or -1
   * @param once one connection
   * @return the result line
   * @throws Exception when a connection fails
   */
  public static ResultLine connectLoop(String id, long warmupMs, long measureMs, long serverPid,
      OneConnection once) throws Exception {
    Histogram h = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
    long measureStart = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(warmupMs);
    long end = measureStart + TimeUnit.MILLISECONDS.toNanos(measureMs);
    CpuTime.Edge atStart = null;
    long count = 0;
    long now;
    while ((now = System.nanoTime()) < end) {
      if (atStart == null && now >= measureStart) {
        atStart = CpuTime.edge(serverPid);
        measureStart = now;
      }
      long opened = once.openAndClose();
      if (atStart != null) {
        h.recordValue(Math.min(opened - now, h.getHighestTrackableValue()));
        count++;
      }
    }
    long measuredEnd = System.nanoTime();
    CpuTime.Edge atEnd = CpuTime.edge(serverPid);
    if (count == 0) {
      throw new IllegalStateException("no connection in the measured interval");
    }
    double seconds = (measuredEnd - measureStart) / 1e9;
    ResultLine line = new ResultLine(id)
        .put("connections", count)
        .put("conns_per_s", count / seconds)
        .put("p50_us", h.getValueAtPercentile(50) / 1e3)
        .put("p99_us", h.getValueAtPercentile(99) / 1e3);
    return CpuTime.costs(line, atStart, atEnd, count, "_per_conn");
  }

  /**
   * Builds the result line of a measured interval: messages/s, payload MB/s (one direction, 10^6
   * bytes), and the round-trip percentiles in microseconds.
   *
   * @param w the workload
   * @param echoes echoes received in the interval
   * @param nanos the interval's length
   * @param h round trips in nanoseconds
   * @return the line
   */
  public static ResultLine summarize(Workload w, long echoes, long nanos, Histogram h) {
    double seconds = nanos / 1e9;
    return new ResultLine(w.id())
        .put("echoes", echoes)
        .put("msgs_per_s", echoes / seconds)
        .put("mb_per_s", echoes * (double) w.size() / seconds / 1e6)
        .put("p50_us", h.getValueAtPercentile(50) / 1e3)
        .put("p99_us", h.getValueAtPercentile(99) / 1e3)
        .put("p999_us", h.getValueAtPercentile(99.9) / 1e3);
  }

  /** Checks echoes in order and records their round trips; one per connection. */
  private static final class Tracker implements EchoClientDriver.Inbound {
    final EchoPayload payload;
    final Semaphore permits;
    final AtomicLongArray sentAt;
    final AtomicLong echoes = new AtomicLong();
    final Recorder recorder = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);
    final AtomicReference<Throwable> failure = new AtomicReference<>();

    Tracker(EchoPayload payload, int window) {
      this.payload = payload;
      this.permits = new Semaphore(window);
      this.sentAt = new AtomicLongArray(window);
    }

    @Override
    public void onText(CharSequence text) {
      if (!payload.text()) {
        onError(new IllegalStateException("a text echo of a binary message"));
        return;
      }
      onBinaryChecked(ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public void onBinary(ByteBuffer data) {
      if (payload.text()) {
        onError(new IllegalStateException("a binary echo of a text message"));
        return;
      }
      onBinaryChecked(data);
    }

    private void onBinaryChecked(ByteBuffer data) {
      long now = System.nanoTime();
      long seq = echoes.get();
      int bad = payload.checkWhole(seq, data);
      if (bad >= 0) {
        onError(new IllegalStateException("echo " + seq + " is wrong at byte " + bad
            + " (length " + data.remaining() + ", expected " + payload.size() + ")"));
        return;
      }
      recorder.recordValue(Math.max(0, now - sentAt.get((int) (seq % sentAt.length()))));
      echoes.incrementAndGet();
      permits.release();
    }

    @Override
    public void onError(Throwable error) {
      failure.compareAndSet(null, error);
      permits.release(1 << 20); // wake the sender so it reports the failure
    }

    void throwIfFailed() throws Exception {
      Throwable t = failure.get();
      if (t != null) {
        throw new IllegalStateException("connection failed: " + t, t);
      }
    }
  }
}
