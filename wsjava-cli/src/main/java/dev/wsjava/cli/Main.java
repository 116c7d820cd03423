package dev.wsjava.cli;

import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import dev.wsjava.http.HttpResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/**
 * The {@code wsjava} command. Today: an echo server on localhost:8080 with a browser page at
 * {@code /} and a WebSocket echo at {@code /echo}. Options: {@code --port N}, {@code --host H},
 * {@code --transport nio|blocking}.
 */
public final class Main {
  private Main() {}

  /**
   * Starts the echo server and runs until the process is stopped.
   *
   * @param args options, see the class comment
   * @throws Exception when the server cannot start
   */
  public static void main(String[] args) throws Exception {
    String host = "localhost";
    int port = 8080;
    Transport transport = Transport.NIO;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "serve" -> {}
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--host" -> host = args[++i];
        case "--transport" -> transport = Transport.valueOf(args[++i].toUpperCase(java.util.Locale.ROOT));
        case "-h", "--help" -> {
          System.out.println("usage: wsjava [serve] [--host H] [--port N] [--transport nio|blocking]");
          return;
        }
        default -> {
          System.err.println("wsjava: unknown argument " + args[i] + " (try --help)");
          System.exit(2);
        }
      }
    }
    String page = resource("index.html");
    WebSocketServer server =
        WebSocketServer.builder()
            .bind(host, port)
            .config(WebSocketConfig.builder().transport(transport).build())
            .get("/", req -> HttpResponse.html(200, page))
            .websocket("/echo", new Echo())
            .start();
    System.err.printf(
        "wsjava echo server on http://%s:%d/ (WebSocket at ws://%s:%d/echo, %s transport)%n",
        host, server.port(), host, server.port(), transport.name().toLowerCase(java.util.Locale.ROOT));
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }));
    stopped.await();
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = Main.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Sends every message straight back. */
  static final class Echo implements WebSocketListener {
    @Override
    public void onText(WebSocket ws, String text) {
      ws.sendText(text);
    }

    @Override
    public void onBinary(WebSocket ws, ByteBuffer data) {
      ws.sendBinary(data);
    }
  }
}
