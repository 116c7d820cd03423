package dev.wsjava.bench.e2e;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The simulated LAN of scenarios 1n-3n: two network namespaces, one for the server and one for the
 * client, joined by a veth pair whose two ends are each shaped by a queueing discipline: netem
 * with {@link #DELAY_US} µs of delay and a rate of {@link #RATE} where the kernel has netem, else a
 * token bucket (tbf) at the same rate and no added delay (the report says which). The addresses
 * exist only inside the namespaces. Set up by the suite, torn down by it (and by a shutdown hook
 * if the suite dies first). Needs root.
 */
final class SimulatedLan implements AutoCloseable {
  /** Delay added in each direction, when netem is there. */
  static final int DELAY_US = 500;
  /** The link's rate each way. */
  static final String RATE = "1gbit";
  /** The server's address, inside its namespace. */
  static final String SERVER_ADDRESS = "10.241.28.1";
  /** The client's address, inside its namespace. */
  static final String CLIENT_ADDRESS = "10.241.28.2";

  private final String serverNs;
  private final String clientNs;
  private final String shaping;
  private final Thread hook;
  private boolean closed;

  private SimulatedLan(String serverNs, String clientNs, String shaping) {
    this.serverNs = serverNs;
    this.clientNs = clientNs;
    this.shaping = shaping;
    this.hook = new Thread(this::teardown, "lan-teardown");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /**
   * Sets the namespaces and the link up.
   *
   * @return the LAN
   * @throws IOException when a command fails (not root, no veth); what was set up is removed
   */
  static SimulatedLan up() throws IOException {
    String tag = Long.toString(ProcessHandle.current().pid());
    String s = "wsjb" + tag + "s";
    String c = "wsjb" + tag + "c";
    List<String> done = new ArrayList<>();
    try {
      ip("netns", "add", s);
      done.add(s);
      ip("netns", "add", c);
      done.add(c);
      ip("link", "add", s, "type", "veth", "peer", "name", c);
      ip("link", "set", s, "netns", s);
      ip("link", "set", c, "netns", c);
      for (String[] end : new String[][] {{s, SERVER_ADDRESS}, {c, CLIENT_ADDRESS}}) {
        in(end[0], "ip", "link", "set", "lo", "up");
        in(end[0], "ip", "addr", "add", end[1] + "/30", "dev", end[0]);
        in(end[0], "ip", "link", "set", end[0], "up");
      }
      String shaping;
      try {
        for (String ns : new String[] {s, c}) {
          in(ns, "tc", "qdisc", "add", "dev", ns, "root", "netem", "delay", DELAY_US + "us", "rate", RATE,
              "limit", "100000");
        }
        shaping = "netem: " + DELAY_US + " µs delay each way (" + 2 * DELAY_US / 1000.0
            + " ms round trip added), " + RATE + "/s each way";
      } catch (IOException noNetem) {
        for (String ns : new String[] {s, c}) {
          in(ns, "tc", "qdisc", "add", "dev", ns, "root", "tbf", "rate", RATE, "burst", "256kb",
              "latency", "20ms");
        }
        shaping = "**no added delay**: this kernel has no netem (`tc qdisc ... netem` answers"
            + " \"Specified qdisc kind is unknown\", CONFIG_NET_SCH_NETEM is not set), so the link"
            + " is shaped to " + RATE + "/s each way by tbf (burst 256 KiB) only: a real veth"
            + " path between two network stacks at LAN speed, without a LAN's round trip";
      }
      return new SimulatedLan(s, c, shaping);
    } catch (IOException e) {
      for (String ns : done) {
        quietly("ip", "netns", "del", ns);
      }
      throw e;
    }
  }

  /**
   * What shapes the link, for the report.
   *
   * @return the shaping, in words
   */
  String shaping() {
    return shaping;
  }

  /**
   * Wraps a command to run in the server's namespace.
   *
   * @param cmd the command
   * @return {@code ip netns exec NS cmd...} (ip execs in place: the process id stays the command's)
   */
  List<String> server(List<String> cmd) {
    return wrap(serverNs, cmd);
  }

  /**
   * Wraps a command to run in the client's namespace.
   *
   * @param cmd the command
   * @return {@code ip netns exec NS cmd...}
   */
  List<String> client(List<String> cmd) {
    return wrap(clientNs, cmd);
  }

  private static List<String> wrap(String ns, List<String> cmd) {
    List<String> out = new ArrayList<>(List.of("ip", "netns", "exec", ns));
    out.addAll(cmd);
    return out;
  }

  @Override
  public void close() {
    teardown();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway
    }
  }

  private synchronized void teardown() {
    if (!closed) {
      closed = true;
      quietly("ip", "netns", "del", serverNs); // takes its end of the veth pair, and so the pair
      quietly("ip", "netns", "del", clientNs);
    }
  }

  private static void ip(String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of("ip"));
    cmd.addAll(List.of(args));
    ServerProcess.run(cmd);
  }

  private static void in(String ns, String... cmd) throws IOException {
    ServerProcess.run(wrap(ns, List.of(cmd)));
  }

  private static void quietly(String... cmd) {
    try {
      ServerProcess.run(List.of(cmd));
    } catch (IOException ignored) {
      // already gone
    }
  }
}
