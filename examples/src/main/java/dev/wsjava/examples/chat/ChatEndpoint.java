package dev.wsjava.examples.chat;

import jakarta.websocket.CloseReason;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.Session;
import jakarta.websocket.server.PathParam;
import jakarta.websocket.server.ServerEndpoint;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A chat room as one writes it for Tomcat, Jetty or any Jakarta WebSocket container: nothing in
 * it names wsjava. Every text message goes to everyone in the same room; joins and leaves are
 * announced.
 */
@ServerEndpoint("/chat/{room}")
public class ChatEndpoint {
  private static final Map<String, Set<Session>> ROOMS = new ConcurrentHashMap<>();

  /** Made by the container, one per connection. */
  public ChatEndpoint() {}

  /**
   * Joins the room.
   *
   * @param session the new member
   * @param room the room's name, from the path
   */
  @OnOpen
  public void onOpen(Session session, @PathParam("room") String room) {
    ROOMS.computeIfAbsent(room, r -> ConcurrentHashMap.newKeySet()).add(session);
    broadcast(room, "* " + session.getId() + " joined " + room);
  }

  /**
   * Says something to the room.
   *
   * @param message what was said
   * @param session who said it
   * @param room the room
   */
  @OnMessage
  public void onMessage(String message, Session session, @PathParam("room") String room) {
    broadcast(room, session.getId() + ": " + message);
  }

  /**
   * Leaves the room.
   *
   * @param session the member leaving
   * @param reason why
   * @param room the room
   */
  @OnClose
  public void onClose(Session session, CloseReason reason, @PathParam("room") String room) {
    Set<Session> members = ROOMS.get(room);
    if (members != null) {
      members.remove(session);
    }
    broadcast(room, "* " + session.getId() + " left (" + reason.getCloseCode().getCode() + ")");
  }

  /**
   * Reports a failure.
   *
   * @param session the member
   * @param error what went wrong
   */
  @OnError
  public void onError(Session session, Throwable error) {
    System.err.println("chat: " + session.getId() + ": " + error);
  }

  private static void broadcast(String room, String text) {
    for (Session member : ROOMS.getOrDefault(room, Set.of())) {
      if (member.isOpen()) {
        member.getAsyncRemote().sendText(text); // never blocks: a slow member does not hold the room
      }
    }
  }
}
