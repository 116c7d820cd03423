package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class LoadCommandTest {

  @ParameterizedTest
  @ValueSource(strings = {"--binary", "--text"})
  void countModeAgainstTheEchoServerChecksEveryEchoAndFindsNoError(String type) throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0")) {
      Cli.Result r = Cli.run("", "load", "ws://127.0.0.1:" + server.port() + "/echo", type,
          "--count", "3000", "--connections", "3", "--in-flight", "4", "--size", "300", "--json");
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(number(r.out(), "messages")).isEqualTo(3000);
      assertThat(number(r.out(), "errorTotal")).isZero();
      assertThat(number(r.out(), "payloadBytesBothWays")).isEqualTo(3000L * 300 * 2);
      assertThat(r.out()).contains("\"type\":\"" + type.substring(2) + "\"", "\"p99\":");
    }
  }

  @Test
  void durationModeWithDeflateAndWarmupPrintsTheSummary() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--transport", "blocking")) {
      Cli.Result r = Cli.run("", "load", "ws://127.0.0.1:" + server.port() + "/echo",
          "--duration", "1s", "--warmup", "200ms", "--deflate", "--size", "5", "--progress",
          "--transport", "blocking", "--connections", "2");
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(r.out()).contains("2 connection(s)", "deflate offered", "messages/s", "MB/s",
          "p99.9", "errors    none");
      assertThat(r.stderr()).contains("messages/s");
    }
  }

  /**
   * A server that mangles some echoes on purpose: message 3 with a flipped byte, message 5
   * dropped, message 8 cut short, message 11 sent twice. Each is counted by its kind.
   */
  @Test
  void aCorruptingServerIsReportedByKindAndTheExitStatusIsOne() throws Exception {
    try (CorruptingEchoServer server = new CorruptingEchoServer(Map.<Integer, Mangle>of(
        3, p -> {
          p[20] ^= 0x40;
          return new byte[][] {p};
        },
        5, p -> new byte[0][],
        8, p -> new byte[][] {Arrays.copyOf(p, p.length - 1)},
        11, p -> new byte[][] {p, p}))) {
      Cli.Result r = Cli.run("", "load", "ws://127.0.0.1:" + server.port() + "/",
          "--count", "20", "--in-flight", "4", "--size", "64", "--json", "--drain-timeout", "2s");
      assertThat(r.exit()).as(r.toString()).isEqualTo(1);
      assertThat(number(r.out(), "content")).isEqualTo(1);
      assertThat(number(r.out(), "lost")).isEqualTo(1);
      assertThat(number(r.out(), "length")).isEqualTo(1);
      assertThat(number(r.out(), "extra")).isEqualTo(1);
      assertThat(number(r.out(), "errorTotal")).isEqualTo(4);
      assertThat(number(r.out(), "messages")).isEqualTo(17);
      assertThat(r.out()).contains("byte 20 differs", "messages 5 to 5 skipped");
    }
  }

  @Test
  void aServerThatStopsAnsweringEndsTheRunWithTimeouts() throws Exception {
    Mangle drop = p -> new byte[0][];
    try (CorruptingEchoServer server = new CorruptingEchoServer(Map.of(2, drop))) {
      Cli.Result r = Cli.run("", "load", "ws://127.0.0.1:" + server.port() + "/",
          "--count", "10", "--in-flight", "1", "--size", "16", "--drain-timeout", "1s");
      assertThat(r.exit()).as(r.toString()).isEqualTo(1);
      assertThat(r.out()).contains("timeout  1", "still unanswered at the end");
    }
  }

  @Test
  void anUnreachableServerCountsConnectErrors() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Cli.Result r = Cli.run("", "load", "ws://127.0.0.1:" + port + "/", "--count", "5", "-c", "2", "--json");
    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    assertThat(number(r.out(), "connect")).isEqualTo(2);
  }

  @Test
  void socketBuffersOnBothEndsLeaveTheEchoesIntact() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--sndbuf", "32k", "--rcvbuf", "32k")) {
      Cli.Result r = Cli.run("", "load", "ws://127.0.0.1:" + server.port() + "/echo",
          "--sndbuf", "16k", "--rcvbuf", "64k", "--count", "200", "--in-flight", "8", "--size", "20k");
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(r.out()).contains("socket buffers 16k send, 64k receive", "errors    none");
    }
  }

  @Test
  void everyConnectionGoesThroughTheProxy() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0");
        ConnectProxy proxy = new ConnectProxy()) {
      Cli.Result r = Cli.run("", "load", "ws://127.0.0.1:" + server.port() + "/echo",
          "--proxy", "http://127.0.0.1:" + proxy.port(), "-c", "3", "--count", "30", "--json");
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(number(r.out(), "messages")).isEqualTo(30);
      assertThat(proxy.tunnels()).hasSize(3).containsOnly("127.0.0.1:" + server.port());
    }
  }

  @Test
  void contradictoryOptionsAreUsageErrors() {
    Cli.Result both = Cli.run("", "load", "ws://127.0.0.1:1/", "--count", "5", "--duration", "1s");
    assertThat(both.exit()).isEqualTo(2);
    assertThat(both.stderr()).contains("give --count or --duration, not both");
    Cli.Result types = Cli.run("", "load", "ws://127.0.0.1:1/", "--text", "--binary");
    assertThat(types.exit()).isEqualTo(2);
    Cli.Result size = Cli.run("", "load", "ws://127.0.0.1:1/", "--size", "12q");
    assertThat(size.exit()).isEqualTo(2);
    assertThat(size.stderr()).contains("'12q' is not a size");
    Cli.Result buffer = Cli.run("", "load", "ws://127.0.0.1:1/", "--sndbuf", "3g");
    assertThat(buffer.exit()).isEqualTo(2);
    assertThat(buffer.stderr()).contains("--sndbuf and --rcvbuf must be below 2g");
  }

  /** What a corrupting server sends instead of one echo: nothing, a changed copy, or several. */
  @FunctionalInterface
  private interface Mangle {
    byte[][] apply(byte[] payload);
  }

  private static long number(String json, String key) {
    Matcher m = Pattern.compile("\"" + key + "\":(-?\\d+)").matcher(json);
    assertThat(m.find()).as(key + " in " + json).isTrue();
    return Long.parseLong(m.group(1));
  }

  /**
   * An echo server written by hand that answers pings, echoes each data frame, and hands the
   * messages named in {@code mangle} (by their 0-based number on the connection) to a function
   * that returns what to send instead: nothing, a changed copy, or several.
   */
  private static final class CorruptingEchoServer implements AutoCloseable {
    private final Map<Integer, Mangle> mangle;
    private final LoopbackServer server;

    CorruptingEchoServer(Map<Integer, Mangle> mangle) throws IOException {
      this.mangle = mangle;
      this.server = new LoopbackServer(this::serve);
    }

    int port() {
      return server.port();
    }

    private void serve(Socket s) throws IOException {
      RawWebSocket.accept(s);
      DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
      OutputStream out = s.getOutputStream();
      int n = 0;
      while (true) {
        RawWebSocket.Frame f = RawWebSocket.read(in);
        switch (f.opcode()) {
          case 0x8 -> {
            RawWebSocket.write(out, 0x8, f.payload());
            return;
          }
          case 0x9 -> RawWebSocket.write(out, 0xA, f.payload());
          case 0x1, 0x2 -> {
            Mangle rule = mangle.get(n++);
            byte[][] replies = rule == null ? new byte[][] {f.payload()} : rule.apply(f.payload().clone());
            for (byte[] reply : replies) {
              RawWebSocket.write(out, f.opcode(), reply);
            }
          }
          default -> { }
        }
      }
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }
}
