package dev.wsjava.cli;

import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.cli.LoadStats.Kind;
import dev.wsjava.extension.PerMessageDeflate;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code wsjava load URL}: a load generator for any echo server. Opens {@code --connections}
 * connections, keeps {@code --in-flight} messages outstanding on each, checks every echo byte for
 * byte, and reports rate, latency percentiles and errors by kind. The run always ends: after
 * {@code --count} messages or {@code --duration}, plus at most {@code --drain-timeout} for the
 * last echoes (or as soon as nothing has come back for that long).
 */
@Command(
    name = "load",
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Load-test a WebSocket echo server: every echo is checked (type, length, order, every"
          + " byte); prints rate, latency (microseconds) and errors by kind.",
      "Messages are pseudo-random bytes (printable ASCII for --text) numbered in their first 8"
          + " bytes (16 hex digits for text); shorter messages are checked without numbers.",
      "Every connection opens first; then each starts with a ping, and its pong starts the"
          + " messages.",
      ""
    },
    footer = {
      "",
      "MB/s counts payload bytes sent plus received (1 MB = 10^6 bytes). Latency is send to"
          + " echo, per message, after the warmup.",
      "Progress (messages/s, MB/s, errors) goes to stderr once a second when it is a terminal,"
          + " or with --progress.",
      "Exit status: 0 no errors, 1 any error, 2 usage error."
    })
public final class LoadCommand implements Callable<Integer> {
  private static final long TICK_MILLIS = 100;

  @ParentCommand private WsjavaCommand parent;

  @Spec private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "URL", description = "ws:// or wss:// URL of an echo server.")
  private URI url;

  @Option(names = {"-s", "--size"}, paramLabel = "BYTES", defaultValue = "1k",
      converter = Units.SizeConverter.class, description = "Payload size of each message.")
  private long size;

  @Option(names = {"-n", "--count"}, paramLabel = "N",
      description = "Send N messages in all (spread over the connections), then stop.")
  private Long count;

  @Option(names = {"-d", "--duration"}, paramLabel = "DURATION",
      description = "Send for this long (default 10s when --count is not given).")
  private Duration duration;

  @Option(names = {"-c", "--connections"}, paramLabel = "C", defaultValue = "1",
      description = "Connections.")
  private int connections;

  @Option(names = {"-t", "--threads"}, paramLabel = "T", defaultValue = "1",
      description = "Event loops of the NIO transport (the blocking one has a thread per connection).")
  private int threads;

  @Option(names = "--in-flight", paramLabel = "K", defaultValue = "1",
      description = "Messages outstanding per connection.")
  private int inFlight;

  @Option(names = "--text", description = "Send text messages (default: binary).")
  private boolean text;

  @Option(names = "--binary", description = "Send binary messages (the default).")
  private boolean binary;

  @Option(names = "--deflate", description = "Offer permessage-deflate (default: off).")
  private boolean deflate;

  @Option(names = {"-w", "--warmup"}, paramLabel = "DURATION", defaultValue = "0",
      description = "Run this long first without measuring (with --count: on top of N).")
  private Duration warmup;

  @Option(names = "--drain-timeout", paramLabel = "DURATION", defaultValue = "5s",
      description = "Longest wait for outstanding echoes at the end, or for any echo at all.")
  private Duration drainTimeout;

  @Option(names = "--json", description = "Print one JSON object instead of the summary.")
  private boolean json;

  @Option(names = "--progress", description = "Print progress to stderr even when it is not a terminal.")
  private boolean progress;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Seed of the pseudo-random payloads.")
  private long seed;

  @Mixin private ClientOptions clientOptions;

  @Mixin private SocketBufferOptions socketBuffers;

  /**
   * Runs the load and prints the summary.
   *
   * @return 0 without errors, 1 with any
   * @throws Exception on an unexpected failure
   */
  @Override
  public Integer call() throws Exception {
    Io io = parent.io();
    URI target = clientOptions.check(url);
    validate();
    Payloads payloads = new Payloads((int) size, text, seed);
    LoadStats stats = new LoadStats();
    LoadConnection.Run run = new LoadConnection.Run(payloads, stats, inFlight);
    long frame = size + 14;
    WebSocketConfig config =
        Units.messagesUpTo(
                socketBuffers.applyTo(WebSocketConfig.builder()),
                Math.max(WebSocketConfig.defaults().maxMessageSize(), size))
            .eventLoops(threads)
            .deflate(deflate ? PerMessageDeflate.defaults() : null)
            .maxQueuedBytes(Math.max(WebSocketConfig.defaults().maxQueuedBytes(), 2 * frame * inFlight))
            .build();
    List<LoadConnection> conns = new ArrayList<>();
    for (int i = 0; i < connections; i++) {
      long quota = count == null ? Long.MAX_VALUE : count / connections + (i < count % connections ? 1 : 0);
      conns.add(new LoadConnection(i, run, quota));
    }
    Duration sending = count == null ? (duration == null ? Duration.ofSeconds(10) : duration) : null;
    double seconds;
    try (WebSocketClient client = clientOptions.client(config, io.err())) {
      connectAll(client, target, conns, stats, config.handshakeTimeout());
      run.startNanos = System.nanoTime() + warmup.toNanos();
      for (LoadConnection c : conns) {
        if (c.webSocket() != null) {
          c.start();
        }
      }
      drive(run, conns, sending, io);
      seconds = finish(run, conns, config);
    }
    Histogram latencies = stats.latencies();
    if (json) {
      io.out().println(stats.json(target.toString(), setupJson(), seconds, latencies));
    } else {
      io.out().print(stats.summary(setup(target), seconds, latencies));
    }
    io.out().flush();
    return stats.errors() == 0 ? 0 : 1;
  }

  private void validate() {
    String problem = null;
    if (size < 0 || size > Integer.MAX_VALUE - 8) {
      problem = "--size must be 0 to 2g";
    } else if (count != null && duration != null) {
      problem = "give --count or --duration, not both";
    } else if (count != null && count < 1) {
      problem = "--count must be at least 1";
    } else if (duration != null && duration.isZero()) {
      problem = "--duration must be positive";
    } else if (connections < 1 || threads < 1 || inFlight < 1) {
      problem = "--connections, --threads and --in-flight must be at least 1";
    } else if (text && binary) {
      problem = "choose --text or --binary";
    } else if (drainTimeout.isZero()) {
      problem = "--drain-timeout must be positive";
    }
    if (problem != null) {
      throw new ParameterException(spec.commandLine(), problem);
    }
  }

  /** Opens every connection at once, and waits until each is open or has failed. */
  private static void connectAll(
      WebSocketClient client, URI target, List<LoadConnection> conns, LoadStats stats,
      Duration handshakeTimeout) throws InterruptedException {
    List<CompletableFuture<WebSocket>> opening = new ArrayList<>();
    for (LoadConnection c : conns) {
      opening.add(client.connect(target, c));
    }
    long deadline = System.nanoTime() + handshakeTimeout.toNanos() + TimeUnit.SECONDS.toNanos(5);
    for (int i = 0; i < opening.size(); i++) {
      int id = i;
      try {
        opening.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        opening.get(i).cancel(false);
        String hint = ClientOptions.hint(target, e);
        stats.error(Kind.CONNECT, 1, () -> "connection " + id + ": "
            + (e instanceof java.util.concurrent.TimeoutException ? "timed out" : Main.describe(e))
            + (hint == null ? "" : "; hint: " + hint));
        conns.get(i).connectFailed();
      }
    }
  }

  /** Waits for the run to end, printing progress once a second. */
  private void drive(LoadConnection.Run run, List<LoadConnection> conns, Duration sending, Io io)
      throws InterruptedException {
    Progress bar = progress || io.errIsTerminal() ? new Progress(io.err(), io.errIsTerminal(), run) : null;
    long stopAt = sending == null ? Long.MAX_VALUE : run.startNanos + sending.toNanos();
    long drain = drainTimeout.toNanos();
    while (true) {
      Thread.sleep(TICK_MILLIS);
      long now = System.nanoTime();
      if (bar != null) {
        bar.tick(now);
      }
      if (!run.stopping && now >= stopAt) {
        run.stopping = true;
      }
      boolean allDone = true;
      long lastEcho = 0;
      for (LoadConnection c : conns) {
        allDone &= c.done();
        lastEcho = Math.max(lastEcho, c.lastEchoNanos());
      }
      boolean drained = run.stopping && now - stopAt >= drain;
      boolean stalled = now - lastEcho >= drain;
      if (allDone || drained || stalled) {
        break;
      }
    }
    if (bar != null) {
      bar.end();
    }
  }

  /** Counts what is still in flight as timed out, closes everything, returns the seconds measured. */
  private static double finish(LoadConnection.Run run, List<LoadConnection> conns, WebSocketConfig config)
      throws InterruptedException {
    run.finishing = true;
    long end = run.startNanos;
    List<CompletableFuture<Void>> closing = new ArrayList<>();
    for (int i = 0; i < conns.size(); i++) {
      LoadConnection c = conns.get(i);
      long pending = c.inFlight();
      if (pending > 0 && !c.done()) {
        int id = i;
        run.stats.error(Kind.TIMEOUT, pending, () -> pending + " message(s) on connection " + id
            + " still unanswered at the end");
      }
      end = Math.max(end, c.lastMeasuredEchoNanos());
      WebSocket ws = c.webSocket();
      if (ws != null && ws.isOpen()) {
        closing.add(ws.close());
      }
    }
    try {
      CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new))
          .get(config.closeTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      // the client's close aborts what is left
    }
    if (end == run.startNanos) {
      end = System.nanoTime();
    }
    return Math.max(1e-3, (end - run.startNanos) / 1e9);
  }

  private String setup(URI target) {
    return String.format(Locale.ROOT,
        "wsjava load %s: %d connection(s), %d in flight each, %s %s messages, deflate %s, %s transport"
            + " (%d thread(s))%s%s",
        target, connections, inFlight, size + "-byte", text ? "text" : "binary",
        deflate ? "offered" : "off", clientOptions.transport.name().toLowerCase(Locale.ROOT), threads,
        socketBuffers.describe(), clientOptions.proxy == null ? "" : ", through " + clientOptions.proxy);
  }

  private String setupJson() {
    return String.format(Locale.ROOT,
        "\"connections\":%d,\"inFlight\":%d,\"size\":%d,\"type\":\"%s\",\"deflate\":%b,"
            + "\"transport\":\"%s\",\"threads\":%d",
        connections, inFlight, size, text ? "text" : "binary", deflate,
        clientOptions.transport.name().toLowerCase(Locale.ROOT), threads);
  }

  /** The once-a-second progress line on stderr; overwrites itself on a terminal. */
  private static final class Progress {
    private final PrintStream err;
    private final boolean terminal;
    private final LoadConnection.Run run;
    private final long started = System.nanoTime();
    private long nextNanos = started + TimeUnit.SECONDS.toNanos(1);
    private long lastMessages;
    private long lastBytes;
    private long lastNanos = started;

    Progress(PrintStream err, boolean terminal, LoadConnection.Run run) {
      this.err = err;
      this.terminal = terminal;
      this.run = run;
    }

    void tick(long now) {
      if (now < nextNanos) {
        return;
      }
      nextNanos += TimeUnit.SECONDS.toNanos(1);
      long messages = run.stats.messages();
      long bytes = run.stats.bytes();
      double dt = (now - lastNanos) / 1e9;
      String phase = now < run.startNanos ? "warmup" : run.stopping ? "drain " : "run   ";
      String line = String.format(Locale.ROOT, "%s %4ds  %,12.0f messages/s  %9.1f MB/s  errors %,d",
          phase, (now - started) / 1_000_000_000L, (messages - lastMessages) / dt,
          (bytes - lastBytes) / dt / 1e6, run.stats.errors());
      err.print(terminal ? "\r" + line : line + "\n");
      err.flush();
      lastMessages = messages;
      lastBytes = bytes;
      lastNanos = now;
    }

    void end() {
      if (terminal) {
        err.print("\r\033[K");
        err.flush();
      }
    }
  }
}
