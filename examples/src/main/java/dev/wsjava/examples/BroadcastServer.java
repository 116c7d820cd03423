package dev.wsjava.examples;

import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A chat server: every text message goes to every connected client. A client that cannot keep up
 * has its send refused ({@link dev.wsjava.SendQueueFullException}) and is closed, so one slow
 * reader never holds the others back.
 *
 * <p>Run: {@code examples/run BroadcastServer [PORT]} (8080 by default), then connect two
 * clients to ws://localhost:PORT/chat, for example {@code ./wsjava connect
 * ws://localhost:8080/chat} in two terminals.
 */
public final class BroadcastServer {
  private BroadcastServer() {}

  /**
   * Starts the server and runs until interrupted.
   *
   * @param args optionally the port (default 8080)
   * @throws Exception when the port is taken
   */
  public static void main(String[] args) throws Exception {
    Set<WebSocket> members = ConcurrentHashMap.newKeySet();
    WebSocketServer server = WebSocketServer.builder()
        .bind("localhost", args.length > 0 ? Integer.parseInt(args[0]) : 8080)
        .websocket("/chat", new WebSocketListener() {
          @Override public void onOpen(WebSocket ws) { members.add(ws); }

          @Override public void onClose(WebSocket ws, int code, String reason) { members.remove(ws); }

          @Override public void onText(WebSocket ws, String text) {
            for (WebSocket member : members) {
              member.sendText(text).exceptionally(e -> {
                member.close(1008, "too slow");
                return null;
              });
            }
          }
        })
        .start();
    System.out.println("chat at ws://localhost:" + server.port() + "/chat");
    Thread.currentThread().join();
  }
}
