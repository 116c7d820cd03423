package dev.wsjava.jakarta.diff;

import static dev.wsjava.jakarta.diff.Probe.j;

import jakarta.websocket.ClientEndpoint;
import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.PongMessage;
import jakarta.websocket.Session;
import jakarta.websocket.WebSocketContainer;
import java.io.IOException;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The client-side cases: each container's own client container against {@link Endpoints} on each
 * server. A case's transcript is what the client endpoint saw, in order, and where it matters what
 * the server's journal saw.
 */
final class ClientCases {
  private ClientCases() {}

  /** What a client endpoint saw, in order; taken with a bounded wait. */
  static final class Recorder {
    final BlockingQueue<String> events = new LinkedBlockingQueue<>();

    void add(String e) {
      events.add(e);
    }

    /** The next event, or "NOTHING" after 3 s. */
    String next() throws InterruptedException {
      String e = events.poll(3, TimeUnit.SECONDS);
      return e == null ? "NOTHING" : e;
    }

    /** Events until one starts with {@code prefix} (included), at most 3 s per event. */
    List<String> until(String prefix) throws InterruptedException {
      List<String> out = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        String e = next();
        out.add(e);
        if (e.startsWith(prefix) || e.equals("NOTHING")) {
          break;
        }
      }
      return out;
    }
  }

  /** An annotated client endpoint recording text, binary, pongs, errors and close. */
  @ClientEndpoint
  public static class Annotated {
    final Recorder rec = new Recorder();
    volatile Session session;

    /** For the container. */
    public Annotated() {}

    @OnOpen
    public void open(Session s) {
      session = s;
      rec.add("open");
    }

    @OnMessage
    public void text(String t) {
      rec.add("text:" + t);
    }

    @OnMessage
    public void binary(ByteBuffer b) {
      rec.add("binary:" + b.remaining());
    }

    @OnMessage
    public void pong(PongMessage p) {
      rec.add("pong:" + StandardCharsets.UTF_8.decode(p.getApplicationData()));
    }

    @OnError
    public void error(Throwable t) {
      rec.add("error:" + Throwables.name(t));
    }

    @OnClose
    public void close(CloseReason r) {
      rec.add("close:" + r.getCloseCode().getCode() + ":" + r.getReasonPhrase());
    }
  }

  /** Connected by class: the container makes the instance. */
  @ClientEndpoint
  public static class ByClass {
    static final Recorder REC = new Recorder();

    /** For the container. */
    public ByClass() {}

    @OnOpen
    public void open(Session s) throws IOException {
      s.getBasicRemote().sendText("echo by-class");
    }

    @OnMessage
    public void text(String t) {
      REC.add("text:" + t);
    }
  }

  /** Client coders (§4.2). */
  @ClientEndpoint(decoders = Point.TextDecoder.class, encoders = Point.TextEncoder.class)
  public static class Coded {
    final Recorder rec = new Recorder();

    /** For the container. */
    public Coded() {}

    @OnMessage
    public void point(Point p) {
      rec.add("point:" + p);
    }
  }

  /** Partial text on the client. */
  @ClientEndpoint
  public static class PartialClient {
    final Recorder rec = new Recorder();

    /** For the container. */
    public PartialClient() {}

    @OnMessage
    public void part(String part, boolean last) {
      rec.add("part:" + part + ":" + last);
    }
  }

  /** A Reader on the client. */
  @ClientEndpoint
  public static class ReaderClient {
    final Recorder rec = new Recorder();

    /** For the container. */
    public ReaderClient() {}

    @OnMessage
    public void text(Reader r) throws IOException {
      StringBuilder sb = new StringBuilder();
      for (int c; (c = r.read()) != -1; ) {
        sb.append((char) c);
      }
      rec.add("reader:" + sb);
    }
  }

  /** A programmatic client endpoint. */
  static final class Programmatic extends Endpoint {
    final Recorder rec = new Recorder();
    volatile Session session;

    @Override
    public void onOpen(Session s, EndpointConfig config) {
      session = s;
      s.addMessageHandler(String.class, t -> rec.add("text:" + t));
    }

    @Override
    public void onClose(Session s, CloseReason r) {
      rec.add("close:" + r.getCloseCode().getCode() + ":" + r.getReasonPhrase());
    }

    @Override
    public void onError(Session s, Throwable t) {
      rec.add("error:" + Throwables.name(t));
    }
  }

  private static Session connect(Probe p, Object endpoint, String path) throws Exception {
    return p.client().connectToServer(endpoint, p.uri(path));
  }

  static List<Case> all() {
    List<Case> cs = new ArrayList<>();
    cs.add(Case.of("C01", "4.2, 2.1.7", "annotated instance: echo", p -> {
      Annotated a = new Annotated();
      Session s = connect(p, a, "/cmd");
      s.getBasicRemote().sendText("echo hi");
      List<String> got = a.rec.until("text:");
      s.close();
      return j(got, a.rec.until("close"));
    }));
    cs.add(Case.of("C02", "4.2, 2.1.7", "annotated class: the container makes it", p -> {
      ByClass.REC.events.clear();
      Session s = p.client().connectToServer(ByClass.class, p.uri("/cmd"));
      String got = ByClass.REC.next();
      s.close();
      return got;
    }));
    cs.add(Case.of("C03", "3.2.3", "configurator beforeRequest/afterResponse", p -> {
      Programmatic e = new Programmatic();
      List<String> after = new ArrayList<>();
      ClientEndpointConfig cfg = ClientEndpointConfig.Builder.create()
          .configurator(new ClientEndpointConfig.Configurator() {
            @Override
            public void beforeRequest(Map<String, List<String>> headers) {
              headers.put("X-Probe", List.of("from-client"));
            }

            @Override
            public void afterResponse(HandshakeResponse hr) {
              List<String> v = hr.getHeaders().get("X-Seen");
              if (v == null) {
                v = hr.getHeaders().get("x-seen");
              }
              after.add("afterResponse:x-seen=" + v);
            }
          }).build();
      Session s = p.client().connectToServer(e, cfg, p.uri("/configured"));
      String first = e.rec.next();
      s.close();
      return j(after, first);
    }));
    cs.add(Case.of("C04", "3.2.1", "preferred subprotocols", p -> {
      Programmatic e = new Programmatic();
      ClientEndpointConfig cfg = ClientEndpointConfig.Builder.create()
          .preferredSubprotocols(List.of("superchat", "chat")).build();
      Session s = p.client().connectToServer(e, cfg, p.uri("/configured"));
      String first = e.rec.next();
      String sub = s.getNegotiatedSubprotocol();
      s.close();
      return j("client-sub=" + sub, first);
    }));
    cs.add(Case.of("C05", "4.2, 4.1.2, 4.1.3", "client encoder and decoder", p -> {
      Coded c = new Coded();
      Session s = connect(p, c, "/decoded/text");
      s.getBasicRemote().sendObject(new Point(1, 2));
      String got = c.rec.next();
      s.close();
      return got;
    }));
    cs.add(Case.of("C06", "2.1.3", "partial text from a three-frame message", p -> {
      PartialClient c = new PartialClient();
      Session s = connect(p, c, "/cmd");
      s.getBasicRemote().sendText("partial");
      List<String> got = c.rec.until("part:ef");
      s.close();
      String joined = String.join("", got.stream().map(x -> x.split(":")[1]).toList());
      return "parts=" + got.size() + ";text=" + joined + ";lastFlagged="
          + got.get(got.size() - 1).endsWith(":true");
    }));
    cs.add(Case.of("C07", "2.1.3, 2.2.5", "client ping: the pong reaches the PongMessage method",
        p -> {
          Annotated a = new Annotated();
          Session s = connect(p, a, "/cmd");
          s.getBasicRemote().sendPing(ByteBuffer.wrap("cp".getBytes(StandardCharsets.UTF_8)));
          List<String> got = a.rec.until("pong");
          s.close();
          return j(got);
        }));
    cs.add(Case.of("C08", "2.1.5, 4.5", "server close(4000, bye) reaches @OnClose", p -> {
      Annotated a = new Annotated();
      Session s = connect(p, a, "/cmd");
      s.getBasicRemote().sendText("close 4000 bye");
      List<String> got = a.rec.until("close");
      return j(got, "open=" + s.isOpen());
    }));
    cs.add(Case.of("C09", "2.1.5", "client close(4001, cx) reaches the server", p -> {
      Annotated a = new Annotated();
      Session s = connect(p, a, "/cmd");
      s.close(new CloseReason(CloseReason.CloseCodes.getCloseCode(4001), "cx"));
      List<String> got = a.rec.until("close");
      return j(got, p.server("close"));
    }));
    cs.add(Case.of("C10", "2.1.4", "binary ByteBuffer echo", p -> {
      Annotated a = new Annotated();
      Session s = connect(p, a, "/bin/array");
      s.getBasicRemote().sendBinary(ByteBuffer.wrap(new byte[1000]));
      List<String> got = a.rec.until("binary");
      s.close();
      return j(got);
    }));
    cs.add(Case.of("C11", "2.1.4", "async send: the future completes, the echo arrives", p -> {
      Annotated a = new Annotated();
      Session s = connect(p, a, "/cmd");
      s.getAsyncRemote().sendText("echo async").get(3, TimeUnit.SECONDS);
      List<String> got = a.rec.until("text:");
      s.close();
      return j(got);
    }));
    cs.add(Case.of("C12", "2.1.7, 5.2.3", "client max text buffer 8: a 20-char message closes "
        + "1009", p -> {
          WebSocketContainer c = p.client();
          int before = c.getDefaultMaxTextMessageBufferSize();
          c.setDefaultMaxTextMessageBufferSize(8);
          try {
            Annotated a = new Annotated();
            Session s = connect(p, a, "/cmd");
            s.getBasicRemote().sendText("echo " + "y".repeat(20));
            List<String> got = a.rec.until("close");
            return j(got.stream().map(x -> x.startsWith("close:") ? x.split(":")[0] + ":"
                + x.split(":")[1] : x).toList());
          } finally {
            c.setDefaultMaxTextMessageBufferSize(before);
          }
        }));
    cs.add(Case.of("C13", "2.1.7", "no endpoint at the path: connectToServer throws", p -> {
      try {
        connect(p, new Annotated(), "/nowhere");
        return "connected";
      } catch (Exception e) {
        return "threw " + e.getClass().getSimpleName();
      }
    }));
    cs.add(Case.of("C14", "2.1.2", "client getOpenSessions holds the session", p -> {
      Annotated a = new Annotated();
      Session s = connect(p, a, "/cmd");
      boolean in = s.getOpenSessions().contains(s);
      s.close();
      return "self=" + in;
    }));
    cs.add(Case.of("C15", "2.1.5", "client idle timeout closes", p -> {
      Annotated a = new Annotated();
      Session s = connect(p, a, "/cmd");
      s.setMaxIdleTimeout(300);
      List<String> got = a.rec.until("close");
      return j(got.stream().map(x -> x.startsWith("close:") ? x.split(":")[0] + ":"
          + x.split(":")[1] : x).toList(), p.server("close").replaceAll(":[^,\\]]*\\]", "]"));
    }));
    cs.add(Case.of("C16", "2.1.2", "client session: version, secure, request URI, subprotocol",
        p -> {
          Annotated a = new Annotated();
          Session s = connect(p, a, "/cmd");
          String info = "proto=" + s.getProtocolVersion() + ";secure=" + s.isSecure()
              + ";path=" + s.getRequestURI().getPath() + ";sub=[" + s.getNegotiatedSubprotocol()
              + "]";
          s.close();
          return info;
        }));
    cs.add(Case.of("C17", "2.1.3", "whole text handler gets a three-frame message whole", p -> {
      Annotated a = new Annotated();
      Session s = connect(p, a, "/cmd");
      s.getBasicRemote().sendText("partial");
      List<String> got = a.rec.until("text:");
      s.close();
      return j(got);
    }));
    cs.add(Case.of("C18", "2.1.3", "Reader handler on the client", p -> {
      ReaderClient r = new ReaderClient();
      Session s = connect(p, r, "/cmd");
      s.getBasicRemote().sendText("echo streamed text");
      String got = r.rec.next();
      s.close();
      return got;
    }));
    cs.add(Case.of("C19", "2.1.4", "client partial sendText", p -> {
      Annotated a = new Annotated();
      Session s = connect(p, a, "/partial/text");
      s.getBasicRemote().sendText("he", false);
      s.getBasicRemote().sendText("llo", true);
      String got = a.rec.until("text:").toString();
      s.close();
      return got;
    }));
    cs.add(Case.of("C20", "2.1.5", "server exception with no @OnError: the client sees 1011",
        p -> {
          Annotated a = new Annotated();
          Session s = connect(p, a, "/cmd-noerror");
          s.getBasicRemote().sendText("throw");
          List<String> got = a.rec.until("close");
          return j(got.stream().map(x -> x.startsWith("close:") ? x.split(":")[0] + ":"
              + x.split(":")[1] : x).toList());
        }));
    return cs;
  }
}
