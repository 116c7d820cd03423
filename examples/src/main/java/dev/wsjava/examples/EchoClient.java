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
 * <p>Run against {@code ./wsjava} (an echo server on port 8080): {@code java -cp
 * wsjava-core/target/classes:examples/target/classes dev.wsjava.examples.EchoClient
 * ws://localhost:8080/echo hello world}
 */
public final class EchoClient {
  private EchoClient() {}

  /**
   * Connects, sends, prints, closes.
   *
   * @param args the server's URI, then the messages
   * @throws Exception when the connection fails
   */
  public static void main(String[] args) throws Exception {
    URI uri = URI.create(args.length > 0 ? args[0] : "ws://localhost:8080/echo");
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
