package dev.wsjava.examples;

import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketListener;
import java.net.URI;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A listener-style client: sends each argument as a text message and prints the echoes.
 *
 * <p>Run against {@code ./wsjava} (an echo server on port 8080): {@code examples/run EchoClient
 * 8080 hello world}; the first argument is a port (meaning {@code ws://localhost:PORT/echo}) or
 * a URI.
 */
public final class EchoClient {
  private EchoClient() {}

  /**
   * Connects, sends, prints, closes.
   *
   * @param args the server's port or URI (default {@code ws://localhost:8080/echo}), then the
   *     messages
   * @throws Exception when the connection fails
   */
  public static void main(String[] args) throws Exception {
    String where = args.length > 0 ? args[0] : "8080";
    URI uri = URI.create(where.matches("\\d+") ? "ws://localhost:" + where + "/echo" : where);
    int count = Math.max(1, args.length - 1);
    CountDownLatch echoes = new CountDownLatch(count);
    try (WebSocketClient client = WebSocketClient.builder().build()) {
      WebSocket ws = client.connect(uri, new WebSocketListener() {
        @Override public void onText(WebSocket ws, String text) {
          System.out.println("< " + text);
          echoes.countDown();
        }

        @Override public void onClose(WebSocket ws, int code, String reason) {
          System.out.println("closed " + code + " " + reason);
        }
      }).join();
      for (int i = 1; i <= count; i++) {
        String text = args.length > i ? args[i] : "hello";
        System.out.println("> " + text);
        ws.sendText(text);
      }
      echoes.await(10, TimeUnit.SECONDS);
      ws.close().join();
    }
  }
}
