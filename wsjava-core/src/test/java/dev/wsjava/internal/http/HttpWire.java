package dev.wsjava.internal.http;

import dev.wsjava.http.HttpRequest;
import dev.wsjava.http.HttpResponse;
import dev.wsjava.handshake.HttpHead;
import dev.wsjava.handshake.HttpHeadLimits;
import dev.wsjava.handshake.HttpHeadParser;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Test helper: HTTP text to bytes and back, and what a connection queued. */
final class HttpWire {
  private HttpWire() {}

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  static ByteBuffer buffer(String s) {
    return ByteBuffer.wrap(bytes(s));
  }

  static String text(byte[] b) {
    return new String(b, StandardCharsets.ISO_8859_1);
  }

  static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    ByteBuffer out = ByteBuffer.allocate(n);
    for (byte[] p : parts) {
      out.put(p);
    }
    return out.array();
  }

  /** Takes everything a connection queued, as a writer would, and reports it written. */
  static String drain(HttpConnection<?> c) {
    ByteBuffer[] dst = new ByteBuffer[64];
    StringBuilder sb = new StringBuilder();
    while (c.hasOutbound()) {
      int n = c.gatherOutbound(dst, 0);
      long written = 0;
      for (int i = 0; i < n; i++) {
        written += dst[i].remaining();
        sb.append(StandardCharsets.ISO_8859_1.decode(dst[i]));
      }
      c.written(written);
    }
    return sb.toString();
  }

  /**
   * Writes out at most {@code max} of the queued bytes, as a socket that takes only part of a
   * gathering write does, checking the connection's count of queued bytes on the way.
   */
  static String drainSome(HttpConnection<?> c, long max) {
    ByteBuffer[] dst = new ByteBuffer[64];
    int n = c.gatherOutbound(dst, 0);
    long queued = 0;
    for (int i = 0; i < n; i++) {
      queued += dst[i].remaining();
    }
    if (n < dst.length && c.outboundBytes() != queued) {
      throw new AssertionError("outboundBytes " + c.outboundBytes() + " but queued " + queued);
    }
    StringBuilder sb = new StringBuilder();
    long written = 0;
    for (int i = 0; i < n && written < max; i++) {
      int take = (int) Math.min(dst[i].remaining(), max - written);
      ByteBuffer part = dst[i].slice(dst[i].position(), take);
      dst[i].position(dst[i].position() + take);
      sb.append(StandardCharsets.ISO_8859_1.decode(part));
      written += take;
    }
    c.written(written);
    return sb.toString();
  }

  /** Parses a request head, for tests that call a router or handler directly. */
  static Request request(String head) throws Exception {
    HttpHead.Request h = HttpHeadParser.forRequests(HttpHeadLimits.defaults()).parse(buffer(head));
    return Request.of(h, new byte[0]);
  }

  /** A GET request for a target, with a Host field. */
  static HttpRequest get(String target) throws Exception {
    return request("GET " + target + " HTTP/1.1\r\nHost: a.example\r\n\r\n");
  }

  /** The bytes a response is written as on a persistent HTTP/1.1 connection. */
  static String written(HttpResponse r) {
    return text(ResponseWriter.toBytes(r, true, null));
  }
}
