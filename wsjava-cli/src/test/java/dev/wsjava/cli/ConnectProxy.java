package dev.wsjava.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: a minimal HTTP proxy that knows only CONNECT (RFC 9110 §9.3.6): it reads the
 * request, connects to the target, answers 200 and relays bytes both ways until either side ends,
 * one connection at a time on virtual threads (reads time out after 10 s). It records the target of
 * every tunnel it opened.
 */
final class ConnectProxy implements AutoCloseable {
  private final List<String> tunnels = new CopyOnWriteArrayList<>();
  private final LoopbackServer server = new LoopbackServer(this::serve);

  ConnectProxy() throws IOException {}

  int port() {
    return server.port();
  }

  /** The {@code host:port} of each tunnel opened, in order. */
  List<String> tunnels() {
    return List.copyOf(tunnels);
  }

  private void serve(Socket client) throws IOException {
    String[] request = RawWebSocket.readHead(client.getInputStream()).split("\r\n", 2)[0].split(" ");
    OutputStream toClient = client.getOutputStream();
    int colon = request.length == 3 ? request[1].lastIndexOf(':') : -1;
    if (!request[0].equals("CONNECT") || colon < 0) {
      toClient.write("HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII));
      return;
    }
    String host = request[1].substring(0, colon).replace("[", "").replace("]", "");
    int targetPort = Integer.parseInt(request[1].substring(colon + 1));
    try (Socket upstream = new Socket()) {
      upstream.connect(new InetSocketAddress(host, targetPort), 5_000);
      upstream.setSoTimeout(10_000);
      tunnels.add(request[1]);
      toClient.write("HTTP/1.1 200 Connection Established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      Thread up = Thread.ofVirtual().start(() -> relay(client, upstream));
      relay(upstream, client);
      up.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Copies one direction until its end, then passes the end on; a failure ends both ways. */
  private static void relay(Socket from, Socket to) {
    try {
      InputStream in = from.getInputStream();
      in.transferTo(to.getOutputStream());
      to.shutdownOutput();
    } catch (IOException e) {
      try {
        from.close();
        to.close();
      } catch (IOException ignored) {
        // both are going anyway
      }
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
