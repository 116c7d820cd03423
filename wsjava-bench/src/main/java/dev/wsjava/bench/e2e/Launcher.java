package dev.wsjava.bench.e2e;

import dev.wsjava.bench.peer.PeerArgs;
import dev.wsjava.bench.peer.ResultLine;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts the suite's processes the same way every time: servers pinned to CPU 0, clients to CPU 1,
 * each with its log under {@code wsjava-bench/target/e2e-logs}, servers in one of the start modes
 * a point asks for (deflate, one loop, wss, on the simulated LAN). Not thread-safe: the suite runs
 * one point at a time.
 */
final class Launcher {
  /** Flags of every JVM process, servers and clients alike. */
  static final List<String> JVM_FLAGS = List.of("-Xms1g", "-Xmx1g", "-XX:+UseParallelGC");
  /**
   * The zlib level every target that can set one compresses at in scenario 6: zlib's own default,
   * which most of the peers use unless told otherwise (wsjava's default is 3, Beast's 8, gorilla's
   * 1).
   */
  static final int DEFLATE_LEVEL = 6;
  /** Added to the JVM flags of a one-loop start: one carrier thread for virtual threads. */
  static final String ONE_CARRIER = "-Djdk.virtualThreadScheduler.parallelism=1";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  /**
   * How a server is started for a point.
   *
   * @param deflate accept permessage-deflate at {@link #DEFLATE_LEVEL}
   * @param oneLoop one I/O loop or worker, one carrier thread
   * @param tls serve wss://
   * @param lan listen in the simulated LAN's server namespace
   */
  record Mode(boolean deflate, boolean oneLoop, boolean tls, boolean lan) {
    static final Mode PLAIN = new Mode(false, false, false, false);
    static final Mode DEFLATE = new Mode(true, false, false, false);
    static final Mode ONE_LOOP = new Mode(false, true, false, false);
    static final Mode TLS = new Mode(false, false, true, false);
    static final Mode LAN = new Mode(false, false, false, true);
  }

  /**
   * A started server.
   *
   * @param process the process
   * @param host the address it listens on
   * @param port its port
   * @param detail what it said of itself when ready (its I/O threads, level, TLS)
   */
  record Started(ServerProcess process, String host, int port, String detail) implements AutoCloseable {
    @Override
    public void close() {
      process.close();
    }
  }

  private final Path root;
  private final Path logs;
  private final boolean pin;
  private final Results results;
  private Path tls;
  private SimulatedLan lan;
  /**
   * The CPUs servers are pinned to ({@code taskset -c} list): {@code 0} by default, {@code 0,1} for
   * the two-core shape of the tuning measurements (docs/benchmarks/TUNING.md), where the server
   * shares CPU 1 with the load client.
   */
  String serverCpus = "0";
  /** The CPUs clients are pinned to: {@code 1} by default, {@code 0,1} for the two-core shape. */
  String clientCpus = "1";
  /** Each target's detail from its plain start, for the targets table. */
  final Map<String, String> runsAs = new LinkedHashMap<>();

  Launcher(Path root, boolean pin, Results results) {
    this.root = root;
    this.logs = root.resolve("wsjava-bench/target/e2e-logs");
    this.pin = pin;
    this.results = results;
  }

  Path root() {
    return root;
  }

  boolean pinned() {
    return pin;
  }

  /**
   * Returns the TLS files, made on first use.
   *
   * @return the directory with the key and certificate
   * @throws IOException when they cannot be made
   */
  Path tls() throws IOException {
    if (tls == null) {
      tls = TlsFiles.create(root.resolve("wsjava-bench/target/e2e-tls"), List.of("127.0.0.1"));
    }
    return tls;
  }

  /**
   * Serves wss from these files from now on (the TLS handshake benchmark's key types).
   *
   * @param dir a directory {@link TlsFiles#create} made
   */
  void useTls(Path dir) {
    tls = dir;
  }

  /**
   * Returns the simulated LAN, set up on first use.
   *
   * @return the LAN
   * @throws IOException when it cannot be set up
   */
  SimulatedLan lan() throws IOException {
    if (lan == null) {
      lan = SimulatedLan.up();
    }
    return lan;
  }

  /**
   * Describes the LAN's shaping, if it was set up.
   *
   * @return the shaping, or {@code null}
   */
  String lanShaping() {
    return lan == null ? null : lan.shaping();
  }

  /** Tears the LAN down, if it was set up. */
  void closeLan() {
    if (lan != null) {
      lan.close();
    }
  }

  /**
   * Starts a server and waits for its {@code READY} line.
   *
   * @param s the target
   * @param mode how
   * @param what the log's name
   * @return the started server
   * @throws IOException when it does not start
   */
  Started startServer(Peers.Server s, Mode mode, String what) throws IOException {
    int port = freePort();
    String host = mode.lan() ? SimulatedLan.SERVER_ADDRESS : "127.0.0.1";
    List<String> peerArgs = new ArrayList<>(List.of("--host", host));
    if (mode.deflate()) {
      peerArgs.addAll(List.of("--deflate", Integer.toString(DEFLATE_LEVEL)));
    }
    if (mode.oneLoop()) {
      peerArgs.add("--one-loop");
    }
    if (mode.tls()) {
      peerArgs.addAll(List.of("--tls", tls().toString()));
    }
    List<String> flags = new ArrayList<>(JVM_FLAGS);
    if (mode.oneLoop()) {
      flags.add(ONE_CARRIER);
    }
    List<String> cmd = pinned(serverCpus, Peers.command(root, s, flags, port, peerArgs));
    if (mode.lan()) {
      cmd = lan().server(cmd);
    }
    ServerProcess p = ServerProcess.start(cmd, logFile(s.name() + "-" + what));
    try {
      String ready = p.await(START_TIMEOUT, "READY ");
      String detail = ready.substring("READY ".length()).replaceFirst("^\\d+\\s*", "");
      if (mode.equals(Mode.PLAIN)) {
        runsAs.put(s.name(), detail);
      }
      return new Started(p, host, port, detail);
    } catch (IOException e) {
      p.close();
      throw e;
    }
  }

  /**
   * Runs a client process to its end and keeps its result and error lines.
   *
   * @param cmd the command, pinned already
   * @param name the log's name
   * @param budget how long it may run
   * @return its RESULT and ERROR lines
   * @throws IOException when it cannot start or runs over
   */
  List<String> runClient(List<String> cmd, String name, Duration budget) throws IOException {
    try (ServerProcess client = ServerProcess.start(cmd, logFile(name))) {
      return client.linesUntilExit(budget, ResultLine.RESULT, ResultLine.ERROR);
    }
  }

  /**
   * Starts a client process without waiting for it.
   *
   * @param cmd the command, pinned already
   * @param name the log's name
   * @return the process
   * @throws IOException when it cannot start
   */
  ServerProcess startClient(List<String> cmd, String name) throws IOException {
    return ServerProcess.start(cmd, logFile(name));
  }

  /**
   * Builds the command of a JVM client in wsjava-bench or a bench-peers module.
   *
   * @param module the module, or {@code null} for wsjava-bench
   * @param mainClass the main class
   * @param args its arguments
   * @return the command, not pinned
   * @throws IOException when the module was not built
   */
  List<String> jvm(String module, String mainClass, List<String> args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Peers.javaBinary());
    cmd.addAll(JVM_FLAGS);
    cmd.addAll(List.of("-cp", Peers.classpath(root, module), mainClass));
    cmd.addAll(args);
    return cmd;
  }

  /**
   * Pins a command to a CPU, when taskset works here.
   *
   * @param cpu 0 for servers, 1 for clients
   * @param cmd the command
   * @return {@code taskset -c CPU cmd...}
   */
  List<String> pinned(int cpu, List<String> cmd) {
    return pinned(cpu == 1 ? clientCpus : Integer.toString(cpu), cmd);
  }

  private List<String> pinned(String cpus, List<String> cmd) {
    if (!pin) {
      return cmd;
    }
    List<String> out = new ArrayList<>(List.of("taskset", "-c", cpus));
    out.addAll(cmd);
    return out;
  }

  /**
   * Names a log file of the current run.
   *
   * @param name what it logs
   * @return the path
   */
  Path logFile(String name) {
    return logs.resolve("run" + results.run() + "-" + name + ".log");
  }

  /**
   * The PeerArgs name of the trust store, for clients of wss points.
   *
   * @return the trust store's path
   * @throws IOException when the TLS files cannot be made
   */
  Path trustStore() throws IOException {
    return tls().resolve(PeerArgs.TRUST_STORE);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
