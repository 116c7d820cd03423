package dev.wsjava.bench.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The suite's targets and the client drivers of scenarios 8 and 10: how to start each, with its own
 * classpath ({@code bench-peers/MODULE/target/classes} plus the module's {@code
 * target/classpath.txt}) or its own binary.
 */
final class Peers {
  private Peers() {}

  /** What a target is, which decides the ratio it takes part in. */
  enum Kind {
    /** One of wsjava's own: the numerator of every ratio. */
    WSJAVA,
    /** A JVM library: the "best JVM peer" is the best of these. */
    JVM,
    /**
     * A Jakarta WebSocket container (Tomcat, Jetty, Tyrus) running the shared annotated endpoint:
     * the reference of wsjava's Jakarta target only, in no other ratio.
     */
    JAKARTA,
    /**
     * Compiled native code (C++, Go, and Bun, whose WebSocket server is uWebSockets in C++ under a
     * JavaScript handler): the "best native" reference.
     */
    NATIVE,
    /** Shown, never in a ratio (Node's ws, the raw load client). */
    REFERENCE
  }

  /**
   * An echo server target.
   *
   * @param name the name in tables and on the command line
   * @param module the bench-peers directory
   * @param mainClass the JVM main class, or {@code null} for Node, Bun and native binaries
   * @param preArgs arguments before the {@code PeerArgs} ones
   * @param http whether it serves {@code GET /} (scenario 7)
   * @param deflate whether it can do permessage-deflate at a given level (scenario 6)
   * @param kind its part in the ratios
   * @param only the scenarios this target takes part in, or empty for all: variants of wsjava
   *     (polling off, its own deflate level) run only where they answer a question
   * @param what library, version and how it is set up, for the report
   */
  record Server(String name, String module, String mainClass, List<String> preArgs, boolean http,
      boolean deflate, Kind kind, Set<String> only, String what) {
    boolean jvm() {
      return mainClass != null;
    }

    boolean runsIn(String scenario) {
      return only.isEmpty() || only.contains(scenario);
    }
  }

  /**
   * A client driver of scenarios 8 and 10.
   *
   * @param name the name in tables
   * @param module the bench-peers module, or {@code null} for the raw load client in wsjava-bench
   * @param mainClass the main class
   * @param preArgs arguments before the measuring loop's own
   * @param kind its part in the ratios
   * @param only the scenarios it takes part in, or empty for all
   * @param what library and version, for the report
   */
  record Client(String name, String module, String mainClass, List<String> preArgs, Kind kind,
      Set<String> only, String what) {
    boolean runsIn(String scenario) {
      return only.isEmpty() || only.contains(scenario);
    }
  }

  private static final String P = "dev.wsjava.bench.peer.";

  /** The scenarios of the Jakarta targets: latency, small messages, large, many connections. */
  private static final Set<String> JAKARTA_SCENARIOS = Set.of("1", "2", "3", "4");
  /** The whole-message form's: not 1,000 connections (Tomcat's buffers of 16 MiB per session). */
  private static final Set<String> JAKARTA_WHOLE_SCENARIOS = Set.of("1", "2", "3");

  static final List<Server> SERVERS = List.of(
      new Server("wsjava-nio", "wsjava", P + "wsjava.WsjavaEchoServer", List.of("nio"), true, true,
          Kind.WSJAVA, Set.of(), "wsjava (this build), NIO transport, default settings, listener"
              + " echoing from its callbacks"),
      new Server("wsjava-nio-spin0", "wsjava", P + "wsjava.WsjavaEchoServer",
          List.of("nio", "--spin-us", "0"), true, true, Kind.WSJAVA, Set.of("1", "2"),
          "wsjava-nio with eventLoopSpin(Duration.ZERO): the loop blocks in epoll at once, as every"
              + " peer's does (scenarios 1 and 2 only)"),
      new Server("wsjava-nio-level3", "wsjava", P + "wsjava.WsjavaEchoServer",
          List.of("nio", "--own-deflate-level"), true, true, Kind.WSJAVA, Set.of("6"),
          "wsjava-nio compressing at its own default level 3 instead of the suite's (scenario 6"
              + " only)"),
      new Server("wsjava-blocking", "wsjava", P + "wsjava.WsjavaEchoServer", List.of("blocking"),
          true, true, Kind.WSJAVA, Set.of(), "wsjava (this build), blocking transport, a virtual"
              + " thread per connection running the same listener"),
      new Server("netty", "netty", P + "netty.NettyEchoServer", List.of(), true, true, Kind.JVM,
          Set.of(), "Netty 4.2.18.Final: HttpServerCodec, WebSocketServerProtocolHandler, echo"
              + " handler flushing per read burst; epoll when it loads"),
      new Server("jetty", "jetty", P + "jetty.JettyEchoServer", List.of(), true, true, Kind.JVM,
          Set.of(), "Jetty 12.1.14: Jetty WebSocket API on core handlers (WebSocketUpgradeHandler),"
              + " frames up to 16 MiB (its default 64 KiB)"),
      new Server("undertow", "undertow", P + "undertow.UndertowEchoServer", List.of(), true, true,
          Kind.JVM, Set.of(), "Undertow 2.4.4.Final: Handlers.websocket, full-message receive"
              + " listener"),
      new Server("java-websocket", "java-websocket", P + "javawebsocket.JavaWebSocketEchoServer",
          List.of(), false, true, Kind.JVM, Set.of(), "Java-WebSocket 1.6.0: WebSocketServer"
              + " subclass (no plain HTTP), frames up to 16 MiB (its default: no limit)"),
      new Server("vertx", "vertx", P + "vertx.VertxEchoServer", List.of(), true, true, Kind.JVM,
          Set.of(), "Vert.x 5.0.7: HttpServer webSocketHandler, NIO transport"),
      new Server("helidon", "helidon", P + "helidon.HelidonEchoServer", List.of(), true, false,
          Kind.JVM, Set.of(), "Helidon SE 4.5.0: WebServer (virtual threads), WsRouting listener;"
              + " TCP_NODELAY on and frames up to 16 MiB (its defaults: off and 1 MiB); no"
              + " permessage-deflate"),
      // Jakarta WebSocket: one annotated endpoint (bench-peers/jakarta-echo, echoing each part as
      // it arrives) deployed unchanged on four containers, in scenarios 1 to 4 only.
      new Server("jakarta-wsjava", "jakarta-wsjava", P + "jakarta.wsjava.WsjavaJakartaEchoServer",
          List.of(), true, false, Kind.WSJAVA, JAKARTA_SCENARIOS, "wsjava (this build) Jakarta"
              + " WebSocket 2.2 standalone server container (JakartaServer), NIO, the shared"
              + " annotated echo endpoint"),
      new Server("jakarta-tomcat", "jakarta-tomcat", P + "jakarta.tomcat.TomcatJakartaEchoServer",
          List.of(), true, false, Kind.JAKARTA, JAKARTA_SCENARIOS, "Tomcat 11.0.29 embedded"
              + " (tomcat-embed-websocket, NIO connector), the shared annotated echo endpoint"),
      new Server("jakarta-jetty", "jakarta-jetty", P + "jakarta.jetty.JettyJakartaEchoServer",
          List.of(), true, false, Kind.JAKARTA, JAKARTA_SCENARIOS, "Jetty 12.1.14 ee11 Jakarta"
              + " WebSocket on a servlet context, the shared annotated echo endpoint"),
      new Server("jakarta-tyrus", "jakarta-tyrus", P + "jakarta.tyrus.TyrusJakartaEchoServer",
          List.of(), false, false, Kind.JAKARTA, JAKARTA_SCENARIOS, "Tyrus 2.2.0 standalone server"
              + " on Grizzly, the shared annotated echo endpoint (no plain HTTP)"),
      // The same four with the whole-message form of the endpoint (JakartaWholeEcho), compared
      // among themselves: ./bench jakarta --whole.
      new Server("jakarta-wsjava-whole", "jakarta-wsjava",
          P + "jakarta.wsjava.WsjavaJakartaEchoServer", List.of("--whole"), true, false,
          Kind.WSJAVA, JAKARTA_WHOLE_SCENARIOS, "jakarta-wsjava deploying the whole-message"
              + " endpoint (String and ByteBuffer, sent back whole)"),
      new Server("jakarta-tomcat-whole", "jakarta-tomcat",
          P + "jakarta.tomcat.TomcatJakartaEchoServer", List.of("--whole"), true, false,
          Kind.JAKARTA, JAKARTA_WHOLE_SCENARIOS, "jakarta-tomcat deploying the whole-message"
              + " endpoint"),
      new Server("jakarta-jetty-whole", "jakarta-jetty", P + "jakarta.jetty.JettyJakartaEchoServer",
          List.of("--whole"), true, false, Kind.JAKARTA, JAKARTA_WHOLE_SCENARIOS, "jakarta-jetty"
              + " deploying the whole-message endpoint"),
      new Server("jakarta-tyrus-whole", "jakarta-tyrus", P + "jakarta.tyrus.TyrusJakartaEchoServer",
          List.of("--whole"), false, false, Kind.JAKARTA, JAKARTA_WHOLE_SCENARIOS, "jakarta-tyrus"
              + " deploying the whole-message endpoint (no plain HTTP)"),
      new Server("node", "node", null, List.of(), true, true, Kind.REFERENCE, Set.of(),
          "Node.js with ws 8.23.0 (npm): a non-JVM reference, in no ratio"),
      new Server("bun", "bun", null, List.of(), true, true, Kind.NATIVE, Set.of(),
          "Bun 1.4.4 (npm bun, its platform binary): Bun.serve, whose WebSocket server is"
              + " uWebSockets (C++), a websocket handler echoing each message; one thread, frames"
              + " up to 16 MiB, no idle timeout; its deflate uses uWebSockets' own level (not"
              + " settable) with a dedicated compressor per connection"),
      new Server("beast", "beast", null, List.of(), true, true, Kind.NATIVE, Set.of(),
          "Boost.Beast (C++, g++ -O2, Debian libboost-dev): async, one io_context per core, a whole"
              + " message read then written back, auto_fragment off; its deflate ends every message"
              + " with a full flush, which empties the window, so messages gain nothing from the"
              + " context it keeps"),
      new Server("gorilla", "gorilla", null, List.of(), true, true, Kind.NATIVE, Set.of(),
          "gorilla/websocket (Go, Debian golang-go and golang-github-gorilla-websocket-dev):"
              + " net/http, a goroutine per connection, ReadMessage/WriteMessage"));

  static final List<Client> CLIENTS = List.of(
      new Client("wsjava-nio", "wsjava", P + "wsjava.WsjavaClientDriver", List.of("nio"),
          Kind.WSJAVA, Set.of(), "wsjava WebSocketClient, NIO transport, default settings, listener"),
      new Client("wsjava-nio-spin0", "wsjava", P + "wsjava.WsjavaClientDriver",
          List.of("nio", "--spin-us", "0"), Kind.WSJAVA, Set.of("8"),
          "wsjava WebSocketClient, NIO transport, eventLoopSpin(Duration.ZERO) (scenario 8 only)"),
      new Client("wsjava-blocking", "wsjava", P + "wsjava.WsjavaClientDriver", List.of("blocking"),
          Kind.WSJAVA, Set.of(), "wsjava WebSocketClient, blocking transport, listener"),
      new Client("jdk", "jdk", P + "jdk.JdkClientDriver", List.of(), Kind.JVM, Set.of(),
          "the JDK's java.net.http WebSocket"),
      new Client("okhttp", "okhttp", P + "okhttp.OkHttpClientDriver", List.of(), Kind.JVM, Set.of(),
          "OkHttp 5.5.1 (okhttp-jvm)"),
      new Client("jetty", "jetty", P + "jetty.JettyClientDriver", List.of(), Kind.JVM, Set.of(),
          "Jetty 12.1.14 WebSocketClient (Jetty API)"),
      new Client("netty", "netty", P + "netty.NettyClientDriver", List.of(), Kind.JVM, Set.of(),
          "Netty 4.2.18.Final WebSocketClientProtocolHandler, epoll where it loads"),
      new Client("raw", null, LoadClient.class.getName(), List.of(), Kind.REFERENCE, Set.of("8"),
          "reference: the suite's own raw load client (not a library; in no ratio)"));

  /**
   * Finds a server target.
   *
   * @param name its name
   * @return the target
   */
  static Server server(String name) {
    int plus = name.indexOf('+');
    if (plus > 0) {
      Server base = server(name.substring(0, plus));
      if (base.kind() != Kind.WSJAVA) {
        throw new IllegalArgumentException("tuning variants are of wsjava's targets only: " + name);
      }
      List<String> pre = new ArrayList<>(base.preArgs());
      Matcher spin = Pattern.compile("\\+spinUs=([0-9]+)").matcher(name);
      if (spin.find()) { // the spin is configuration, not a Tuning override: the server's option
        pre.addAll(List.of("--spin-us", spin.group(1)));
      }
      return new Server(name, base.module(), base.mainClass(), List.copyOf(pre), base.http(),
          base.deflate(), base.kind(), base.only(), base.what() + ", with "
              + String.join(" ", pre.subList(base.preArgs().size(), pre.size())) + " "
              + String.join(" ", tuningFlags(name)));
    }
    return SERVERS.stream().filter(s -> s.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no target " + name + "; known: "
            + SERVERS.stream().map(Server::name).toList()));
  }

  /**
   * Finds a client driver by name; {@code BASE+name=value} is a tuning variant of a wsjava client,
   * started with {@link #tuningFlags}.
   *
   * @param name its name
   * @return the client
   */
  static Client client(String name) {
    int plus = name.indexOf('+');
    String base = plus > 0 ? name.substring(0, plus) : name;
    Client c = CLIENTS.stream().filter(x -> x.name().equals(base)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no client " + base + "; known: "
            + CLIENTS.stream().map(Client::name).toList()));
    if (plus < 0) {
      return c;
    }
    if (c.kind() != Kind.WSJAVA) {
      throw new IllegalArgumentException("tuning variants are of wsjava's clients only: " + name);
    }
    return new Client(name, c.module(), c.mainClass(), c.preArgs(), c.kind(), c.only(),
        c.what() + ", with " + String.join(" ", tuningFlags(name)));
  }

  /**
   * Finds the kind of a target or client by name (Node and the raw client are references).
   *
   * @param name the name in a table
   * @return its kind; names not listed count as references
   */
  static Kind kind(String name) {
    if (name.indexOf('+') > 0) {
      name = name.substring(0, name.indexOf('+'));
    }
    for (Server s : SERVERS) {
      if (s.name().equals(name)) {
        return s.kind();
      }
    }
    for (Client c : CLIENTS) {
      if (c.name().equals(name)) {
        return c.kind();
      }
    }
    return Kind.REFERENCE;
  }

  /**
   * The JVM flags of a tuning variant of a wsjava target: {@code wsjava-nio+maxReadsPerEvent=4}
   * is wsjava-nio started with {@code -Dwsjava.tuning.maxReadsPerEvent=4} (the overrides of
   * {@code dev.wsjava.transport.Tuning}); several are joined with {@code +}. {@code spinUs=N} is
   * not a flag but the server's {@code --spin-us N} (the spin is configuration).
   *
   * @param name a target's name
   * @return the flags, none for a plain target
   */
  static List<String> tuningFlags(String name) {
    String[] parts = name.split("\\+");
    List<String> flags = new ArrayList<>();
    for (int i = 1; i < parts.length; i++) {
      if (parts[i].startsWith("spinUs=")) {
        continue;
      }
      if (!parts[i].matches("[a-zA-Z]+=[0-9]+")) {
        throw new IllegalArgumentException("a tuning variant is NAME=INTEGER: " + parts[i]);
      }
      flags.add("-Dwsjava.tuning." + parts[i]);
    }
    return flags;
  }

  /**
   * Builds a module's classpath.
   *
   * @param root the repository
   * @param module a bench-peers module, or {@code null} for wsjava-bench
   * @return the classpath
   * @throws IOException when the module was not built
   */
  static String classpath(Path root, String module) throws IOException {
    Path dir = module == null ? root.resolve("wsjava-bench") : root.resolve("bench-peers").resolve(module);
    Path file = dir.resolve("target/classpath.txt");
    if (!Files.exists(file)) {
      throw new IOException(file + " is missing: build with ./bench e2e (it runs Maven first)");
    }
    return dir.resolve("target/classes") + java.io.File.pathSeparator + Files.readString(file).strip();
  }

  /**
   * The binary of a native target.
   *
   * @param root the repository
   * @param s the target
   * @return {@code bench-peers/NAME/target/NAME-echo}
   */
  static Path nativeBinary(Path root, Server s) {
    return root.resolve("bench-peers").resolve(s.module()).resolve("target").resolve(s.module() + "-echo");
  }

  /**
   * Builds the command that starts a server.
   *
   * @param root the repository
   * @param s the target
   * @param jvmFlags flags for JVM targets
   * @param port the port
   * @param peerArgs the {@code PeerArgs} after the port ({@code --host}, {@code --deflate}, ...)
   * @return the command (without CPU pinning)
   * @throws IOException when the module or binary was not built
   */
  static List<String> command(Path root, Server s, List<String> jvmFlags, int port, List<String> peerArgs)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    if (s.jvm()) {
      cmd.add(javaBinary());
      cmd.addAll(jvmFlags);
      cmd.addAll(tuningFlags(s.name()));
      cmd.add("-cp");
      cmd.add(classpath(root, s.module()));
      cmd.add(s.mainClass());
    } else if (s.module().equals("node")) {
      cmd.add("node");
      cmd.add(root.resolve("bench-peers/node/server.js").toString());
    } else if (s.module().equals("bun")) {
      Path bun = root.resolve("bench-peers/bun/node_modules/.bin/bun");
      if (!Files.isExecutable(bun)) {
        throw new IOException(bun + " is missing: ./bench e2e installs the npm package bun");
      }
      cmd.add(bun.toString());
      cmd.add(root.resolve("bench-peers/bun/server.js").toString());
    } else {
      Path binary = nativeBinary(root, s);
      if (!Files.isExecutable(binary)) {
        throw new IOException(binary + " is missing: ./bench e2e builds it (g++ and go are needed)");
      }
      cmd.add(binary.toString());
    }
    cmd.addAll(s.preArgs());
    cmd.add(Integer.toString(port));
    cmd.addAll(peerArgs);
    return cmd;
  }

  /**
   * Returns the java launcher of the JDK running the suite: every JVM process uses the same.
   *
   * @return the path of {@code bin/java}
   */
  static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
