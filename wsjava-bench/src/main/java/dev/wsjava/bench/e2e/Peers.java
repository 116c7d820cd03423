package dev.wsjava.bench.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The suite's targets and scenario 8's client drivers: how to start each, with its own classpath
 * ({@code bench-peers/MODULE/target/classes} plus the module's {@code target/classpath.txt}).
 */
final class Peers {
  private Peers() {}

  /**
   * An echo server target.
   *
   * @param name the name in tables and on the command line
   * @param module the bench-peers module (or {@code node})
   * @param mainClass the JVM main class, or {@code null} for Node
   * @param preArgs arguments before {@code PORT [--deflate]}
   * @param http whether it serves {@code GET /} (scenario 7)
   * @param deflate whether it can do permessage-deflate (scenario 6)
   * @param what library, version and how it is set up, for the report
   */
  record Server(String name, String module, String mainClass, List<String> preArgs, boolean http,
      boolean deflate, String what) {
    boolean jvm() {
      return mainClass != null;
    }
  }

  /**
   * A client driver of scenario 8.
   *
   * @param name the name in tables
   * @param module the bench-peers module, or {@code null} for the raw load client in wsjava-bench
   * @param mainClass the main class
   * @param preArgs arguments before the measuring loop's own
   * @param what library and version, for the report
   */
  record Client(String name, String module, String mainClass, List<String> preArgs, String what) {}

  private static final String P = "dev.wsjava.bench.peer.";

  static final List<Server> SERVERS = List.of(
      new Server("wsjava-nio", "wsjava", P + "wsjava.WsjavaEchoServer", List.of("nio"), true, true,
          "wsjava (this build), NIO transport, listener echoing from its callbacks"),
      new Server("wsjava-blocking", "wsjava", P + "wsjava.WsjavaEchoServer", List.of("blocking"),
          true, true, "wsjava (this build), blocking transport, a virtual thread per connection"
              + " running the same listener"),
      new Server("netty", "netty", P + "netty.NettyEchoServer", List.of(), true, true,
          "Netty 4.2.18.Final: HttpServerCodec, WebSocketServerProtocolHandler, echo handler"
              + " flushing per read burst; epoll when it loads (see the notes)"),
      new Server("jetty", "jetty", P + "jetty.JettyEchoServer", List.of(), true, true,
          "Jetty 12.1.14: Jetty WebSocket API on core handlers (WebSocketUpgradeHandler)"),
      new Server("undertow", "undertow", P + "undertow.UndertowEchoServer", List.of(), true, true,
          "Undertow 2.4.4.Final: Handlers.websocket, full-message receive listener"),
      new Server("java-websocket", "java-websocket", P + "javawebsocket.JavaWebSocketEchoServer",
          List.of(), false, true, "Java-WebSocket 1.6.0: WebSocketServer subclass (no plain HTTP)"),
      new Server("vertx", "vertx", P + "vertx.VertxEchoServer", List.of(), true, true,
          "Vert.x 5.0.7: HttpServer webSocketHandler, default event loops, NIO transport"),
      new Server("helidon", "helidon", P + "helidon.HelidonEchoServer", List.of(), true, false,
          "Helidon SE 4.5.0: WebServer (virtual threads), WsRouting listener; no permessage-deflate"),
      new Server("node", "node", null, List.of(), true, true,
          "Node.js with ws 8.23.0 (npm): the non-JVM reference"));

  static final List<Client> CLIENTS = List.of(
      new Client("wsjava-nio", "wsjava", P + "wsjava.WsjavaClientDriver", List.of("nio"),
          "wsjava WebSocketClient, NIO transport, listener"),
      new Client("wsjava-blocking", "wsjava", P + "wsjava.WsjavaClientDriver", List.of("blocking"),
          "wsjava WebSocketClient, blocking transport, listener"),
      new Client("jdk", "jdk", P + "jdk.JdkClientDriver", List.of(),
          "the JDK's java.net.http WebSocket"),
      new Client("okhttp", "okhttp", P + "okhttp.OkHttpClientDriver", List.of(), "OkHttp 5.5.1 (okhttp-jvm)"),
      new Client("jetty", "jetty", P + "jetty.JettyClientDriver", List.of(),
          "Jetty 12.1.14 WebSocketClient (Jetty API)"),
      new Client("netty", "netty", P + "netty.NettyClientDriver", List.of(),
          "Netty 4.2.18.Final WebSocketClientProtocolHandler, epoll where it loads"),
      new Client("raw", null, LoadClient.class.getName(), List.of(),
          "reference: the suite's own raw load client (not a library; not in the ratios)"));

  /**
   * Finds a server target.
   *
   * @param name its name
   * @return the target
   */
  static Server server(String name) {
    return SERVERS.stream().filter(s -> s.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no target " + name + "; known: "
            + SERVERS.stream().map(Server::name).toList()));
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
   * Builds the command that starts a server.
   *
   * @param root the repository
   * @param s the target
   * @param jvmFlags flags for JVM targets
   * @param port the port
   * @param deflate whether to accept permessage-deflate
   * @return the command (without CPU pinning)
   * @throws IOException when the module was not built
   */
  static List<String> command(Path root, Server s, List<String> jvmFlags, int port, boolean deflate)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    if (s.jvm()) {
      cmd.add(javaBinary());
      cmd.addAll(jvmFlags);
      cmd.add("-cp");
      cmd.add(classpath(root, s.module()));
      cmd.add(s.mainClass());
    } else {
      cmd.add("node");
      cmd.add(root.resolve("bench-peers/node/server.js").toString());
    }
    cmd.addAll(s.preArgs());
    cmd.add(Integer.toString(port));
    if (deflate) {
      cmd.add("--deflate");
    }
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
