package dev.wsjava.bench;

import dev.wsjava.Topics;
import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fan-out: one topic, N subscribers, 300-byte text messages, on one node. The server runs in this
 * JVM (wsjava {@link Topics}, Netty's {@code ChannelGroup.writeAndFlush} of one frame, or Vert.x's
 * event bus, each on two event loops); the N subscribers are raw sockets on one selector thread in
 * a child process. A message carries its publish time ({@link System#nanoTime()}, one monotonic
 * clock for both processes on Linux); the child reports each message once every subscriber has
 * it, and the server keeps at most {@link #IN_FLIGHT} messages unacknowledged.
 *
 * <p>Every server gets the same settings: {@link #LOOPS} event loops, {@code TCP_NODELAY} on,
 * {@link #SIZE}-byte messages, at most {@link #IN_FLIGHT} in flight, no compression.
 *
 * <p>Prints deliveries per second, the publish-to-receive latency of each delivery (p50, p99),
 * the server's CPU per delivery (this process's CPU time), the client's CPU per delivery (the
 * child's), and the server's heap per subscriber (after a full GC, with N subscribers minus
 * before), and how long connecting and subscribing all N took (on stderr too, split). A wait for the client is bounded:
 * a message that does not reach every subscriber within a minute stops the run with the client's
 * per-message counts on stderr, rather than a run that never ends.
 *
 * <p>Vert.x runs its usual fan-out: a consumer of one event-bus address per WebSocket, on two
 * event loops, each writing what it receives (a frame encoded per subscriber).
 *
 * <p>Command line: {@code wsjava|netty|vertx N MESSAGES}; or {@code client PORT N} (the child).
 */
public final class FanOutBench {
  private static final int SIZE = 300;
  private static final int IN_FLIGHT = 8;
  private static final int LOOPS = 2;

  private FanOutBench() {}

  /**
   * Runs the command line.
   *
   * @param args see the class comment
   * @throws Exception when a server or the child fails
   */
  public static void main(String[] args) throws Exception {
    if (args[0].equals("client")) {
      client(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
      return;
    }
    int n = Integer.parseInt(args[1]);
    int messages = Integer.parseInt(args[2]);
    Server server = switch (args[0]) {
      case "netty" -> new NettyServer();
      case "vertx" -> new VertxServer();
      default -> new WsjavaServer();
    };
    try {
      run(args[0], server, n, messages);
    } finally {
      server.close();
    }
  }

  /** A fan-out server under test. */
  private interface Server {
    int port();

    int subscribers();

    void publish(String text);

    void close() throws Exception;
  }

  private static final class WsjavaServer implements Server {
    final Topics topics = Topics.builder().build();
    final WebSocketServer server;

    WsjavaServer() throws Exception {
      server = WebSocketServer.builder().bind("127.0.0.1", 0)
          .config(WebSocketConfig.builder().transport(Transport.NIO).eventLoops(LOOPS)
              .tcpNoDelay(true).deflate(null).build())
          .websocket("/feed", new WebSocketListener() {
            @Override
            public void onOpen(WebSocket ws) {
              topics.subscribe(ws, "feed");
            }
          })
          .start();
    }

    @Override
    public int port() {
      return server.port();
    }

    @Override
    public int subscribers() {
      return topics.subscribers("feed");
    }

    @Override
    public void publish(String text) {
      topics.publishText("feed", text);
    }

    @Override
    public void close() {
      server.close();
    }
  }

  private static final class NettyServer implements Server {
    final EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    final EventLoopGroup workers = new MultiThreadIoEventLoopGroup(LOOPS, NioIoHandler.newFactory());
    final ChannelGroup group = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    final Channel listener;

    NettyServer() throws Exception {
      listener = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(65536),
                  new WebSocketServerProtocolHandler("/feed"),
                  new ChannelInboundHandlerAdapter() {
                    @Override
                    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                      if (evt instanceof WebSocketServerProtocolHandler.HandshakeComplete) {
                        group.add(ctx.channel());
                      }
                      ctx.fireUserEventTriggered(evt);
                    }
                  });
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    @Override
    public int port() {
      return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    @Override
    public int subscribers() {
      return group.size();
    }

    @Override
    public void publish(String text) {
      // One frame; the group hands each channel a retained duplicate of it.
      group.writeAndFlush(new TextWebSocketFrame(
          Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.UTF_8))));
    }

    @Override
    public void close() throws Exception {
      listener.close().sync();
      group.close().await(10, TimeUnit.SECONDS);
      workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
      boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
    }
  }

  /**
   * Vert.x's usual fan-out: each WebSocket registers a consumer of one event-bus address and writes
   * what it receives; a publication is one {@code eventBus().publish}. Each consumer runs on its
   * socket's event loop and encodes its own frame.
   */
  private static final class VertxServer implements Server {
    final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(LOOPS));
    final AtomicInteger subscribed = new AtomicInteger();
    final HttpServer http;

    VertxServer() throws Exception {
      http = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0)
              .setTcpNoDelay(true))
          .webSocketHandler(ws -> {
            MessageConsumer<String> c =
                vertx.eventBus().consumer("feed", m -> ws.writeTextMessage(m.body()));
            c.completion().onSuccess(v -> subscribed.incrementAndGet());
            ws.closeHandler(v -> {
              c.unregister();
              subscribed.decrementAndGet();
            });
          })
          .listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Override
    public int port() {
      return http.actualPort();
    }

    @Override
    public int subscribers() {
      return subscribed.get();
    }

    @Override
    public void publish(String text) {
      vertx.eventBus().publish("feed", text);
    }

    @Override
    public void close() throws Exception {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private static void run(String name, Server server, int n, int messages) throws Exception {
    long heapBefore = heapAfterGc();
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g",
        "-cp", System.getProperty("java.class.path"), FanOutBench.class.getName(),
        "client", Integer.toString(server.port()), Integer.toString(n)));
    long start = System.nanoTime();
    Process child = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try (PrintStream toChild = new PrintStream(child.getOutputStream(), true, StandardCharsets.UTF_8);
        ChildLines fromChild = new ChildLines(child)) {
      String line = fromChild.next(120, "all " + n + " clients connected");
      if (!"connected".equals(line)) {
        throw new IllegalStateException("the client failed: " + line);
      }
      long connected = System.nanoTime();
      long deadline = connected + TimeUnit.SECONDS.toNanos(60);
      while (server.subscribers() < n && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      if (server.subscribers() < n) {
        throw new IllegalStateException(server.subscribers() + " of " + n + " subscribed");
      }
      long subscribed = System.nanoTime();
      System.err.printf(Locale.ROOT, "fanout %s: %d connected in %.1f s, subscribed %.1f s later%n",
          name, n, (connected - start) / 1e9, (subscribed - connected) / 1e9);
      long perSubscriber = (heapAfterGc() - heapBefore) / n;
      String pad = "x".repeat(SIZE - 24);
      // Warm-up, then the measured run.
      for (int round = 0; round < 2; round++) {
        int count = round == 0 ? Math.max(IN_FLIGHT, messages / 5) : messages;
        long cpu0 = cpu();
        long t0 = System.nanoTime();
        int acked = 0;
        for (int i = 0; i < count; i++) {
          while (i - acked >= IN_FLIGHT) {
            acked = fromChild.ack(toChild, acked);
          }
          server.publish(String.format(Locale.ROOT, "%019d|%04d", System.nanoTime(), i) + pad);
        }
        while (acked < count) {
          acked = fromChild.ack(toChild, acked);
        }
        long elapsed = System.nanoTime() - t0;
        long cpuUsed = cpu() - cpu0;
        toChild.println("report");
        // "latency p50 .. p99 ..;client CPU nanoseconds since the last report"
        String[] report = fromChild.next(60, "the latency report").split(";");
        if (round == 1) {
          double deliveries = (double) n * count;
          System.out.printf(Locale.ROOT,
              "fanout %-6s subscribers=%d messages=%d size=%d: %,.0f deliveries/s, %s,"
                  + " server CPU %.0f ns/delivery (%.2f cores), client CPU %.0f ns/delivery,"
                  + " heap %,d B/subscriber, connected and subscribed in %.1f s%n",
              name, n, count, SIZE, deliveries / (elapsed / 1e9), report[0],
              cpuUsed / deliveries, (double) cpuUsed / elapsed,
              Long.parseLong(report[1]) / deliveries, perSubscriber, (subscribed - start) / 1e9);
        }
      }
      toChild.println("quit");
    } finally {
      if (!child.waitFor(30, TimeUnit.SECONDS)) {
        child.destroyForcibly();
      }
    }
  }

  /** The child's output lines, read by a thread so that a wait for one is bounded in time. */
  private static final class ChildLines implements AutoCloseable {
    /** How long one message may take to reach every subscriber before the run is called stuck. */
    private static final int ACK_SECONDS = 60;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Thread reader;

    ChildLines(Process child) {
      BufferedReader in = new BufferedReader(
          new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      reader = Thread.ofPlatform().daemon().start(() -> {
        try {
          String l;
          while ((l = in.readLine()) != null) {
            lines.add(l);
          }
        } catch (java.io.IOException e) {
          // the child is gone: next() times out and says what it waited for
        }
      });
    }

    String next(int seconds, String what) throws InterruptedException {
      String l = lines.poll(seconds, TimeUnit.SECONDS);
      if (l == null) {
        throw new IllegalStateException("no " + what + " from the client within " + seconds + " s");
      }
      return l;
    }

    /** Waits for the next message every subscriber has; on a timeout the child dumps its counts. */
    int ack(PrintStream toChild, int acked) throws InterruptedException {
      String l = lines.poll(ACK_SECONDS, TimeUnit.SECONDS);
      if (l == null) {
        toChild.println("counts");
        throw new IllegalStateException("message " + acked + " did not reach every subscriber within "
            + ACK_SECONDS + " s (the client's counts are on stderr)");
      }
      return Integer.parseInt(l) + 1;
    }

    @Override
    public void close() {
      reader.interrupt();
    }
  }

  private static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean)
        ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static long heapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    Runtime r = Runtime.getRuntime();
    return r.totalMemory() - r.freeMemory();
  }

  // -----------------------------------------------------------------------------------------------
  // The child: N raw WebSocket clients on one selector; reports each message once all have it.

  private static void client(int port, int n) throws Exception {
    Selector selector = Selector.open();
    byte[] upgrade = ("GET /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    List<Reader> readers = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      java.nio.channels.SocketChannel ch =
          java.nio.channels.SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
      ch.write(ByteBuffer.wrap(upgrade));
      ch.configureBlocking(false);
      Reader r = new Reader(ch);
      readers.add(r);
      ch.register(selector, SelectionKey.OP_READ, r);
    }
    int[] received = new int[1 << 16];
    long[] latencies = new long[1 << 22];
    int[] nLat = {0};
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    CountDownLatch done = new CountDownLatch(1);
    Thread.ofPlatform().daemon().start(() -> {
      try {
        long cpuAtReport = cpu();
        String cmd;
        while ((cmd = in.readLine()) != null && !cmd.equals("quit")) {
          if (cmd.equals("counts")) { // the messages some subscribers still miss
            synchronized (latencies) {
              for (int seq = 0; seq < received.length; seq++) {
                if (received[seq] != 0) {
                  System.err.printf(Locale.ROOT, "client: message %d reached %d of %d%n",
                      seq, received[seq], n);
                }
              }
            }
            continue;
          }
          synchronized (latencies) {
            long[] l = Arrays.copyOf(latencies, nLat[0]);
            nLat[0] = 0;
            Arrays.sort(l);
            long cpuNow = cpu();
            System.out.printf(Locale.ROOT, "latency p50 %.1f us p99 %.1f us;%d%n",
                l[l.length / 2] / 1e3, l[(int) (l.length * 0.99)] / 1e3, cpuNow - cpuAtReport);
            cpuAtReport = cpuNow;
            System.out.flush();
          }
        }
      } catch (Exception e) {
        e.printStackTrace();
      }
      done.countDown();
    });
    System.out.println("connected");
    System.out.flush();
    ByteBuffer buf = ByteBuffer.allocateDirect(1 << 16);
    while (done.getCount() > 0) {
      selector.select(100);
      for (SelectionKey k : selector.selectedKeys()) {
        Reader r = (Reader) k.attachment();
        buf.clear();
        int got = r.ch.read(buf);
        if (got < 0) {
          k.cancel();
          continue;
        }
        buf.flip();
        long now = System.nanoTime();
        synchronized (latencies) {
          while (buf.hasRemaining()) {
            int b = buf.get() & 0xff;
            if (!r.open) { // the 101 response: skip to the blank line
              r.tail = (r.tail << 8) | b;
              r.open = r.tail == 0x0d0a0d0a;
              continue;
            }
            // A frame: 0x81, 126, length (2), payload; gather its first 24 bytes.
            r.frame[r.at++] = (byte) b;
            if (r.at == 4) {
              if (r.frame[0] != (byte) 0x81 || r.frame[1] != 126) {
                throw new IllegalStateException(String.format(Locale.ROOT,
                    "not an unmasked text frame with a 16-bit length: %02x %02x",
                    r.frame[0], r.frame[1]));
              }
              r.need = 4 + (((r.frame[2] & 0xff) << 8) | (r.frame[3] & 0xff));
            }
            if (r.at >= 4 && r.at == r.need) {
              // The payload's first 24 bytes from this reader's own frame: a frame split across
              // reads must not pick up the bytes of another subscriber's frame read in between.
              String s = new String(r.frame, 4, 24, StandardCharsets.US_ASCII);
              long sent = Long.parseLong(s.substring(0, 19));
              int seq = Integer.parseInt(s.substring(20, 24));
              if (nLat[0] < latencies.length) {
                latencies[nLat[0]++] = now - sent;
              }
              if (++received[seq % received.length] == n) {
                received[seq % received.length] = 0;
                System.out.println(seq);
                System.out.flush();
              }
              r.at = 0;
              r.need = -1;
            }
          }
        }
      }
      selector.selectedKeys().clear();
    }
  }

  /** One raw client's parsing state. */
  private static final class Reader {
    final java.nio.channels.SocketChannel ch;
    final byte[] frame = new byte[4 + 1024];
    boolean open;
    int tail;
    int at;
    int need = -1;

    Reader(java.nio.channels.SocketChannel ch) {
      this.ch = ch;
    }
  }
}
