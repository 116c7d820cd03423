package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ServerSocketFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Client keepalive on both transports: pings on the interval, a silent peer dropped as dead. */
class KeepaliveTest {
  @TempDir static Path dir;
  static TestTls tls;

  ServerSocket rawPeer;
  WebSocketServer server;
  WebSocketClient client;

  @BeforeAll
  static void certificates() throws Exception {
    tls = TestTls.create(dir);
  }

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (rawPeer != null) {
      rawPeer.close();
    }
    if (server != null) {
      server.shutdown(Duration.ofSeconds(2));
    }
  }

  WebSocketClient client(Transport t, Duration ping, Duration pong) {
    return client =
        WebSocketClient.builder()
            .config(
                WebSocketConfig.builder()
                    .transport(t)
                    .eventLoops(1)
                    .pingInterval(ping)
                    .pongTimeout(pong)
                    .build())
            .tls(tls.client())
            .build();
  }

  /** What the dead peer saw: the frames received, and when the client closed the TCP connection. */
  static final class Seen {
    final List<String> frames = new CopyOnWriteArrayList<>();
    final CompletableFuture<Long> tcpClosedAt = new CompletableFuture<>();
  }

  /** Accepts one upgrade, answers 101, then reads everything and answers nothing. */
  Seen startDeadPeer(boolean secure) throws Exception {
    ServerSocketFactory factory =
        secure ? tls.server().getServerSocketFactory() : ServerSocketFactory.getDefault();
    rawPeer = factory.createServerSocket(0, 5, InetAddress.getLoopbackAddress());
    Seen seen = new Seen();
    Thread.ofVirtual().start(() -> {
      try (Socket socket = DeadPeer.acceptUpgrade(rawPeer)) {
        InputStream in = socket.getInputStream();
        // Client frames are masked; keepalive sends only small control frames (no extended length).
        DataInputStream frames = new DataInputStream(in);
        byte[] head2 = new byte[2];
        while (frames.read(head2, 0, 1) > 0) {
          frames.readFully(head2, 1, 1);
          byte[] mask = new byte[4];
          frames.readFully(mask);
          byte[] payload = new byte[head2[1] & 0x7f];
          frames.readFully(payload);
          for (int i = 0; i < payload.length; i++) {
            payload[i] ^= mask[i % 4];
          }
          int opcode = head2[0] & 0x0f;
          seen.frames.add(opcode == 0x8 ? "close " + ((payload[0] & 0xff) << 8 | (payload[1] & 0xff))
              : opcode == 0x9 ? "ping" : "opcode " + opcode);
        }
        seen.tcpClosedAt.complete(System.nanoTime());
      } catch (Exception e) {
        seen.tcpClosedAt.complete(System.nanoTime()); // a reset is a close too
      }
    });
    return seen;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.wsjava.TimeoutTest#setups")
  void aSilentPeerIsDroppedWith1006AfterThePongTimeout(TimeoutTest.Setup s) throws Exception {
    Seen peer = startDeadPeer(s.tls());
    CompletableFuture<Throwable> error = new CompletableFuture<>();
    CompletableFuture<Integer> closed = new CompletableFuture<>();
    List<String> threads = new CopyOnWriteArrayList<>();
    long start = System.nanoTime();
    client(s.transport(), Duration.ofMillis(200), Duration.ofMillis(300))
        .connect(
            URI.create((s.tls() ? "wss" : "ws") + "://localhost:" + rawPeer.getLocalPort() + "/"),
            new WebSocketListener() {
              @Override
              public void onError(WebSocket ws, Throwable e) {
                threads.add(Thread.currentThread().getName());
                error.complete(e);
              }

              @Override
              public void onClose(WebSocket ws, int code, String reason) {
                threads.add(Thread.currentThread().getName());
                closed.complete(code);
              }
            })
        .get(10, TimeUnit.SECONDS);
    assertThat(closed.get(10, TimeUnit.SECONDS)).isEqualTo(1006);
    // Both on the connection's I/O thread, as its other events: not on a timer's.
    assertThat(threads).hasSize(2).doesNotContain("wsjava-timers", "wsjava-keepalive");
    assertThat(threads.get(1)).isEqualTo(threads.get(0));
    double seconds = (System.nanoTime() - start) / 1e9;
    assertThat(seconds).as("ping at 0.2 s, dead at 0.5 s").isBetween(0.45, 3.0);
    assertThat(error.get(1, TimeUnit.SECONDS))
        .isInstanceOf(TimeoutException.class)
        .hasMessageContaining("within 300 ms of a ping");
    long tcpClosed = peer.tcpClosedAt.get(5, TimeUnit.SECONDS);
    assertThat((tcpClosed - start) / 1e9).as("TCP closed at once, no close timeout").isLessThan(3.0);
    // RFC 6455 §7.1.7: a close with 1011 goes out if it can, and TCP closes without waiting
    assertThat(peer.frames).containsExactly("ping", "close 1011");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aClosingClientPingsNoMoreAndItsCloseTimeoutStillEndsIt(Transport t) throws Exception {
    Seen peer = startDeadPeer(false);
    client = WebSocketClient.builder()
        .config(WebSocketConfig.builder()
            .transport(t)
            .eventLoops(1)
            .pingInterval(Duration.ofMillis(50))
            .pongTimeout(Duration.ofSeconds(30))
            .closeTimeout(Duration.ofMillis(400))
            .build())
        .build();
    WebSocket ws = client.open(URI.create("ws://127.0.0.1:" + rawPeer.getLocalPort() + "/"));
    // The peer never answers the close; the ping timer falls due meanwhile, more than once.
    CompletableFuture<Void> closed = ws.close();
    closed.get(10, TimeUnit.SECONDS);
    peer.tcpClosedAt.get(5, TimeUnit.SECONDS);
    assertThat(peer.frames).containsExactly("close 1000");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void anIdleTimeoutIsReportedOnTheConnectionsOwnThreadBeforeItsClose(Transport t)
      throws Exception {
    server = WebSocketServer.builder()
        .bind("127.0.0.1", 0)
        .config(WebSocketConfig.builder().transport(t).eventLoops(1).build())
        .websocket("/", new WebSocketListener() {
          @Override
          public void onText(WebSocket ws, String text) {
            ws.sendText(text);
          }
        })
        .start();
    List<String> events = new CopyOnWriteArrayList<>();
    CompletableFuture<Void> closed = new CompletableFuture<>();
    client = WebSocketClient.builder()
        .config(WebSocketConfig.builder()
            .transport(t)
            .eventLoops(1)
            .idleTimeout(Duration.ofMillis(300))
            .build())
        .build();
    WebSocket ws = client
        .connect(URI.create("ws://127.0.0.1:" + server.port() + "/"), new WebSocketListener() {
          @Override
          public void onText(WebSocket ws, String text) {
            events.add("text " + text + " on " + Thread.currentThread().getName());
          }

          @Override
          public void onError(WebSocket ws, Throwable e) {
            events.add(e.getClass().getSimpleName() + " " + e.getMessage() + " on "
                + Thread.currentThread().getName());
          }

          @Override
          public void onClose(WebSocket ws, int code, String reason) {
            events.add("close " + code + " on " + Thread.currentThread().getName());
            closed.complete(null);
          }
        })
        .get(10, TimeUnit.SECONDS);
    ws.sendText("hi");
    closed.get(10, TimeUnit.SECONDS);
    // The echo, the timeout and the close, in that order, all on the connection's I/O thread
    // (its read loop or its event loop), never on a timer's.
    assertThat(events).hasSize(3);
    String thread = events.get(0).substring(events.get(0).indexOf(" on ") + 4);
    assertThat(events).containsExactly(
        "text hi on " + thread,
        "TimeoutException idle timeout: nothing received for 300 ms on " + thread,
        "close 1001 on " + thread);
  }

  /**
   * The client pings only after a whole interval of quiet, and the pong it gets back starts the
   * next interval: on the server, pings come at least an interval apart, and a client pinging at
   * twice the rate fails. The pong timeout is shorter than the interval, so that the timer that
   * watches for the pong cannot pace the pings by itself. The bound leaves 50 ms for a stalled
   * thread; the test waits for pings, not for a time.
   */
  @ParameterizedTest
  @EnumSource(Transport.class)
  void aLivePeerIsPingedOnTheIntervalAndKept(Transport t) throws Exception {
    BlockingQueue<Long> pings = new LinkedBlockingQueue<>();
    server = WebSocketServer.builder()
        .bind("127.0.0.1", 0)
        .config(WebSocketConfig.builder().transport(t).eventLoops(1).build())
        .websocket("/", new WebSocketListener() {
          @Override
          public void onPing(WebSocket ws, ByteBuffer data) {
            pings.add(System.nanoTime());
          }
        })
        .start();
    Duration interval = Duration.ofMillis(300);
    long opened = System.nanoTime();
    WebSocket ws = client(t, interval, Duration.ofMillis(150))
        .open(URI.create("ws://127.0.0.1:" + server.port() + "/"));
    long previous = opened;
    for (int i = 1; i <= 4; i++) {
      Long at = pings.poll(10, TimeUnit.SECONDS);
      assertThat(at).as("ping " + i + " (client open: " + ws.isOpen() + ")").isNotNull();
      assertThat(Duration.ofNanos(at - previous))
          .as("ping " + i + " after the one before (or the opening)")
          .isGreaterThanOrEqualTo(interval.minusMillis(50));
      previous = at;
    }
    assertThat(ws.isOpen()).as("a peer that answers every ping is kept").isTrue();
    ws.close().get(5, TimeUnit.SECONDS);
  }
}
