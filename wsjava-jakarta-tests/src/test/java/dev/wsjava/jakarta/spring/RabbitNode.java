package dev.wsjava.jakarta.spring;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A RabbitMQ node of the test's own (Debian's rabbitmq-server) with the Web STOMP plugin: its
 * database, logs, cookie, configuration and enabled-plugins file under {@code target/}, its ports
 * free ones on loopback, its name unique. Started by {@link #start}, stopped by {@link #close}
 * (rabbitmqctl stop, then the process tree killed); every wait is bounded.
 */
final class RabbitNode implements AutoCloseable {
  /** The Debian package's server script that runs as the calling user (the one on PATH su's). */
  static final Path SERVER = Path.of("/usr/lib/rabbitmq/bin/rabbitmq-server");
  static final Path CTL = Path.of("/usr/lib/rabbitmq/bin/rabbitmqctl");

  private final Path dir;
  private final Map<String, String> env;
  private final Process process;
  final int stompPort;
  final String node;

  private RabbitNode(Path dir, Map<String, String> env, Process process, int stompPort,
      String node) {
    this.dir = dir;
    this.env = env;
    this.process = process;
    this.stompPort = stompPort;
    this.node = node;
  }

  /** ws://127.0.0.1:PORT/ws, the plugin's default path. */
  String url() {
    return "ws://127.0.0.1:" + stompPort + "/ws";
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  static RabbitNode start(Path base, long timeoutSeconds) throws Exception {
    String node = "wsjava" + ProcessHandle.current().pid() + "x" + System.nanoTime() % 100000
        + "@localhost";
    Path dir = Files.createDirectories(base.resolve(node.replace('@', '-')));
    Files.createDirectories(dir.resolve("mnesia"));
    Files.createDirectories(dir.resolve("log"));
    int amqp = freePort();
    int dist = freePort();
    int stomp = freePort();
    Files.writeString(dir.resolve("rabbitmq.conf"), String.join("\n",
        "listeners.tcp.default = 127.0.0.1:" + amqp,
        "web_stomp.tcp.port = " + stomp,
        "web_stomp.tcp.ip = 127.0.0.1",
        "") );
    Files.writeString(dir.resolve("enabled_plugins"), "[rabbitmq_web_stomp].\n");
    Map<String, String> env = Map.ofEntries(
        Map.entry("HOME", dir.toString()),
        Map.entry("RABBITMQ_NODENAME", node),
        Map.entry("RABBITMQ_NODE_IP_ADDRESS", "127.0.0.1"),
        Map.entry("RABBITMQ_NODE_PORT", Integer.toString(amqp)),
        Map.entry("RABBITMQ_DIST_PORT", Integer.toString(dist)),
        Map.entry("RABBITMQ_MNESIA_BASE", dir.resolve("mnesia").toString()),
        Map.entry("RABBITMQ_LOG_BASE", dir.resolve("log").toString()),
        Map.entry("RABBITMQ_CONFIG_FILE", dir.resolve("rabbitmq.conf").toString()),
        Map.entry("RABBITMQ_ENABLED_PLUGINS_FILE", dir.resolve("enabled_plugins").toString()),
        Map.entry("RABBITMQ_PID_FILE", dir.resolve("rabbit.pid").toString()));
    ProcessBuilder pb = new ProcessBuilder(SERVER.toString()).directory(dir.toFile())
        .redirectErrorStream(true).redirectOutput(dir.resolve("stdout.txt").toFile())
        .redirectInput(ProcessBuilder.Redirect.PIPE);
    pb.environment().putAll(env);
    Process p = pb.start();
    RabbitNode rabbit = new RabbitNode(dir, env, p, stomp, node);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        throw new IllegalStateException("rabbitmq-server exited with " + p.exitValue() + ": "
            + tail(dir.resolve("stdout.txt")));
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", stomp), 200);
        return rabbit;
      } catch (IOException notYet) {
        Thread.sleep(200);
      }
    }
    rabbit.close();
    throw new IllegalStateException("Web STOMP not listening after " + timeoutSeconds + " s: "
        + tail(dir.resolve("stdout.txt")));
  }

  private static String tail(Path file) {
    try {
      List<String> lines = Files.readAllLines(file);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    } catch (IOException e) {
      return "(no output: " + e + ")";
    }
  }

  @Override
  public void close() throws IOException {
    try {
      stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
  }

  private void stop() throws IOException, InterruptedException {
    if (process.isAlive()) {
      ProcessBuilder pb = new ProcessBuilder(CTL.toString(), "-n", node, "stop")
          .redirectErrorStream(true).redirectOutput(dir.resolve("stop.txt").toFile());
      pb.environment().putAll(env);
      Process stop = pb.start();
      if (!stop.waitFor(20, TimeUnit.SECONDS)) {
        stop.destroyForcibly();
      }
      process.waitFor(10, TimeUnit.SECONDS);
    }
    // What the node started (beam, erl_child_setup, inet_gethost; not epmd, which it shares).
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    process.waitFor(5, TimeUnit.SECONDS);
  }
}
