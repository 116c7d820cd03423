package dev.wsjava.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real HAProxy (Debian's haproxy) of a test's own: round robin over the given loopback ports
 * on a free one, checking its servers every 100 ms, so a dead node is taken out at once and a
 * connection to it is sent to another ({@code option redispatch}). A minimal start for the
 * recovery tests; the deployment tests have a fuller one.
 */
final class Haproxy implements AutoCloseable {
  final int port;
  private final Process process;

  Haproxy(List<Integer> servers) throws Exception {
    port = freePort();
    StringBuilder cfg = new StringBuilder()
        .append("global\n  maxconn 1000\n")
        .append("defaults\n  mode tcp\n  timeout connect 1s\n  timeout client 1h\n")
        .append("  timeout server 1h\n  retries 3\n  option redispatch\n")
        .append("frontend in\n  bind 127.0.0.1:").append(port).append("\n  default_backend nodes\n")
        .append("backend nodes\n  balance roundrobin\n");
    for (int i = 0; i < servers.size(); i++) {
      cfg.append("  server n").append(i).append(" 127.0.0.1:").append(servers.get(i))
          .append(" check inter 100ms fall 1 rise 2\n");
    }
    Path dir = Files.createDirectories(Path.of("target", "haproxy"));
    Path file = Files.createTempFile(dir, "haproxy", ".cfg");
    Files.writeString(file, cfg);
    String program = Files.isExecutable(Path.of("/usr/sbin/haproxy")) ? "/usr/sbin/haproxy" : "haproxy";
    process = new ProcessBuilder(program, "-db", "-f", file.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve(file.getFileName() + ".log").toFile())
        .start();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (true) {
      try {
        new Socket(InetAddress.getLoopbackAddress(), port).close();
        return;
      } catch (IOException notYet) {
        if (!process.isAlive() || System.nanoTime() > end) {
          process.destroyForcibly();
          throw new IllegalStateException("haproxy did not start; see " + file + ".log");
        }
        Thread.sleep(20);
      }
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
