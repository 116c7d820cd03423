package dev.wsjava.jakarta.diff;

import jakarta.websocket.WebSocketContainer;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** What a case script gets: the server's base URI, a fresh connection id, and helpers. */
final class Probe {
  private static final AtomicInteger IDS = new AtomicInteger();

  final URI base;
  final String cid;
  private final WebSocketContainer client;

  Probe(URI base, WebSocketContainer client) {
    this.base = base;
    this.client = client;
    this.cid = "c" + IDS.incrementAndGet();
  }

  /** The client container of the client-side cases (null in server cases). */
  WebSocketContainer client() {
    return client;
  }

  /** The path with this case's cid appended to its query. */
  String path(String path) {
    return path + (path.contains("?") ? "&" : "?") + "cid=" + cid;
  }

  /** ws://host:port/path?cid=... */
  URI uri(String path) {
    return URI.create(base + path(path));
  }

  RawClient open(String path) throws IOException {
    return open(path, Map.of());
  }

  RawClient open(String path, Map<String, String> headers) throws IOException {
    return RawClient.open(base, path(path), headers);
  }

  /** The server's journal for this cid, once an event starting with {@code until} is there. */
  String server(String until) throws InterruptedException {
    return "server" + Journal.await(cid, until, 3000);
  }

  /** The server's journal as it is now. */
  String serverNow() {
    return "server" + Journal.now(cid);
  }

  /** Joins strings and lists into one transcript line. */
  static String j(Object... parts) {
    List<String> out = new ArrayList<>();
    for (Object p : parts) {
      if (p instanceof Collection<?> c) {
        out.add(String.join(",", c.stream().map(String::valueOf).toList()));
      } else {
        out.add(String.valueOf(p));
      }
    }
    return String.join(" | ", out);
  }
}
