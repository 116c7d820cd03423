package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.wsjava.cli.balancer.Balancer;
import dev.wsjava.cli.balancer.Haproxy;
import dev.wsjava.cli.balancer.Nginx;
import dev.wsjava.cli.balancer.ServeNode;
import dev.wsjava.cluster.redis.RedisProcess;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code wsjava serve --cluster redis://... --history N} nodes behind a real HAProxy
 * ({@code send-proxy-v2}) and, in turn, a real nginx ({@code X-Forwarded-For}, trusted proxy
 * 127.0.0.1). Clients connect through the balancer, each from a loopback address of its own
 * (127.0.0.2x), and read the chat room while a publisher on the third node posts messages; one node
 * is killed with SIGKILL, another drained with SIGTERM (1012, spread). Every client must end up on
 * the surviving node with every message exactly once and in order (coming back with {@code
 * ?last=ID}, today's single-topic history), and the nodes' logs must show each client's own
 * address (and with HAProxy its port), not the balancer's.
 */
class BehindRealBalancersTest {
  static final int RECEIVERS = 6;
  static final int MESSAGES = 200;

  @TempDir Path dir;

  @Test
  void threeNodesBehindHaproxyWithProxyProtocolV2() {
    assertTimeoutPreemptively(Duration.ofSeconds(150), () -> scenario(true));
  }

  @Test
  void threeNodesBehindNginxWithXForwardedFor() {
    assertTimeoutPreemptively(Duration.ofSeconds(150), () -> scenario(false));
  }

  private void scenario(boolean haproxy) throws Exception {
    try (RedisProcess redis = new RedisProcess()) {
      List<String> options = new ArrayList<>(List.of("--cluster", redis.uri(), "--history", "10000",
          "--log-connections", "--drain-window", "2s"));
      options.addAll(haproxy ? List.of("--proxy-protocol") : List.of("--trusted-proxy", "127.0.0.1"));
      List<CompletableFuture<ServeNode>> starting = IntStream.rangeClosed(1, 3)
          .mapToObj(i -> CompletableFuture.supplyAsync(() -> {
            try {
              return ServeNode.start("node" + i, options);
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          }))
          .toList();
      List<ServeNode> nodes = starting.stream().map(CompletableFuture::join).toList();
      try {
        List<Integer> ports = nodes.stream().map(ServeNode::port).toList();
        Path home = Files.createDirectories(dir.resolve(haproxy ? "haproxy" : "nginx"));
        try (Balancer balancer = haproxy
                ? Haproxy.start(home, "127.0.0.1", ports)
                : Nginx.start(home, "127.0.0.1", ports)) {
          run(haproxy, nodes, new InetSocketAddress(balancer.host(), balancer.port()));
        }
      } finally {
        nodes.forEach(ServeNode::close);
      }
    }
  }

  private void run(boolean haproxy, List<ServeNode> nodes, InetSocketAddress balancer)
      throws Exception {
    List<Receiver> receivers = new ArrayList<>();
    List<CompletableFuture<Void>> done = new ArrayList<>();
    for (int i = 0; i < RECEIVERS; i++) {
      Receiver r = new Receiver("127.0.0." + (20 + i), "r" + i, balancer);
      receivers.add(r);
      done.add(CompletableFuture.runAsync(r, command -> Thread.ofPlatform().daemon().start(command)));
    }
    Await.until(() -> receivers.stream().allMatch(r -> r.joined), Duration.ofSeconds(30));

    ServeNode killed = nodes.get(0);
    ServeNode drained = nodes.get(1);
    ServeNode survivor = nodes.get(2);
    // Each node serves some of the clients (the balancers pick the least loaded).
    for (ServeNode n : List.of(killed, drained)) {
      assertThat(n.lines().stream().anyMatch(l -> l.contains("upgrade /chat from 127.0.0.2")))
          .as(n.name() + " serves clients: " + n.lines()).isTrue();
    }

    // The publisher talks to the surviving node itself (with a PROXY header of its own where the
    // node requires one), so that what it sent is never lost with a node.
    Socket publisher = new Socket("127.0.0.1", survivor.port());
    publisher.setSoTimeout(30_000);
    OutputStream out = publisher.getOutputStream();
    out.write(((haproxy ? "PROXY TCP4 127.0.0.9 127.0.0.1 9999 80\r\n" : "")
        + "GET /chat?nick=pub HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    assertThat(RawWebSocket.readHead(publisher.getInputStream())).startsWith("HTTP/1.1 101");
    // The nodes subscribe to the room as its first member joins: say hello until all hear it.
    for (int k = 0; k < 150 && !receivers.stream().allMatch(r -> r.warm); k++) {
      Receiver.masked(out, 1, ("hello " + k).getBytes(StandardCharsets.UTF_8));
      Thread.sleep(200);
    }
    assertThat(receivers).allMatch(r -> r.warm, "hears the publisher");
    for (int m = 1; m <= MESSAGES; m++) {
      Receiver.masked(out, 1, ("m" + m).getBytes(StandardCharsets.UTF_8));
      if (m == MESSAGES / 3) {
        killed.kill(); // SIGKILL while messages flow
      } else if (m == 2 * MESSAGES / 3) {
        drained.terminate(); // SIGTERM: 1012 spread over 2 s
      }
      Thread.sleep(15);
    }
    // 143: the JVM's status after SIGTERM once its shutdown hook (the drain) has run
    assertThat(drained.awaitExit(Duration.ofSeconds(30))).as("drained, then exited").isEqualTo(143);
    Await.until(() -> receivers.stream().allMatch(r -> r.bodies.size() >= MESSAGES && r.connected),
        Duration.ofSeconds(60));
    receivers.forEach(Receiver::stop);
    CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

    List<String> expected = IntStream.rangeClosed(1, MESSAGES).mapToObj(m -> "pub: m" + m).toList();
    List<Integer> codes = new ArrayList<>();
    for (Receiver r : receivers) {
      assertThat(r.bodies).as(r.nick + " got every message once, in order").isEqualTo(expected);
      codes.addAll(r.closeCodes);
      // The nodes saw the client's own address: with HAProxy its port too (the PROXY header),
      // with nginx its address (X-Forwarded-For carries no port).
      for (int localPort : r.localPorts) {
        String from = "upgrade /chat from " + r.source + ":" + (haproxy ? localPort : 0);
        assertThat(nodes.stream().anyMatch(n -> n.lines().contains("wsjava serve: " + from)))
            .as(from).isTrue();
      }
      String last = "wsjava serve: upgrade /chat from " + r.source + ":"
          + (haproxy ? r.localPorts.get(r.localPorts.size() - 1) : 0);
      assertThat(survivor.lines()).as(r.nick + " ends on the surviving node").contains(last);
    }
    assertThat(codes).as("the drained node's clients got 1012, the killed one's lost theirs")
        .contains(1012, 1006);
    assertThat(drained.awaitLine(l -> l.startsWith("wsjava serve: draining, closing "),
        Duration.ofSeconds(10))).as(String.join("\n", drained.lines())).isTrue();
    publisher.close();
  }

  /** A client by hand over a socket bound to a loopback address of its own; reconnects with ?last. */
  static final class Receiver implements Runnable {
    final String source;
    final String nick;
    final InetSocketAddress balancer;
    final List<String> bodies = new CopyOnWriteArrayList<>();
    final List<Integer> closeCodes = new CopyOnWriteArrayList<>();
    final List<Integer> localPorts = new CopyOnWriteArrayList<>();
    volatile boolean joined;
    volatile boolean warm;
    /** Between a 101 and the connection's end. */
    volatile boolean connected;
    private volatile boolean stopped;
    private volatile Socket current;
    private String lastId;

    Receiver(String source, String nick, InetSocketAddress balancer) {
      this.source = source;
      this.nick = nick;
      this.balancer = balancer;
    }

    /** Ends the reading: closes the connection; the receiver does not come back. */
    void stop() {
      stopped = true;
      Socket s = current;
      if (s != null) {
        try {
          s.close();
        } catch (IOException ignored) {
          // closing
        }
      }
    }

    @Override
    public void run() {
      for (int attempt = 0; attempt < 300 && !stopped; attempt++) {
        try (Socket s = new Socket()) {
          current = s;
          if (stopped) {
            return;
          }
          s.bind(new InetSocketAddress(source, 0));
          s.connect(balancer, 5_000);
          s.setSoTimeout(60_000);
          if (session(s)) {
            continue;
          }
        } catch (IOException e) {
          if (!stopped) {
            closeCodes.add(1006);
          }
        } finally {
          connected = false;
        }
        try {
          Thread.sleep(50 + ThreadLocalRandom.current().nextInt(100)); // jitter
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    /**
     * One connection: the handshake, then messages until a close (true) or the end of the stream
     * or a refused handshake (false, or an exception).
     */
    private boolean session(Socket s) throws IOException {
      OutputStream out = s.getOutputStream();
      String target = "/chat?nick=" + nick + (lastId != null ? "&last=" + lastId : "");
      out.write(("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
          + "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
          + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      DataInputStream in = new DataInputStream(s.getInputStream());
      String head = RawWebSocket.readHead(in);
      if (!head.startsWith("HTTP/1.1 101")) {
        return false;
      }
      localPorts.add(s.getLocalPort());
      connected = true;
      while (true) {
        RawWebSocket.Frame f = RawWebSocket.read(in);
        switch (f.opcode()) {
          case 1 -> received(new String(f.payload(), StandardCharsets.UTF_8));
          case 8 -> {
            int code = f.payload().length >= 2
                ? ((f.payload()[0] & 0xff) << 8) | (f.payload()[1] & 0xff) : 1005;
            closeCodes.add(code);
            masked(out, 8, f.payload().length >= 2 ? new byte[] {f.payload()[0], f.payload()[1]}
                : new byte[0]);
            return true;
          }
          case 9 -> masked(out, 10, f.payload());
          default -> {}
        }
      }
    }

    /** "ID chat\nBODY": remember the id; keep the publisher's bodies. */
    private void received(String text) {
      int space = text.indexOf(' ');
      int newline = text.indexOf('\n');
      if (space < 0 || newline < 0) {
        bodies.add("unexpected: " + text);
        return;
      }
      String id = text.substring(0, space);
      String body = text.substring(newline + 1);
      if (id.equals("-")) {
        bodies.add("gap"); // the history lost what was missed: fails the test
        return;
      }
      lastId = id;
      if (body.startsWith("pub: m")) {
        bodies.add(body);
      } else if (body.startsWith("pub: hello")) {
        warm = true;
      } else if (body.startsWith("* " + nick + " joined")) {
        joined = true;
      }
    }

    /** A client's frame: masked, with a zero key (the test reads nothing into the mask). */
    static void masked(OutputStream out, int opcode, byte[] payload) throws IOException {
      byte[] frame = new byte[6 + payload.length];
      frame[0] = (byte) (0x80 | opcode);
      frame[1] = (byte) (0x80 | payload.length); // control frames: at most 125 bytes
      System.arraycopy(payload, 0, frame, 6, payload.length);
      out.write(frame);
      out.flush();
    }
  }

  /** Bounded waiting in tests. */
  static final class Await {
    static void until(java.util.function.BooleanSupplier condition, Duration max)
        throws InterruptedException {
      long deadline = System.nanoTime() + max.toNanos();
      while (!condition.getAsBoolean()) {
        if (System.nanoTime() - deadline > 0) {
          throw new AssertionError("not within " + max);
        }
        Thread.sleep(20);
      }
    }
  }
}
