package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A server that runs out of file descriptors keeps serving and recovers by itself: it is started
 * in a child process under {@code ulimit -n} ({@link DescriptorLimitServer}), pushed past the
 * limit by idle TCP connections, and relieved by closing them. Throughout, a WebSocket opened
 * before the flood keeps echoing; while descriptors are exhausted, the child's own client connect
 * fails with an error that says so; once relieved, a connection that waited in the backlog is
 * accepted and echoes, without anything restarting the server. The episode is counted once,
 * logged once (paused, then resumed).
 */
class DescriptorExhaustionTest {
  /** The child's descriptor limit: its JVM needs some 40-80; the rest go to the flood. */
  static final int LIMIT = 256;

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void serverOutOfDescriptorsPausesAcceptingKeepsServingAndResumes(Transport transport)
      throws Exception {
    long started = System.nanoTime();
    Path stderr = Files.createTempFile("wsjava-fd-child", ".err");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = location(DescriptorLimitServer.class) + File.pathSeparator + location(WebSocketServer.class);
    Process child = new ProcessBuilder("bash", "-c",
        "ulimit -n " + LIMIT + " && exec \"$0\" -Xmx256m -cp \"$1\" dev.wsjava.DescriptorLimitServer \"$2\"",
        java, cp, transport.name())
        .redirectError(stderr.toFile())
        .start();
    List<Socket> flood = new ArrayList<>();
    try (WebSocketClient client = WebSocketClient.builder().build();
        BufferedReader out = child.inputReader(StandardCharsets.US_ASCII);
        PrintWriter in = new PrintWriter(child.getOutputStream(), true, StandardCharsets.US_ASCII)) {
      String[] hello = line(out, "PORT");
      int port = Integer.parseInt(hello[1]);
      assertThat(String.join(" ", hello)).as("the child's first connect").endsWith("CONNECT ok");
      URI uri = URI.create("ws://127.0.0.1:" + port + "/echo");
      BlockingQueue<String> echoes = new LinkedBlockingQueue<>();
      WebSocket established = client.connect(uri, collector(echoes)).get(10, TimeUnit.SECONDS);
      echo(established, echoes, "before");

      // Push the child past its limit: idle connections it accepts until accept fails.
      long exhaustions = 0;
      for (int batch = 0; exhaustions == 0; batch++) {
        assertThat(batch).as("batches of 32 connections before the child ran out").isLessThan(20);
        for (int i = 0; i < 32; i++) {
          Socket s = new Socket();
          s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
          flood.add(s);
        }
        // Either the child accepts them all, or it runs out on the way.
        int sent = flood.size();
        exhaustions = awaitStats(in, out, Duration.ofSeconds(5), s -> s[0] > 0 || s[1] >= sent)[0];
      }
      int flooded = flood.size();
      // A WebSocket that must wait in the backlog until descriptors come back.
      BlockingQueue<String> lateEchoes = new LinkedBlockingQueue<>();
      CompletableFuture<WebSocket> late = client.connect(uri, collector(lateEchoes));

      // Exhausted: the established connection is still served, and a client connect says why it fails.
      for (int i = 0; i < 20; i++) {
        echo(established, echoes, "during " + i);
      }
      in.println("CONNECT");
      String connect = String.join(" ", line(out, "CONNECT"));
      assertThat(connect).contains("no file descriptor left").contains("Too many open files");
      assertThat(late).as("a connection while the server cannot accept").isNotDone();
      assertThat(child.isAlive()).isTrue();

      // Relief: the flood leaves; accepting resumes by itself.
      for (Socket s : flood) {
        s.close();
      }
      flood.clear();
      WebSocket resumed = late.get(15, TimeUnit.SECONDS);
      echo(resumed, lateEchoes, "after");
      echo(established, echoes, "after");
      in.println("CONNECT");
      assertThat(String.join(" ", line(out, "CONNECT"))).isEqualTo("CONNECT ok");
      long[] stats = awaitStats(in, out, Duration.ZERO, s -> true);
      in.println("QUIT");
      line(out, "BYE");
      assertThat(child.waitFor(15, TimeUnit.SECONDS)).isTrue();
      assertThat(child.exitValue()).isZero();

      String log = Files.readString(stderr);
      long paused = log.lines().filter(l -> l.contains("paused: ")).count();
      long resumedLines = log.lines().filter(l -> l.contains("resumed after")).count();
      System.out.printf("[%s] descriptor exhaustion: %d episode(s), %d connections flooded, log lines paused=%d "
          + "resumed=%d, test took %d ms%n", transport, stats[0], flooded, paused, resumedLines,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      assertThat(stats[0]).as("episodes counted").isGreaterThanOrEqualTo(1);
      assertThat(paused).as("one 'paused' line per episode, not one per failed accept:\n" + log)
          .isEqualTo(stats[0]);
      assertThat(log).contains("Too many open files");
    } finally {
      for (Socket s : flood) {
        s.close();
      }
      child.destroyForcibly();
      child.waitFor(10, TimeUnit.SECONDS);
      Files.deleteIfExists(stderr);
    }
  }

  /**
   * Asks the child for its stats ({exhaustions, open connections}) until they satisfy {@code done}
   * or {@code within} passed.
   */
  private static long[] awaitStats(PrintWriter in, BufferedReader out, Duration within,
      java.util.function.Predicate<long[]> done) throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      in.println("STATS");
      String[] s = line(out, "STATS");
      long[] stats = {Long.parseLong(s[1]), Long.parseLong(s[2])};
      if (done.test(stats) || System.nanoTime() - deadline >= 0) {
        return stats;
      }
      Thread.sleep(50);
    }
  }

  private static void echo(WebSocket ws, BlockingQueue<String> echoes, String text) throws Exception {
    ws.sendText(text);
    assertThat(echoes.poll(5, TimeUnit.SECONDS)).as("echo of '" + text + "'").isEqualTo(text);
  }

  private static WebSocketListener collector(BlockingQueue<String> into) {
    return new WebSocketListener() {
      @Override
      public void onText(WebSocket ws, String text) {
        into.add(text);
      }
    };
  }

  private static String[] line(BufferedReader out, String word) throws Exception {
    return HardeningTest.expectLine(out, word);
  }

  private static String location(Class<?> c) throws Exception {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }
}
