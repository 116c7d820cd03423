package dev.wsjava.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Await;
import dev.wsjava.session.MemoryBudget;
import dev.wsjava.transport.blocking.BlockingServer;
import dev.wsjava.transport.nio.NioServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 35: a connection whose reading is paused (the memory budget is spent) still notices its
 * peer leaving. Peers flood unfinished messages until the budget stops reading them all, then
 * reset their connections (or close them: a FIN); the stall timeout is a minute, so no eviction
 * helps. Every connection must be released within a few seconds with everything it held.
 */
class PausedPeerResetTest {
  static final int PEERS = 16;
  static final int KIB = 1024;
  static final Duration BOUND = Duration.ofSeconds(8);

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "NIO budget reset", "BLOCKING budget reset", "NIO budget close", "BLOCKING budget close",
      "NIO flow reset", "BLOCKING flow reset", "NIO flow close", "BLOCKING flow close"})
  void pausedConnectionsWhosePeersLeaveAreReleased(String run) throws Exception {
    boolean nio = run.startsWith("NIO");
    boolean reset = run.endsWith("reset");
    // "budget": the budget's spending pauses them all. "flow": the application pauses each at
    // its open, as a consumer that fell behind does, and the budget is ample: no connection
    // resumes because another one's release made room.
    boolean flow = run.contains("flow");
    MemoryBudget budget =
        new MemoryBudget(flow ? 256L << 20 : 2L << 20, Duration.ofMinutes(1), System::nanoTime);
    ConnectionConfig config = ConnectionConfig.DEFAULTS.withMemory(budget);
    java.util.function.Function<HandshakeInfo, ConnectionHandler> handlers = info -> new Pausing(flow);
    ServerTransport server = nio
        ? NioServer.builder().bind("127.0.0.1", 0).eventLoops(1).connectionConfig(config)
            .handlers(handlers).start()
        : BlockingServer.builder().bind("127.0.0.1", 0).connectionConfig(config)
            .handlers(handlers).start();
    List<Socket> peers = new ArrayList<>();
    try {
      for (int i = 0; i < PEERS; i++) {
        peers.add(open(server.port()));
      }
      // Each starts a message it never finishes: 64 KiB fragments, 1 MiB each at most, on
      // threads of their own (their writes block once the server stops reading).
      List<Thread> writers = new ArrayList<>();
      for (Socket s : peers) {
        writers.add(Thread.ofVirtual().start(() -> flood(s)));
      }
      if (flow) {
        for (Thread w : writers) { // the kernel's buffers take what they can, then writes block
          Await.until("a peer's writes blocked", Duration.ofSeconds(20),
              () -> w.getState() == Thread.State.WAITING || !w.isAlive());
        }
      } else {
        Await.until("the budget spent and reading paused", Duration.ofSeconds(20),
            () -> budget.reserved() >= budget.capacity() - 256 * KIB);
      }
      long spent = budget.reserved();
      int open = server.openConnections();
      long t0 = System.nanoTime();
      for (Socket s : peers) {
        if (reset) {
          s.setSoLinger(true, 0); // an RST, not a FIN
        }
        s.close();
      }
      Await.until("every connection released (" + run + ")", BOUND,
          () -> server.openConnections() == 0 && budget.reserved() == 0);
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      System.out.printf("[%s] %d paused connections holding %d KiB of a %d KiB budget: all released"
          + " %d ms after their peers left%n", run, open, spent / KIB, budget.capacity() / KIB, ms);
      for (Thread w : writers) {
        w.join(5_000);
      }
    } finally {
      for (Socket s : peers) {
        s.close();
      }
      server.shutdown(Duration.ofSeconds(1));
    }
  }

  /** Pauses reading at the open when asked to; ignores the rest. */
  static final class Pausing implements ConnectionHandler {
    final boolean pause;

    Pausing(boolean pause) {
      this.pause = pause;
    }

    @Override
    public void onOpen(Connection c) {
      if (pause) {
        c.pauseReading(true);
      }
    }

    @Override
    public void onMessage(Connection c, dev.wsjava.protocol.Opcode type, java.nio.ByteBuffer payload) {}

    @Override
    public void onPing(Connection c, java.nio.ByteBuffer payload) {}

    @Override
    public void onPong(Connection c, java.nio.ByteBuffer payload) {}

    @Override
    public void onError(Connection c, Throwable error) {}

    @Override
    public void onClose(Connection c, int code, String reason) {}

    @Override
    public void onWritable(Connection c) {}
  }

  private static Socket open(int port) throws Exception {
    return upgrade(new Socket("127.0.0.1", port), "/x");
  }

  /** Upgrades a connected socket by hand to a WebSocket to {@code path}. */
  static Socket upgrade(Socket s, String path) throws Exception {
    s.setSoTimeout(10_000);
    OutputStream out = s.getOutputStream();
    out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII));
    InputStream in = s.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      assertThat(b).as("the 101's bytes").isNotNegative();
      head.append((char) b);
    }
    assertThat(head.toString()).startsWith("HTTP/1.1 101");
    return s;
  }

  /** A binary message of 64 KiB fragments, never final, masked with the zero key, until blocked. */
  private static void flood(Socket s) {
    byte[] frame = new byte[8 + 64 * KIB];
    frame[1] = (byte) (0x80 | 126);
    frame[2] = (byte) ((64 * KIB - 1) >>> 8);
    frame[3] = (byte) (64 * KIB - 1);
    // 64 KiB - 1 bytes of payload after the 4-byte zero mask: the array has 4 bytes more than
    // one frame needs, so send one frame's worth each time.
    int len = 4 + 4 + 64 * KIB - 1;
    try {
      OutputStream out = s.getOutputStream();
      for (int i = 0; i < 256; i++) { // 16 MiB, more than the kernel's buffers hold
        frame[0] = (byte) (i == 0 ? 0x02 : 0x00);
        out.write(frame, 0, len);
      }
    } catch (Exception e) {
      // the peer left, as the test makes it
    }
  }
}
