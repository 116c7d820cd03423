package dev.wsjava.examples;

import dev.wsjava.examples.chat.ChatEndpoint;
import dev.wsjava.http.HttpResponse;
import dev.wsjava.jakarta.JakartaServer;

/**
 * An unchanged Jakarta WebSocket endpoint ({@link ChatEndpoint}, written as for Tomcat) served by
 * wsjava's standalone server container, beside a plain HTTP route on the same port.
 *
 * <p>Run: {@code examples/run JakartaChat [PORT]} (8080 by default), then {@code ./wsjava connect
 * ws://localhost:8080/chat/lobby} in two terminals.
 */
public final class JakartaChat {
  private JakartaChat() {}

  /**
   * Starts the server and runs until interrupted.
   *
   * @param args optionally the port (default 8080)
   * @throws Exception when the port is taken or the endpoint cannot be deployed
   */
  public static void main(String[] args) throws Exception {
    JakartaServer server = JakartaServer.builder()
        .bind("localhost", args.length > 0 ? Integer.parseInt(args[0]) : 8080)
        .endpoint(ChatEndpoint.class)
        .routes(b -> b.get("/", req -> HttpResponse.text(200, "chat rooms at /chat/{room}\n")))
        .start();
    System.out.println("chat at ws://localhost:" + server.port() + "/chat/{room}");
    Thread.currentThread().join();
  }
}
