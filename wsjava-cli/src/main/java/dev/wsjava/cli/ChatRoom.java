package dev.wsjava.cli;

import dev.wsjava.Topics;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketListener;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code /chat} route: every message goes to every member, the sender's too. Text goes out as
 * {@code nick: text} (the nickname comes from {@code ?nick=} in the URL, else {@code guest-N});
 * binary goes out unchanged; joins and leaves are announced as {@code * nick joined (N online)},
 * N counting this server's members.
 *
 * <p>The room is one topic of {@link Topics}: each message is encoded once for all members, and a
 * member that reads more slowly than the room talks (past the topics' queue bound) is closed with
 * 1008 (policy violation; 1013 would tell it to retry, which a reader that slow should not) while
 * the others go on. With a backplane ({@code wsjava serve --cluster}), the room spans every server
 * that shares it; with its history ({@code --history}), every message reaches members behind a
 * first line {@code "ID chat"}, and a member that comes back with {@code ?last=ID} first gets, on
 * any server, what was said since that message (or the gap signal {@code "- chat"} when the
 * history no longer holds it). With resume tokens (always on in {@code serve}), a member that
 * comes back with {@code ?resume=TOKEN&offsets=ID%20chat} is resumed by {@link
 * Topics#resume(WebSocket)} instead, on any server that shares the key.
 */
final class ChatRoom implements WebSocketListener {
  /** The topic of the room. */
  static final String TOPIC = "chat";
  private static final int MAX_NICK = 24;

  private final Topics topics;
  private final Map<WebSocket, String> members = new LinkedHashMap<>(); // nicknames, under this
  private final AtomicInteger guests = new AtomicInteger();

  /** A room on {@code topics}, whose policy for slow members should close them. */
  ChatRoom(Topics topics) {
    this.topics = topics;
  }

  @Override
  public void onOpen(WebSocket ws) {
    // An authenticated identity (serve --token / --basic-auth) names the member; else ?nick=.
    String given = ws.request().queryParam("nick");
    String nick = clean(ws.attachment() instanceof String user ? user : given == null ? "" : given);
    synchronized (this) { // the count and the announcement in one step, so they agree
      members.put(ws, nick);
      topics.resume(ws); // first: a topic it is resubscribed to here is not subscribed again below
      String last = ws.request().queryParam("last");
      if (last == null || last.isEmpty()) {
        topics.subscribe(ws, TOPIC);
      } else {
        topics.subscribe(ws, TOPIC, last); // what it missed, before the live messages
      }
      topics.publishText(TOPIC, "* " + nick + " joined (" + members.size() + " online)");
    }
  }

  @Override
  public void onText(WebSocket ws, String text) {
    String nick;
    synchronized (this) {
      nick = members.get(ws);
    }
    if (nick != null) {
      topics.publishText(TOPIC, nick + ": " + text);
    }
  }

  @Override
  public void onBinary(WebSocket ws, ByteBuffer data) {
    topics.publishBinary(TOPIC, data);
  }

  @Override
  public void onClose(WebSocket ws, int code, String reason) {
    synchronized (this) {
      String nick = members.remove(ws);
      if (nick != null) {
        topics.publishText(TOPIC, "* " + nick + " left (" + members.size() + " online)");
      }
    }
  }

  /** A name cut to letters, digits and {@code _.-}, at most 24 of them; guest-N when none is left. */
  String clean(String raw) {
    StringBuilder nick = new StringBuilder();
    raw.codePoints()
        .filter(c -> Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.')
        .limit(MAX_NICK)
        .forEach(nick::appendCodePoint);
    return nick.isEmpty() ? "guest-" + guests.incrementAndGet() : nick.toString();
  }

  /** The members' nicknames, for tests and logs. */
  synchronized List<String> nicknames() {
    return List.copyOf(members.values());
  }
}
