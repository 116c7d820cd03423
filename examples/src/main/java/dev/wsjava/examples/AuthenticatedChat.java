package dev.wsjava.examples;

import dev.wsjava.HandshakeDecision;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import dev.wsjava.http.HttpResponse;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A chat whose members are who their session cookie says: {@code GET /login?user=NAME} sets a
 * {@code session} cookie; the WebSocket upgrade to {@code /rooms/{room}} is refused 401 without a
 * known session, and accepted with the user attached to the socket otherwise. Messages go to the
 * room, prefixed with the sender's name.
 *
 * <p>Run: {@code examples/run AuthenticatedChat 8080}, open http://localhost:8080/login?user=ada in a browser,
 * then in its console: {@code new WebSocket("ws://localhost:8080/rooms/lobby")}.
 */
public final class AuthenticatedChat {
  private AuthenticatedChat() {}

  /** Who a session belongs to. */
  record User(String name) {}

  /**
   * Starts the server and runs until interrupted.
   *
   * @param args the port (default 8080, 0 for any free one)
   * @throws Exception when the server cannot start
   */
  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
    Map<String, User> sessions = new ConcurrentHashMap<>();
    Map<String, Set<WebSocket>> rooms = new ConcurrentHashMap<>();
    SecureRandom random = new SecureRandom();
    WebSocketServer server =
        WebSocketServer.builder()
            .bind("localhost", port)
            .get("/login", req -> {
              String name = req.queryParams().getOrDefault("user", java.util.List.of("")).get(0);
              if (name.isBlank()) {
                return HttpResponse.text(400, "say who you are: /login?user=NAME\n");
              }
              byte[] id = new byte[16];
              random.nextBytes(id);
              String session = HexFormat.of().formatHex(id);
              sessions.put(session, new User(name));
              return HttpResponse.text(200, "hello " + name + "\n")
                  .withHeader("Set-Cookie", "session=" + session + "; HttpOnly; SameSite=Strict; Path=/");
            })
            .allowOrigins("http://localhost:" + port)
            .onHandshake(req -> {
              User user = sessions.get(String.valueOf(req.cookie("session")));
              return user == null
                  ? HandshakeDecision.reject(401)
                      .header("WWW-Authenticate", "Cookie realm=\"chat\", login=\"/login\"")
                      .body("log in first: /login?user=NAME\n")
                  : HandshakeDecision.accept().attach(user);
            })
            .websocket("/rooms/{room}", new WebSocketListener() {
              @Override
              public void onOpen(WebSocket ws) {
                room(ws).add(ws);
              }

              @Override
              public void onText(WebSocket ws, String text) {
                String line = ws.attachment(User.class).name() + ": " + text;
                for (WebSocket member : room(ws)) {
                  member.sendText(line);
                }
              }

              @Override
              public void onClose(WebSocket ws, int code, String reason) {
                room(ws).remove(ws);
              }

              private Set<WebSocket> room(WebSocket ws) {
                return rooms.computeIfAbsent(
                    ws.request().pathParam("room"), r -> ConcurrentHashMap.newKeySet());
              }
            })
            .start();
    System.out.println("log in at http://localhost:" + server.port() + "/login?user=NAME, then"
        + " chat at ws://localhost:" + server.port() + "/rooms/{room}");
    Thread.currentThread().join();
  }
}
