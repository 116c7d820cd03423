package dev.wsjava.examples;

import dev.wsjava.HandshakeDecision;
import dev.wsjava.Topics;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import dev.wsjava.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;

/**
 * Chat rooms for members who show a bearer token: the handshake hook admits {@code Authorization:
 * Bearer TOKEN} (401 otherwise) and attaches the member's name to the socket; {@code
 * /rooms/{room}} subscribes it to the room's topic (one process, no Redis), and what it says goes
 * to the room as {@code name: text}. Messages over 64 KiB close the sender with 1009; more than 10
 * connections from one address get 429; {@code GET /health} answers in JSON.
 *
 * <p>Run: {@code examples/run RoomsServer 8080 ada=secret-a bob=secret-b}, then {@code ./wsjava
 * connect --header 'Authorization: Bearer secret-a' ws://localhost:8080/rooms/lobby} and {@code
 * curl localhost:8080/health}.
 */
public final class RoomsServer {
  /** The largest message a member may send (1009 beyond). */
  static final int MAX_MESSAGE = 64 * 1024;
  /** The connections one address may hold (429 beyond). */
  static final int MAX_PER_ADDRESS = 10;

  private RoomsServer() {}

  /**
   * Starts the server and runs until interrupted.
   *
   * @param args the port (default 8080, 0 for any free one), then {@code NAME=TOKEN} for each
   *     member (default {@code ada=secret-a bob=secret-b})
   * @throws Exception when the port is taken
   */
  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
    Map<String, String> members = new HashMap<>(); // token -> name
    for (int i = 1; i < args.length; i++) {
      String[] nameToken = args[i].split("=", 2);
      members.put(nameToken[1], nameToken[0]);
    }
    if (members.isEmpty()) {
      members.putAll(Map.of("secret-a", "ada", "secret-b", "bob"));
    }
    Topics rooms = Topics.builder().build(); // this process only: no backplane
    WebSocketServer server = WebSocketServer.builder()
        .bind("localhost", port)
        .maxConnectionsPerAddress(MAX_PER_ADDRESS)
        .onHandshake("/rooms/{room}", req -> { // this route's hook; other routes have the server's
          String authorization = req.header("Authorization");
          String name = authorization != null && authorization.startsWith("Bearer ")
              ? members.get(authorization.substring(7).strip())
              : null;
          return name == null
              ? HandshakeDecision.reject(401).header("WWW-Authenticate", "Bearer realm=\"rooms\"")
              : HandshakeDecision.accept().attach(name); // the socket's state: who it is
        })
        .websocket("/rooms/{room}", new WebSocketListener() {
          @Override public void onOpen(WebSocket ws) {
            rooms.subscribe(ws, room(ws)); // left by itself when the socket closes
            rooms.publishText(room(ws), "* " + ws.attachment(String.class) + " joined");
          }

          @Override public void onText(WebSocket ws, String text) {
            rooms.publishText(room(ws), ws.attachment(String.class) + ": " + text);
          }

          @Override public void onClose(WebSocket ws, int code, String reason) {
            rooms.publishText(room(ws), "* " + ws.attachment(String.class) + " left");
          }

          private String room(WebSocket ws) {
            return "room:" + ws.request().pathParam("room");
          }
        }, route -> route.maxMessageSize(MAX_MESSAGE)) // this route's limit; the rest the server's
        // JSON text made here (the core has no JSON library); the request knows its server.
        .get("/health", req -> HttpResponse.json(200,
            "{\"status\":\"up\",\"connections\":" + req.server().stats().connectionsOpen() + "}"))
        .start();
    System.out.println("rooms at ws://localhost:" + server.port() + "/rooms/{room}"
        + " (Authorization: Bearer TOKEN), health at http://localhost:" + server.port() + "/health");
    Thread.currentThread().join();
  }
}
