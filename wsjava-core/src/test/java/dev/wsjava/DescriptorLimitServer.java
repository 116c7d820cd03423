package dev.wsjava;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * The child process of {@link DescriptorExhaustionTest}: an echo server run under a low
 * descriptor limit ({@code ulimit -n}), driven over its standard input one command a line.
 *
 * <ul>
 *   <li>{@code STATS}: prints {@code STATS <descriptorExhaustions> <openConnections>};
 *   <li>{@code CONNECT}: a client connection to itself, printing {@code CONNECT ok} or {@code
 *       CONNECT <the error's messages>};
 *   <li>{@code QUIT}: closes everything, prints {@code BYE} and returns.
 * </ul>
 *
 * <p>Started, it prints {@code PORT <port> FDS <descriptors open>}. Everything it will need while
 * descriptors are exhausted (the client's classes and event loop among them) is used once first.
 */
public final class DescriptorLimitServer {
  private DescriptorLimitServer() {}

  public static void main(String[] args) throws Exception {
    Transport transport = Transport.valueOf(args[0]);
    WebSocketConfig config =
        WebSocketConfig.builder()
            .transport(transport)
            .eventLoops(1)
            .handshakeTimeout(Duration.ofSeconds(60)) // the flood's sockets stay until let go
            .build();
    WebSocketServer server =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(config)
            .websocket("/echo", new WebSocketListener() {
              @Override
              public void onText(WebSocket ws, String text) {
                ws.sendText(text);
              }
            })
            .start();
    WebSocketClient client = WebSocketClient.builder().config(config).build();
    URI uri = URI.create("ws://127.0.0.1:" + server.port() + "/echo");
    String ok = connect(client, uri); // loads the client's code while files can be opened
    PrintStream out = System.out;
    long fds;
    try (Stream<Path> open = Files.list(Path.of("/proc/self/fd"))) {
      fds = open.count();
    }
    out.println("PORT " + server.port() + " FDS " + fds + " " + ok);
    out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
    for (String line; (line = in.readLine()) != null; ) {
      switch (line) {
        case "STATS" -> out.println(
            "STATS " + server.stats().descriptorExhaustions() + " " + server.openTcpConnections());
        case "CONNECT" -> out.println(connect(client, uri));
        case "QUIT" -> {
          server.close();
          client.close();
          out.println("BYE 0");
          out.flush();
          return;
        }
        default -> out.println("? " + line);
      }
      out.flush();
    }
  }

  private static String connect(WebSocketClient client, URI uri) {
    try {
      WebSocket ws = client.open(uri);
      ws.close(1000, "");
      ws.closeFuture().get();
      return "CONNECT ok";
    } catch (Exception e) {
      StringBuilder b = new StringBuilder("CONNECT");
      for (Throwable t = e; t != null; t = t.getCause()) {
        b.append(" | ").append(t);
      }
      return b.toString().replace('\n', ' ');
    }
  }
}
