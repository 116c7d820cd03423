package dev.wsjava.jakarta.diff;

import jakarta.websocket.CloseReason;
import jakarta.websocket.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What the server side of a case saw (open, errors, close, configurator calls), keyed by the case's
 * connection id: the {@code cid} query parameter every scripted client puts on its request URI. All
 * three containers run in the test's JVM, so one static journal serves them all.
 */
final class Journal {
  private static final Map<String, List<String>> EVENTS = new ConcurrentHashMap<>();

  private Journal() {}

  /** The connection id of a session: its {@code cid} query parameter, or "none". */
  static String cid(Session session) {
    List<String> values = session.getRequestParameterMap().get("cid");
    return values == null || values.isEmpty() ? "none" : values.get(0);
  }

  static void add(String cid, String event) {
    List<String> list = EVENTS.computeIfAbsent(cid, k -> new ArrayList<>());
    synchronized (list) {
      list.add(event);
      list.notifyAll();
    }
  }

  static void add(Session session, String event) {
    add(cid(session), event);
  }

  static void open(Session session) {
    add(session, "open");
  }

  static void close(Session session, CloseReason reason) {
    add(session, "close:" + reason.getCloseCode().getCode());
  }

  static void error(Session session, Throwable t) {
    add(session, "error:" + Throwables.name(t));
  }

  /**
   * The events of {@code cid}, once one of them starts with {@code until} or {@code millis} have
   * passed (then the list as it is, which the transcript shows).
   */
  static List<String> await(String cid, String until, long millis) throws InterruptedException {
    List<String> list = EVENTS.computeIfAbsent(cid, k -> new ArrayList<>());
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    synchronized (list) {
      while (list.stream().noneMatch(e -> e.startsWith(until))) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          break;
        }
        list.wait(left);
      }
      return List.copyOf(list);
    }
  }

  /** The events so far. */
  static List<String> now(String cid) {
    List<String> list = EVENTS.computeIfAbsent(cid, k -> new ArrayList<>());
    synchronized (list) {
      return List.copyOf(list);
    }
  }
}
