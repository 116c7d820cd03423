package dev.wsjava.examples;

import dev.wsjava.Message;
import dev.wsjava.ReconnectPolicy;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketClosedException;
import dev.wsjava.WebSocketServer;
import java.net.URI;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A client that delivers every message through a server restart. It sends 1,000 numbered
 * messages, each until the server acknowledges it ({@code "ok N"}); halfway the server stops (its
 * clients see 1001) and starts again on the same port. The client, built with {@link
 * ReconnectPolicy}, connects again by itself. A send while it is reconnecting would fail at once
 * (the library buffers nothing behind the application's back), so each send first waits for an
 * open connection ({@link WebSocket#opened()}), and what was not acknowledged is sent again: a
 * message written just before the drop may or may not have arrived, so the server counts each
 * number once.
 *
 * <p>Run: {@code examples/run ReconnectingClient [COUNT]}; it starts its own server.
 */
public final class ReconnectingClient {
  private ReconnectingClient() {}

  /**
   * Runs the server and the client; exits 0 when every message arrived.
   *
   * @param args the number of messages (default 1000)
   * @throws Exception when the server cannot start
   */
  public static void main(String[] args) throws Exception {
    int count = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    Set<Integer> received = ConcurrentHashMap.newKeySet(); // the server's store: survives restarts
    WebSocketServer first = server(0, received);
    int port = first.port();
    Thread restart = Thread.ofVirtual().start(() -> {
      try {
        while (received.size() < count / 2) {
          Thread.sleep(5);
        }
        first.close(); // every client sees 1001 (going away)
        server(port, received); // the same port, moments later (stops with the JVM)
        System.out.println("server restarted after " + received.size() + " messages");
      } catch (Exception e) {
        throw new IllegalStateException("cannot restart the server", e);
      }
    });

    ReconnectPolicy policy = ReconnectPolicy.builder().initialDelay(Duration.ofMillis(100)).build();
    int resent = 0;
    try (WebSocketClient client = WebSocketClient.builder().reconnect(policy).build()) {
      WebSocket ws = client.open(URI.create("ws://localhost:" + port + "/ack"));
      for (int n = 1; n <= count; n++) {
        while (!sendAndAwaitAck(ws, n)) { // dropped, or sent into the gap: send again
          resent++;
        }
      }
      ws.close().join();
    }
    restart.join();
    System.out.println(count + " messages sent (" + resent + " sent again), " + received.size()
        + " arrived");
    System.exit(received.size() == count ? 0 : 1);
  }

  /** Sends {@code n} and waits for its acknowledgement; false when it must be sent again. */
  static boolean sendAndAwaitAck(WebSocket ws, int n) throws Exception {
    try {
      // Waits while the client reconnects (fails if it gives up), then sends on the new connection.
      ws.opened().get(30, TimeUnit.SECONDS).sendText(Integer.toString(n)).join();
      Message ack;
      // Acknowledgements of earlier sends of earlier numbers may come first: skip them.
      while ((ack = ws.receive(Duration.ofSeconds(2))) != null) {
        if (ack instanceof Message.Text t && t.text().equals("ok " + n)) {
          return true;
        }
      }
      return false; // no answer in time: the connection dropped after the send
    } catch (CompletionException | WebSocketClosedException e) {
      return false; // the connection dropped after opened(): wait for the next one
    }
  }

  /** An acknowledging server on {@code port} (0: any free one) that records what arrives. */
  static WebSocketServer server(int port, Set<Integer> received) throws Exception {
    return WebSocketServer.builder()
        .bind("localhost", port)
        .websocket("/ack", ws -> {
          while (true) {
            if (ws.receive() instanceof Message.Text t) {
              received.add(Integer.parseInt(t.text()));
              if (!ws.isOpen()) {
                return; // the server is stopping: the client sends it again
              }
              ws.sendText("ok " + t.text());
            }
          }
        })
        .start();
  }
}
