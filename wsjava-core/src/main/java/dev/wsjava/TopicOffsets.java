package dev.wsjava;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The client's half of {@link Topics#resume(WebSocket)}, for a reconnecting client built with
 * {@link WebSocketClient.Builder#resumeTopics()}: keeps the latest resume token ({@code "+
 * <token>\n"}, not shown to the application) and, per topic, the id of the last message seen
 * (the first line {@code "<id> <topic>\n"} of {@link Topics.Envelope#LINE}); drops a message
 * whose id is not after the last one seen on its topic; and puts both into the query of the next
 * connection's URI.
 *
 * <p>Ids are compared as the backplanes of this project make them: decimal numbers joined by
 * {@code '-'} (Redis {@code 1712345678901-0}, a JetStream sequence {@code 42}), part by part. An
 * id of another form is remembered but never taken for a repeat.
 *
 * <p>Thread-safe: guarded by its monitor.
 */
final class TopicOffsets {
  private static final int MAX_FIRST_LINE = 1024;

  private String token; // guarded by this
  private final Map<String, String> last = // topic -> last id, least recently seen first
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
          return size() > ResumeTokens.MAX_TOPICS;
        }
      };

  /**
   * Takes a text message in: false when the application must not see it (a token, or a message
   * of a topic at or before the last id seen there).
   */
  synchronized boolean accept(String text) {
    if (text.length() > 2 && text.charAt(0) == '+' && text.charAt(1) == ' '
        && text.charAt(text.length() - 1) == '\n') {
      token = text.substring(2, text.length() - 1);
      return false;
    }
    int nl = text.indexOf('\n');
    return nl < 0 || nl > MAX_FIRST_LINE || seen(text.substring(0, nl));
  }

  /** Takes a binary message in: false when it repeats one already seen on its topic. */
  synchronized boolean accept(ByteBuffer data) {
    int end = Math.min(data.limit(), data.position() + MAX_FIRST_LINE);
    for (int i = data.position(); i < end; i++) {
      if (data.get(i) == '\n') {
        byte[] line = new byte[i - data.position()];
        data.duplicate().get(line);
        return seen(new String(line, StandardCharsets.UTF_8));
      }
    }
    return true;
  }

  /** A first line {@code "<id> <topic>"}: true when it is new. The gap signal's id is "-". */
  private boolean seen(String line) {
    int sp = line.indexOf(' ');
    if (sp <= 0) {
      return true;
    }
    String id = line.substring(0, sp);
    String topic = line.substring(sp + 1);
    if (id.equals("-")) {
      return true; // a gap: the next message sets where it stands
    }
    String before = last.get(topic);
    if (before != null && compare(id, before) <= 0) {
      return false;
    }
    last.put(topic, id);
    return true;
  }

  /** The id last seen on {@code topic}, or null. */
  synchronized String lastId(String topic) {
    return last.get(topic);
  }

  /**
   * {@code uri} with the token and offsets in its query, once there is a token; before, with an
   * empty {@code resume} parameter, which asks the server for tokens.
   */
  synchronized URI resumeUri(URI uri) {
    StringBuilder query = new StringBuilder();
    String old = uri.getRawQuery();
    if (old != null) {
      for (String pair : old.split("&")) {
        if (!pair.isEmpty() && !pair.startsWith(Topics.RESUME_PARAM + "=")
            && !pair.startsWith(Topics.OFFSETS_PARAM + "=")) {
          query.append(pair).append('&');
        }
      }
    }
    StringBuilder lines = new StringBuilder();
    last.forEach((topic, id) -> lines.append(id).append(' ').append(topic).append('\n'));
    query.append(Topics.RESUME_PARAM).append('=').append(token == null ? "" : token);
    if (token != null && !lines.isEmpty()) {
      query.append('&').append(Topics.OFFSETS_PARAM).append('=')
          .append(URLEncoder.encode(lines.toString(), StandardCharsets.UTF_8));
    }
    String s = uri.toString();
    int cut = s.indexOf('?');
    int hash = s.indexOf('#');
    String base = cut >= 0 ? s.substring(0, cut) : hash >= 0 ? s.substring(0, hash) : s;
    return URI.create(base + "?" + query);
  }

  /**
   * Orders two ids of decimal parts joined by '-', part by part; an id of another form orders
   * after everything (never a repeat).
   */
  static int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() || j < b.length()) {
      int ei = a.indexOf('-', i);
      int ej = b.indexOf('-', j);
      ei = ei < 0 ? a.length() : ei;
      ej = ej < 0 ? b.length() : ej;
      if (!digits(a, i, ei) || !digits(b, j, ej)) {
        return 1;
      }
      // Without leading zeros, a longer number is larger; equal lengths compare as text.
      String pa = strip(a.substring(i, ei));
      String pb = strip(b.substring(j, ej));
      int c = pa.length() != pb.length() ? Integer.compare(pa.length(), pb.length()) : pa.compareTo(pb);
      if (c != 0) {
        return c;
      }
      i = ei + 1;
      j = ej + 1;
    }
    return 0;
  }

  private static boolean digits(String s, int from, int to) {
    if (from >= to) {
      return false;
    }
    for (int k = from; k < to; k++) {
      char c = s.charAt(k);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  private static String strip(String n) {
    int k = 0;
    while (k < n.length() - 1 && n.charAt(k) == '0') {
      k++;
    }
    return n.substring(k);
  }
}
