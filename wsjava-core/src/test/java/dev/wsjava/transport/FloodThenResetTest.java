package dev.wsjava.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Await;
import dev.wsjava.Message;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.session.MemoryBudget;
import dev.wsjava.transport.blocking.BlockingServer;
import dev.wsjava.transport.nio.NioServer;
import java.io.OutputStream;
import java.lang.ref.WeakReference;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 35, {@code ./bench chaos}'s "flood then reset" attack in small: peers that send a large
 * message and never read its echo, then reset, wave after wave, while an honest client echoes 1
 * KiB messages one after the other. The honest client holds next to nothing and must never be
 * the connection that is closed; every flooder must be released, the budget back to zero, and
 * nothing may keep a closed flooder's connection (and the buffers it held) reachable.
 *
 * <p>The last is what failed on NIO: a closed connection's slow-trickle, stall and probe timers
 * stayed in its loop's queue for up to 30 s, holding its outbound queue of direct buffers (an
 * unread 8 MiB echo); the budget had counted that memory free, so waves of flooders filled the
 * direct memory limit and the next allocation failed with an {@link OutOfMemoryError} in whichever
 * connection made it, the honest client's echo among them.
 */
class FloodThenResetTest {
  static final int MIB = 1 << 20;
  static final int WAVES = 2;
  static final int FLOODERS = 6;
  /** Each flooder's message: more than the kernel's send and receive buffers take of its echo. */
  static final int MESSAGE = 8 * MIB;
  static final Duration BOUND = Duration.ofSeconds(20);

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"NIO", "BLOCKING"})
  void anHonestReaderIsNeverTheVictimAndResetFloodersLeaveNothingBehind(String transport)
      throws Exception {
    // No eviction within the test (a minute's stall timeout): the flooders' pause and release
    // alone are under test.
    MemoryBudget budget = new MemoryBudget(16 * MIB, Duration.ofMinutes(1), System::nanoTime);
    ConnectionConfig config = ConnectionConfig.DEFAULTS.withMemory(budget);
    List<WeakReference<Connection>> flooders = new CopyOnWriteArrayList<>();
    java.util.function.Function<HandshakeInfo, ConnectionHandler> handlers =
        info -> new Echo(info.path().equals("/flood") ? flooders : null);
    ServerTransport server = transport.startsWith("NIO")
        ? NioServer.builder().bind("127.0.0.1", 0).eventLoops(1).connectionConfig(config)
            .handlers(handlers).start()
        : BlockingServer.builder().bind("127.0.0.1", 0).connectionConfig(config)
            .handlers(handlers).start();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong echoes = new AtomicLong();
    AtomicReference<String> honestFailed = new AtomicReference<>();
    Thread honestThread = null;
    try (WebSocketClient client = WebSocketClient.builder()
        .config(WebSocketConfig.builder().deflate(null).build()).build()) {
      WebSocket honest = client.open(URI.create("ws://127.0.0.1:" + server.port() + "/honest"));
      honestThread = Thread.ofVirtual().start(() -> echoUntil(honest, stop, echoes, honestFailed));
      for (int wave = 1; wave <= WAVES; wave++) {
        List<Socket> peers = new ArrayList<>();
        for (int i = 0; i < FLOODERS; i++) {
          Socket s = open(server.port());
          peers.add(s);
          Thread.ofVirtual().start(() -> flood(s));
        }
        Await.until("wave " + wave + ": the flooders hold the budget", BOUND,
            () -> budget.reserved() >= budget.capacity() - MIB || honestFailed.get() != null);
        long before = echoes.get();
        Await.until("wave " + wave + ": the honest client echoes while the flooders hold the"
            + " budget", BOUND, () -> echoes.get() >= before + 100 || honestFailed.get() != null);
        assertThat(honestFailed.get()).as("the honest client, during wave " + wave).isNull();
        for (Socket s : peers) {
          s.setSoLinger(true, 0);
          s.close(); // a reset, while the server is paused on some and queued echoes to others
        }
        Await.until("wave " + wave + ": every flooder released", BOUND,
            () -> server.openConnections() == 1 && budget.reserved() <= MemoryBudget.GRANT);
        Await.until("wave " + wave + ": no closed flooder's connection reachable", BOUND, () -> {
          System.gc(); // what the collector can reclaim: nothing still holds the connection
          return flooders.stream().allMatch(r -> r.get() == null);
        });
        long after = echoes.get();
        Await.until("wave " + wave + ": the honest client echoes after it", BOUND,
            () -> echoes.get() >= after + 100 || honestFailed.get() != null);
        assertThat(honestFailed.get()).as("the honest client, after wave " + wave).isNull();
      }
      System.out.printf("[%s] %d waves of %d flooders (%d MiB each, reset): the honest client"
          + " echoed %d times, never closed; every flooder released and unreachable%n",
          transport, WAVES, FLOODERS, MESSAGE / MIB, echoes.get());
    } finally {
      stop.set(true);
      if (honestThread != null) {
        honestThread.join(BOUND.toMillis());
      }
      server.shutdown(Duration.ofSeconds(1));
    }
    assertThat(flooders).hasSize(WAVES * FLOODERS);
  }

  /** 1 KiB echoes one after the other until {@code stop}; the first failure is recorded. */
  private static void echoUntil(WebSocket ws, AtomicBoolean stop, AtomicLong echoes,
      AtomicReference<String> failed) {
    byte[] kib = new byte[1024];
    try {
      for (int i = 0; i < 10_000_000 && !stop.get(); i++) {
        ws.sendBinary(kib).get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
        Message m = ws.receive(BOUND);
        if (!(m instanceof Message.Binary b) || b.data().remaining() != kib.length) {
          failed.set("no echo within " + BOUND.toMillis() + " ms: " + m);
          return;
        }
        echoes.incrementAndGet();
      }
    } catch (Exception e) {
      failed.set(e.toString());
    }
  }

  /** Echoes every message; remembers the connections it serves (weakly) when given a list. */
  static final class Echo extends ConnectionTest.Handler {
    final List<WeakReference<Connection>> opened;

    Echo(List<WeakReference<Connection>> opened) {
      this.opened = opened;
    }

    @Override
    public void onOpen(Connection c) {
      if (opened != null) {
        opened.add(new WeakReference<>(c));
      }
    }

    @Override
    public void onMessage(Connection c, Opcode type, ByteBuffer payload) {
      c.sendMessage(type, payload);
    }
  }

  /** A flooder: upgraded by hand, with a small receive buffer, so its echo stays queued. */
  private static Socket open(int port) throws Exception {
    Socket s = new Socket();
    s.setReceiveBufferSize(4096);
    s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
    return PausedPeerResetTest.upgrade(s, "/flood");
  }

  /** One binary message of {@link #MESSAGE} bytes, masked with the zero key; never reads. */
  private static void flood(Socket s) {
    byte[] header = {(byte) 0x82, (byte) (0x80 | 127), 0, 0, 0, 0,
        (byte) (MESSAGE >>> 24), (byte) (MESSAGE >>> 16), (byte) (MESSAGE >>> 8), (byte) MESSAGE,
        0, 0, 0, 0};
    try {
      OutputStream out = s.getOutputStream();
      out.write(header);
      byte[] chunk = new byte[64 * 1024];
      for (int sent = 0; sent < MESSAGE; sent += chunk.length) {
        out.write(chunk);
      }
    } catch (Exception e) {
      // reset by the test, or closed by the server
    }
  }
}
