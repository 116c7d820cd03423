package dev.wsjava.cli;

import dev.wsjava.Topics;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketListener;

/**
 * The {@code /topics} route of {@code wsjava serve}: a connection subscribes to the topics named
 * in {@code ?sub=a,b,c} (at most {@link #MAX_TOPICS}), and a text message {@code "TOPIC TEXT"}
 * publishes TEXT to TOPIC. A connection that comes back with a resume token is first resumed
 * ({@link Topics#resume(WebSocket)}): every topic it was in, from the offsets it presents. What
 * the resilience benchmark and the recovery tests drive; open to anyone, like {@code /echo}.
 */
final class TopicsRoute implements WebSocketListener {
  /** The most topics one connection subscribes to here (a resume token names at most 64). */
  static final int MAX_TOPICS = 64;

  private final Topics topics;

  TopicsRoute(Topics topics) {
    this.topics = topics;
  }

  @Override
  public void onOpen(WebSocket ws) {
    topics.resume(ws); // first: a topic it is resumed in is not subscribed again below
    String sub = ws.request().queryParam("sub");
    if (sub == null || sub.isEmpty()) {
      return;
    }
    String[] names = sub.split(",");
    if (names.length > MAX_TOPICS) {
      ws.close(dev.wsjava.CloseCode.POLICY_VIOLATION, "at most " + MAX_TOPICS + " topics");
      return;
    }
    for (String name : names) {
      if (!name.isEmpty()) {
        topics.subscribe(ws, name);
      }
    }
  }

  @Override
  public void onText(WebSocket ws, String text) {
    int sp = text.indexOf(' ');
    if (sp > 0 && text.lastIndexOf('\n', sp) < 0) { // a topic name holds no newline
      topics.publishText(text.substring(0, sp), text.substring(sp + 1));
    }
  }
}
