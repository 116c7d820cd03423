package dev.wsjava.cli.balancer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A real HAProxy (Debian's {@code haproxy}) in TCP mode in front of wsjava nodes, sending each
 * node a PROXY protocol version 2 header ({@code send-proxy-v2}, health checks too), on a free port
 * of a loopback address. A node that refuses connections (killed, or draining: its listener is
 * closed) is taken out by the health check after two refusals (500 ms), and a connect that fails meanwhile is
 * retried on another node ({@code option redispatch}). Runs in the foreground ({@code -db});
 * stopped by its own process id. Thread-safe.
 */
public final class Haproxy extends Balancer {
  private final Path cfg;
  private final int pinnedPort;

  private Haproxy(Process process, String host, int port, Path log, Path cfg, int pinnedPort) {
    super(process, host, port, log);
    this.cfg = cfg;
    this.pinnedPort = pinnedPort;
  }

  /**
   * Returns the port of the listener that always goes to the last node (see {@link #start(Path,
   * String, List, int, boolean, boolean)}), or 0 when there is none.
   *
   * @return the pinned listener's port, or 0
   */
  public int pinnedPort() {
    return pinnedPort;
  }

  /**
   * The configuration: docs/DEPLOYMENT.md shows the same.
   *
   * @param host the address to listen on
   * @param port the port to listen on
   * @param nodePorts the nodes' ports on 127.0.0.1
   * @param maxconn the most client connections at once (HAProxy needs two descriptors each)
   * @return the haproxy.cfg text
   */
  public static String config(String host, int port, List<Integer> nodePorts, int maxconn) {
    return config(host, port, nodePorts, maxconn, true);
  }

  /**
   * The configuration, with or without the PROXY protocol header to the nodes (off for servers
   * that do not read it, such as the Socket.IO nodes of the resilience benchmark); otherwise the
   * same.
   *
   * @param host the address to listen on
   * @param port the port to listen on
   * @param nodePorts the nodes' ports on 127.0.0.1
   * @param maxconn the most client connections at once (HAProxy needs two descriptors each)
   * @param proxyProtocol whether each node (and each health check) gets {@code send-proxy-v2}
   * @return the haproxy.cfg text
   */
  public static String config(String host, int port, List<Integer> nodePorts, int maxconn,
      boolean proxyProtocol) {
    return config(host, port, nodePorts, maxconn, proxyProtocol, 0);
  }

  /**
   * The configuration, and when {@code pinnedPort} is not 0 a second listener on that port that
   * sends every connection to the last node only (no balancing, no check): the resilience
   * benchmark's publisher connects there, so that killing the first node never takes the
   * publisher with it and which node it sits on does not depend on HAProxy's tie-breaking.
   *
   * @param host the address to listen on
   * @param port the port to listen on
   * @param nodePorts the nodes' ports on 127.0.0.1
   * @param maxconn the most client connections at once (HAProxy needs two descriptors each)
   * @param proxyProtocol whether each node (and each health check) gets {@code send-proxy-v2}
   * @param pinnedPort the pinned listener's port, or 0 for none
   * @return the haproxy.cfg text
   */
  public static String config(String host, int port, List<Integer> nodePorts, int maxconn,
      boolean proxyProtocol, int pinnedPort) {
    StringBuilder b = new StringBuilder();
    b.append("global\n  maxconn ").append(maxconn).append('\n');
    b.append("""

        defaults
          mode tcp
          timeout connect 2s
          timeout check 1s
          timeout client 1h
          timeout server 1h
          retries 3
          option redispatch 1

        frontend websocket
        """);
    b.append("  bind ").append(host).append(':').append(port).append('\n');
    b.append("""
          default_backend nodes

        backend nodes
          balance leastconn
        """);
    for (int i = 0; i < nodePorts.size(); i++) {
      b.append("  server node").append(i + 1).append(" 127.0.0.1:").append(nodePorts.get(i))
          .append(proxyProtocol ? " send-proxy-v2 check check-send-proxy" : " check")
          .append(" inter 1s fastinter 250ms fall 2 rise 2 observe layer4 error-limit 1"
              + " on-error mark-down\n");
    }
    if (pinnedPort != 0) {
      b.append("\nlisten pinned\n  bind ").append(host).append(':').append(pinnedPort)
          .append("\n  server last 127.0.0.1:").append(nodePorts.get(nodePorts.size() - 1))
          .append(proxyProtocol ? " send-proxy-v2" : "").append('\n');
    }
    return b.toString();
  }

  /**
   * Starts HAProxy for up to 1,000 clients and waits until it listens.
   *
   * @param dir where its configuration goes
   * @param host the loopback address to listen on, e.g. {@code 127.0.0.1}
   * @param nodePorts the nodes' ports on 127.0.0.1
   * @return the running balancer
   * @throws Exception when it does not start within 20 s
   */
  public static Haproxy start(Path dir, String host, List<Integer> nodePorts) throws Exception {
    return start(dir, host, nodePorts, 1000);
  }

  /**
   * Starts HAProxy for up to {@code maxconn} clients and waits until it listens.
   *
   * @param dir where its configuration goes
   * @param host the loopback address to listen on, e.g. {@code 127.0.0.1}
   * @param nodePorts the nodes' ports on 127.0.0.1
   * @param maxconn the most client connections at once; HAProxy refuses to start when the
   *     process may not open about twice as many files
   * @return the running balancer
   * @throws Exception when it does not start within 20 s
   */
  public static Haproxy start(Path dir, String host, List<Integer> nodePorts, int maxconn)
      throws Exception {
    return start(dir, host, nodePorts, maxconn, true);
  }

  /**
   * Starts HAProxy for up to {@code maxconn} clients, with or without the PROXY protocol header
   * to the nodes, and waits until it listens.
   *
   * @param dir where its configuration goes
   * @param host the loopback address to listen on, e.g. {@code 127.0.0.1}
   * @param nodePorts the nodes' ports on 127.0.0.1
   * @param maxconn the most client connections at once
   * @param proxyProtocol whether the nodes get {@code send-proxy-v2} (they must then require it)
   * @return the running balancer
   * @throws Exception when it does not start within 20 s
   */
  public static Haproxy start(Path dir, String host, List<Integer> nodePorts, int maxconn,
      boolean proxyProtocol) throws Exception {
    return start(dir, host, nodePorts, maxconn, proxyProtocol, false);
  }

  /**
   * Starts HAProxy as {@link #start(Path, String, List, int, boolean)} does, with a second
   * listener pinned to the last node when {@code pinned} is true (its port: {@link
   * #pinnedPort()}).
   *
   * @param dir where its configuration goes
   * @param host the loopback address to listen on, e.g. {@code 127.0.0.1}
   * @param nodePorts the nodes' ports on 127.0.0.1
   * @param maxconn the most client connections at once
   * @param proxyProtocol whether the nodes get {@code send-proxy-v2} (they must then require it)
   * @param pinned whether to add the listener pinned to the last node
   * @return the running balancer
   * @throws Exception when it does not start within 20 s
   */
  public static Haproxy start(Path dir, String host, List<Integer> nodePorts, int maxconn,
      boolean proxyProtocol, boolean pinned) throws Exception {
    int port = Loopback.freePort(host);
    int pinnedPort = pinned ? Loopback.freePort(host) : 0;
    Path cfg = dir.resolve("haproxy.cfg");
    Files.writeString(cfg, config(host, port, nodePorts, maxconn, proxyProtocol, pinnedPort),
        StandardCharsets.UTF_8);
    return start(cfg, host, port, pinnedPort);
  }

  private static Haproxy start(Path cfg, String host, int port, int pinnedPort) throws Exception {
    Path log = cfg.resolveSibling("haproxy.log");
    return new Haproxy(launch(List.of("haproxy", "-db", "-f", cfg.toString()), log, host, port),
        host, port, log, cfg, pinnedPort);
  }

  /**
   * Kills this HAProxy (SIGKILL: every client connection drops) and starts it again with the same
   * configuration on the same port, as a crashed balancer that its supervisor restarts.
   *
   * @return the new process, listening
   * @throws Exception when it does not start within 20 s
   */
  public Haproxy restart() throws Exception {
    close();
    return start(cfg, host(), port(), pinnedPort);
  }

  /**
   * Prints the configuration, for a program that is not Java (the Socket.IO side of the
   * resilience benchmark) to run the same HAProxy: arguments {@code HOST PORT MAXCONN
   * send-proxy-v2|plain [pinned=PORT] NODE_PORT...} ({@code pinned=PORT}: the listener pinned to
   * the last node, see {@link #config(String, int, List, int, boolean, int)}).
   *
   * @param args as said
   */
  public static void main(String[] args) {
    if (args.length < 5 || !List.of("send-proxy-v2", "plain").contains(args[3])) {
      throw new IllegalArgumentException(
          "usage: Haproxy HOST PORT MAXCONN send-proxy-v2|plain [pinned=PORT] NODE_PORT...");
    }
    int first = args[4].startsWith("pinned=") ? 5 : 4;
    int pinned = first == 5 ? Integer.parseInt(args[4].substring("pinned=".length())) : 0;
    List<Integer> nodes = java.util.Arrays.stream(args, first, args.length).map(Integer::valueOf).toList();
    System.out.print(config(args[0], Integer.parseInt(args[1]), nodes, Integer.parseInt(args[2]),
        args[3].equals("send-proxy-v2"), pinned));
  }
}
