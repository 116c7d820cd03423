package dev.wsjava.examples;

import dev.wsjava.Message;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketClosedException;
import java.net.URI;
import java.time.Duration;

/**
 * A pull-style client on a virtual thread: plain blocking code, one line after another, no
 * callbacks. Sends a few messages and reads until the server closes or goes quiet.
 *
 * <p>Run against {@code ./wsjava} (an echo server on port 8080): {@code examples/run BlockingClient
 * [PORT|URI]}; a port means {@code ws://localhost:PORT/echo}.
 */
public final class BlockingClient {
  private BlockingClient() {}

  /**
   * Runs the conversation on a virtual thread and waits for it.
   *
   * @param args the server's port or URI (default {@code ws://localhost:8080/echo})
   * @throws InterruptedException when interrupted
   */
  public static void main(String[] args) throws InterruptedException {
    String where = args.length > 0 ? args[0] : "8080";
    URI uri = URI.create(where.matches("\\d+") ? "ws://localhost:" + where + "/echo" : where);
    Thread conversation = Thread.ofVirtual().start(() -> {
      try (WebSocketClient client = WebSocketClient.builder().build()) {
        WebSocket ws = client.open(uri);
        for (int i = 1; i <= 3; i++) {
          ws.sendText("message " + i).join(); // waiting is cheap on a virtual thread
        }
        Message m;
        while ((m = ws.receive(Duration.ofSeconds(2))) != null) {
          System.out.println("< " + m);
        }
        ws.close().join();
      } catch (WebSocketClosedException e) {
        System.out.println("the server closed: " + e.code() + " " + e.reason());
      } catch (Exception e) {
        System.err.println("failed: " + e);
      }
    });
    conversation.join();
  }
}
