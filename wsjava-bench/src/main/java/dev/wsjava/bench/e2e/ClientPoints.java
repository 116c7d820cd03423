package dev.wsjava.bench.e2e;

import dev.wsjava.bench.peer.ClientBench;
import dev.wsjava.bench.peer.Workload;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The client side: scenario 8 (each client library's echoes) and scenario 10 (its connects), each
 * client in its own process against a fresh fixed server, the Netty peer: the most used JVM
 * WebSocket server and not ours. Point by point like the server scenarios (every client's latency,
 * then every client's 300 B, and so on), so that the figures a ratio compares were measured
 * minutes apart rather than a whole client's turn apart.
 */
final class ClientPoints {
  /** The fixed server. */
  static final String FIXED = "netty";

  private final Suite suite;
  private final Results results;
  private final Launcher launcher;

  ClientPoints(Suite suite) {
    this.suite = suite;
    this.results = suite.results;
    this.launcher = suite.launcher;
  }

  /**
   * Scenario 8.
   *
   * @param order the clients in this run's order
   */
  void scenario8(List<String> order) {
    for (Workload w : List.of(Workload.LATENCY, Workload.SMALL, Workload.LARGE_64K, Workload.LARGE_1M)) {
      suite.log("scenario 8, " + w.id() + ": client drivers against " + FIXED);
      for (Peers.Client c : clients(order, "8")) {
        results.cell("8", c.name());
        try (Launcher.Started server = launcher.startServer(Peers.server(FIXED), Launcher.Mode.PLAIN,
            "s8-" + c.name() + "-" + w.id())) {
          List<String> args = new ArrayList<>(c.preArgs());
          args.addAll(c.module() == null
              ? List.of("--port", Integer.toString(server.port()))
              : List.of("--url", "ws://127.0.0.1:" + server.port() + "/echo"));
          args.addAll(List.of("--workloads", w.id(), "--warmup-ms", Long.toString(suite.warmupMs()),
              "--measure-ms", Long.toString(suite.measureMs()),
              "--server-pid", Long.toString(server.process().pid())));
          List<String> jvm = launcher.jvm(c.module(), c.mainClass(), args);
          jvm.addAll(1, Peers.tuningFlags(c.name())); // a tuning variant's overrides, if any
          List<String> cmd = launcher.pinned(1, jvm);
          boolean probe = !suite.contract.containsKey("client " + c.name());
          List<String> lines = probe ? runProbed(cmd, c, w, server.port())
              : launcher.runClient(cmd, "client-" + c.name() + "-" + w.id(), suite.budget(1));
          Map<String, String> r = suite.resultOf(lines, w.id(), "8", c.name());
          if (r != null) {
            file(c.name(), w, r);
          }
        } catch (IOException e) {
          results.fail("8", c.name(), w.id() + ": " + e.getMessage());
        }
      }
    }
  }

  /**
   * Runs a client's first point while reading TCP_NODELAY on its end of the connection, for the
   * targets table.
   */
  private List<String> runProbed(List<String> cmd, Peers.Client c, Workload w, int serverPort)
      throws IOException {
    try (ServerProcess client = launcher.startClient(cmd, "client-" + c.name() + "-" + w.id())) {
      String verdict = "TCP_NODELAY unknown: no connection seen";
      long deadline = System.nanoTime() + (suite.warmupMs() + 5000) * 1_000_000L;
      while (System.nanoTime() < deadline && client.isAlive()) {
        try {
          List<SocketProbe.Socket> found = SocketProbe.read(SocketProbe.script(launcher.root()),
              client.pid(), serverPort);
          if (!found.isEmpty()) {
            boolean on = found.stream().allMatch(SocketProbe.Socket::noDelay);
            verdict = on ? "TCP_NODELAY on" : "**TCP_NODELAY off**";
            break;
          }
          Thread.sleep(200);
        } catch (IOException e) {
          verdict = "TCP_NODELAY unknown: " + e.getMessage();
          break;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      suite.contract.put("client " + c.name(), verdict);
      return client.linesUntilExit(suite.budget(1), dev.wsjava.bench.peer.ResultLine.RESULT,
          dev.wsjava.bench.peer.ResultLine.ERROR);
    }
  }

  private void file(String client, Workload w, Map<String, String> r) {
    switch (w.id()) {
      case "latency" -> {
        results.add("8", client, "lat_p50_us", Suite.num(r, "p50_us"));
        results.add("8", client, "lat_p99_us", Suite.num(r, "p99_us"));
        cpu(client, r, "server_cpu_lat_us", "client_cpu_lat_us", 1);
      }
      case "small" -> {
        results.add("8", client, "small_msgs_per_s", Suite.num(r, "msgs_per_s"));
        cpu(client, r, "server_cpu_small_us", "small_cpu_us", 1);
      }
      case "large64k", "large1m" -> {
        String size = w.id().equals("large64k") ? "64k" : "1m";
        results.add("8", client, "mb_" + size, Suite.num(r, "mb_per_s"));
        cpu(client, r, "cpu_" + size + "_ms_per_mb", "client_cpu_" + size + "_ms_per_mb",
            1000 * w.size() / 1e6);
      }
      default -> throw new IllegalStateException(w.id());
    }
  }

  private void cpu(String client, Map<String, String> r, String serverKey, String clientKey, double per) {
    if (r.containsKey("server_cpu_us_per_msg")) {
      results.add("8", client, serverKey, Suite.num(r, "server_cpu_us_per_msg") / per);
    }
    if (r.containsKey("client_cpu_us_per_msg")) {
      results.add("8", client, clientKey, Suite.num(r, "client_cpu_us_per_msg") / per);
    }
  }

  /**
   * Scenario 10: each client connecting and closing, ws then wss, each against a fresh Netty.
   *
   * @param order the clients in this run's order
   */
  void scenario10(List<String> order) {
    for (boolean tls : new boolean[] {false, true}) {
      suite.log("scenario 10, connect " + (tls ? "wss" : "ws") + ": client drivers against " + FIXED);
      for (Peers.Client c : clients(order, "10")) {
        results.cell("10", c.name());
        try (Launcher.Started server = launcher.startServer(Peers.server(FIXED),
            tls ? Launcher.Mode.TLS : Launcher.Mode.PLAIN, "s10-" + c.name() + (tls ? "-wss" : "-ws"))) {
          List<String> args = new ArrayList<>(c.preArgs());
          args.addAll(List.of("--url", (tls ? "wss" : "ws") + "://127.0.0.1:" + server.port() + "/echo",
              "--workloads", ClientBench.CONNECT, "--warmup-ms", Long.toString(suite.connectWarmupMs(tls)),
              "--measure-ms", Long.toString(suite.measureMs()),
              "--server-pid", Long.toString(server.process().pid())));
          if (tls) {
            args.addAll(List.of("--trust", launcher.trustStore().toString()));
          }
          List<String> jvm = launcher.jvm(c.module(), c.mainClass(), args);
          jvm.addAll(1, Peers.tuningFlags(c.name()));
          List<String> cmd = launcher.pinned(1, jvm);
          Map<String, String> r = suite.resultOf(launcher.runClient(cmd,
              "client-" + c.name() + "-connect" + (tls ? "-wss" : ""), suite.budget(2)),
              ClientBench.CONNECT, "10", c.name());
          if (r != null) {
            suite.fileConnect("10", c.name(), tls, r);
            results.note("10", c.name(), (tls ? "wss" : "ws") + ": threads that worked: "
                + Format.threads(r.get("client_threads")));
          }
        } catch (IOException e) {
          results.fail("10", c.name(), (tls ? "wss" : "ws") + " connect: " + e.getMessage());
        }
      }
    }
  }

  private static List<Peers.Client> clients(List<String> order, String scenario) {
    List<Peers.Client> out = new ArrayList<>();
    for (String name : order) {
      Peers.Client c = Peers.client(name);
      if (c.runsIn(scenario)) {
        out.add(c);
      }
    }
    return out;
  }
}
