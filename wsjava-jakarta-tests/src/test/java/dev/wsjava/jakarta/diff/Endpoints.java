package dev.wsjava.jakarta.diff;

import jakarta.websocket.CloseReason;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.Extension;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.PongMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.HandshakeRequest;
import jakarta.websocket.server.PathParam;
import jakarta.websocket.server.ServerEndpoint;
import jakarta.websocket.server.ServerEndpointConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The endpoint classes every container deploys, unchanged: each case talks to one of them. Every
 * endpoint journals open, errors and close under the connection's {@code cid} (see {@link Journal}).
 */
public final class Endpoints {
  private Endpoints() {}

  /** The annotated endpoint classes. */
  static final List<Class<?>> ANNOTATED = List.of(Cmd.class, CmdNoOnError.class, BinArray.class,
      BinBuffer.class, ReaderEcho.class, StreamEcho.class, PartialText.class, PartialBinary.class,
      Pong.class, DecodedText.class, DecodedTextStream.class, DecodedBinary.class,
      DecodedBinaryStream.class, Primitive.class, Params.class, UriExact.class, UriVarMiddle.class,
      UriTwoVars.class, UriAb.class, UriOneVar.class, Configured.class, MaxSize.class,
      MaxSizeBinary.class, OpenThrows.class, TextOnly.class, ConfigProps.class, Counting.class,
      SessionFirst.class, BoolMessage.class, NoExtensions.class);

  /** The programmatic endpoints (§2.1, §6.4). */
  static List<ServerEndpointConfig> programmatic() {
    return List.of(ServerEndpointConfig.Builder.create(Programmatic.class, "/prog")
        .subprotocols(List.of("p1", "p2")).build());
  }

  private static String sortedParams(Map<String, List<String>> map) {
    return new TreeMap<>(map).toString();
  }

  /**
   * Text commands that drive the session API from the server side: each case sends one or more.
   */
  @ServerEndpoint("/cmd")
  public static class Cmd {
    /** For the container. */
    public Cmd() {}

    @OnOpen
    public void open(Session s) {
      Journal.open(s);
    }

    @OnMessage
    public String message(String text, Session s) throws Exception {
      return Commands.run(text, s);
    }

    @OnError
    public void error(Session s, Throwable t) {
      Journal.error(s, t);
    }

    @OnClose
    public void close(Session s, CloseReason r) {
      // The reason without the characters the transcripts use as separators.
      Journal.add(s, "close:" + r.getCloseCode().getCode() + ":"
          + r.getReasonPhrase().replaceAll("[\\[\\],]", "_"));
    }
  }

  /** The same commands with no {@code @OnError}: what the container does with the exception. */
  @ServerEndpoint("/cmd-noerror")
  public static class CmdNoOnError {
    /** For the container. */
    public CmdNoOnError() {}

    @OnOpen
    public void open(Session s) {
      Journal.open(s);
    }

    @OnMessage
    public String message(String text, Session s) throws Exception {
      return Commands.run(text, s);
    }

    @OnClose
    public void close(Session s, CloseReason r) {
      Journal.close(s, r);
    }
  }

  /** What {@link Cmd} understands. */
  static final class Commands {
    private Commands() {}

    static String run(String text, Session s) throws Exception {
      String[] w = text.split(" ", 3);
      String arg = w.length > 1 ? text.substring(w[0].length() + 1) : "";
      switch (w[0]) {
        case "echo":
          return arg;
        case "close":
          s.close(new CloseReason(CloseReason.CloseCodes.getCloseCode(Integer.parseInt(w[1])),
              w.length > 2 ? w[2] : ""));
          return null;
        case "close-default":
          s.close();
          return null;
        case "throw":
          throw new IllegalStateException("boom");
        case "throw-checked":
          throw new IOException("checked boom");
        case "ping":
          s.getBasicRemote().sendPing(ByteBuffer.wrap(arg.getBytes(StandardCharsets.UTF_8)));
          return "pinged";
        case "pong":
          s.getBasicRemote().sendPong(ByteBuffer.wrap(arg.getBytes(StandardCharsets.UTF_8)));
          return "ponged";
        case "partial":
          s.getBasicRemote().sendText("ab", false);
          s.getBasicRemote().sendText("cd", false);
          s.getBasicRemote().sendText("ef", true);
          return null;
        case "partial-binary":
          s.getBasicRemote().sendBinary(ByteBuffer.wrap(new byte[] {1, 2}), false);
          s.getBasicRemote().sendBinary(ByteBuffer.wrap(new byte[] {3}), true);
          return null;
        case "async":
          s.getAsyncRemote().sendText(arg).get(5, TimeUnit.SECONDS);
          return "async-done";
        case "async-handler":
          // The acknowledgement goes out from the SendHandler itself: an endpoint that waits in
          // this callback for its own handler deadlocks an event-loop container (wsjava's NIO
          // transport writes after the callback returns). docs/JAKARTA-DIFFERENTIAL.md, "Known
          // limitation".
          s.getAsyncRemote().sendText(arg, r -> s.getAsyncRemote().sendText("ok=" + r.isOK()
              + ";session=" + (r.getSession() == s)));
          return null;
        case "info":
          return "proto=" + s.getProtocolVersion() + ";sub=" + s.getNegotiatedSubprotocol()
              + ";secure=" + s.isSecure() + ";open=" + s.isOpen() + ";query="
              + s.getQueryString() + ";params=" + sortedParams(s.getRequestParameterMap())
              + ";path=" + new TreeMap<>(s.getPathParameters()) + ";idFresh="
              + (s.getId() != null && !s.getId().isEmpty());
        case "uri":
          return s.getRequestURI().getPath() + "?" + s.getRequestURI().getQuery();
        case "uri-scheme":
          return String.valueOf(s.getRequestURI().getScheme());
        case "open-sessions":
          return "self=" + s.getOpenSessions().contains(s) + ";allOpen="
              + s.getOpenSessions().stream().allMatch(Session::isOpen);
        case "props-set":
          s.getUserProperties().put("k", arg);
          return "set";
        case "props-get":
          return "k=" + s.getUserProperties().get("k");
        case "idle":
          s.setMaxIdleTimeout(Long.parseLong(arg));
          return "idle=" + s.getMaxIdleTimeout();
        case "object":
          s.getBasicRemote().sendObject(arg);
          return null;
        case "object-int":
          s.getBasicRemote().sendObject(Integer.valueOf(arg));
          return null;
        case "writer":
          try (Writer out = s.getBasicRemote().getSendWriter()) {
            out.write("w1");
            out.flush();
            out.write("w2");
          }
          return null;
        case "stream":
          try (OutputStream out = s.getBasicRemote().getSendStream()) {
            out.write(new byte[] {1, 2});
            out.write(new byte[] {3});
          }
          return null;
        case "extensions":
          List<String> names = new ArrayList<>();
          for (Extension e : s.getNegotiatedExtensions()) {
            names.add(e.getName());
          }
          return "ext=" + names;
        case "buffers":
          return "text=" + (s.getMaxTextMessageBufferSize() > 0) + ";binary="
              + (s.getMaxBinaryMessageBufferSize() > 0);
        case "container-idle":
          return "idle=" + s.getContainer().getDefaultMaxSessionIdleTimeout();
        case "send-after-close":
          s.close();
          try {
            s.getBasicRemote().sendText("late");
            return null;
          } catch (Exception e) {
            Journal.add(s, "send-after-close:" + e.getClass().getSimpleName());
            return null;
          } 
        case "binary-echo-return":
          return null;
        default:
          return "unknown:" + w[0];
      }
    }
  }

  /** {@code byte[]} whole binary messages, returned. */
  @ServerEndpoint("/bin/array")
  public static class BinArray {
    /** For the container. */
    public BinArray() {}

    @OnMessage
    public byte[] message(byte[] data) {
      return data;
    }

    @OnMessage
    public String text(String text) {
      return "text:" + text;
    }
  }

  /** {@code ByteBuffer} whole binary messages, returned. */
  @ServerEndpoint("/bin/buffer")
  public static class BinBuffer {
    /** For the container. */
    public BinBuffer() {}

    @OnMessage
    public ByteBuffer message(ByteBuffer data) {
      ByteBuffer copy = ByteBuffer.allocate(data.remaining() + 1);
      copy.put((byte) data.remaining()).put(data).flip();
      return copy;
    }
  }

  /** A {@code Reader} per text message. */
  @ServerEndpoint("/stream/reader")
  public static class ReaderEcho {
    /** For the container. */
    public ReaderEcho() {}

    @OnMessage
    public String message(Reader reader) throws IOException {
      StringBuilder sb = new StringBuilder();
      char[] buf = new char[7];
      for (int n; (n = reader.read(buf)) != -1; ) {
        sb.append(buf, 0, n);
      }
      return "reader:" + sb;
    }
  }

  /** An {@code InputStream} per binary message. */
  @ServerEndpoint("/stream/input")
  public static class StreamEcho {
    /** For the container. */
    public StreamEcho() {}

    @OnMessage
    public String message(InputStream in) throws IOException {
      return "bytes=" + in.readAllBytes().length;
    }
  }

  /** Partial text: the parts' boundaries as the container delivered them. */
  @ServerEndpoint("/partial/text")
  public static class PartialText {
    private final StringBuilder parts = new StringBuilder();

    /** For the container. */
    public PartialText() {}

    @OnMessage
    public void message(String part, boolean last, Session s) throws IOException {
      parts.append('[').append(part).append(']');
      if (last) {
        String all = parts.toString();
        parts.setLength(0);
        s.getBasicRemote().sendText("parts=" + all);
      }
    }
  }

  /** Partial binary: the parts' sizes. */
  @ServerEndpoint("/partial/binary")
  public static class PartialBinary {
    private final StringBuilder parts = new StringBuilder();

    /** For the container. */
    public PartialBinary() {}

    @OnMessage
    public void message(byte[] part, boolean last, Session s) throws IOException {
      parts.append('[').append(part.length).append(']');
      if (last) {
        String all = parts.toString();
        parts.setLength(0);
        s.getBasicRemote().sendText("parts=" + all);
      }
    }
  }

  /** {@code PongMessage} and text in one endpoint. */
  @ServerEndpoint("/pong")
  public static class Pong {
    /** For the container. */
    public Pong() {}

    // void: the OnMessage javadoc allows a pong method no return value (wsjava enforces it).
    @OnMessage
    public void pong(PongMessage pong, Session s) throws IOException {
      ByteBuffer data = pong.getApplicationData();
      byte[] bytes = new byte[data.remaining()];
      data.get(bytes);
      s.getBasicRemote().sendText("pong:" + new String(bytes, StandardCharsets.UTF_8));
    }

    @OnMessage
    public String text(String text) {
      return "text:" + text;
    }
  }

  /** A text decoder and encoder; text no decoder will take goes to the String method. */
  @ServerEndpoint(value = "/decoded/text", decoders = Point.TextDecoder.class,
      encoders = Point.TextEncoder.class)
  public static class DecodedText {
    /** For the container. */
    public DecodedText() {}

    @OnOpen
    public void open(Session s) {
      Journal.open(s);
    }

    @OnMessage
    public Point point(Point p) {
      return p.next();
    }

    @OnError
    public void error(Session s, Throwable t) {
      Journal.error(s, t);
    }

    @OnClose
    public void close(Session s, CloseReason r) {
      Journal.close(s, r);
    }
  }

  /** A text stream decoder and encoder. */
  @ServerEndpoint(value = "/decoded/textstream", decoders = Point.TextStreamDecoder.class,
      encoders = Point.TextStreamEncoder.class)
  public static class DecodedTextStream {
    /** For the container. */
    public DecodedTextStream() {}

    @OnOpen
    public void open(Session s) {
      Journal.open(s);
    }

    @OnMessage
    public Point point(Point p) {
      return p.next();
    }

    @OnError
    public void error(Session s, Throwable t) {
      Journal.error(s, t);
    }

    @OnClose
    public void close(Session s, CloseReason r) {
      Journal.close(s, r);
    }
  }

  /** A binary decoder and encoder. */
  @ServerEndpoint(value = "/decoded/binary", decoders = Point.BinaryDecoder.class,
      encoders = Point.BinaryEncoder.class)
  public static class DecodedBinary {
    /** For the container. */
    public DecodedBinary() {}

    @OnOpen
    public void open(Session s) {
      Journal.open(s);
    }

    @OnMessage
    public Point point(Point p) {
      return p.next();
    }

    @OnError
    public void error(Session s, Throwable t) {
      Journal.error(s, t);
    }

    @OnClose
    public void close(Session s, CloseReason r) {
      Journal.close(s, r);
    }
  }

  /** A binary stream decoder and encoder. */
  @ServerEndpoint(value = "/decoded/binarystream", decoders = Point.BinaryStreamDecoder.class,
      encoders = Point.BinaryStreamEncoder.class)
  public static class DecodedBinaryStream {
    /** For the container. */
    public DecodedBinaryStream() {}

    @OnMessage
    public Point point(Point p) {
      return p.next();
    }
  }

  /** A primitive parameter and return value (text decoded by the container, §4.7). */
  @ServerEndpoint("/primitive")
  public static class Primitive {
    /** For the container. */
    public Primitive() {}

    @OnOpen
    public void open(Session s) {
      Journal.open(s);
    }

    @OnMessage
    public int message(int n) {
      return n + 1;
    }

    @OnError
    public void error(Session s, Throwable t) {
      Journal.error(s, t);
    }

    @OnClose
    public void close(Session s, CloseReason r) {
      Journal.close(s, r);
    }
  }

  /** A boxed Boolean parameter. */
  @ServerEndpoint("/bool")
  public static class BoolMessage {
    /** For the container. */
    public BoolMessage() {}

    @OnMessage
    public String message(Boolean b) {
      return "bool=" + b;
    }
  }

  /** Session as the first parameter, message second. */
  @ServerEndpoint("/session-first")
  public static class SessionFirst {
    /** For the container. */
    public SessionFirst() {}

    @OnMessage
    public void message(Session s, String text) throws IOException {
      s.getBasicRemote().sendText("sf:" + text);
    }
  }

  /** Path parameters: a String and an int (§4.3). */
  @ServerEndpoint("/params/{a}/{b}")
  public static class Params {
    /** For the container. */
    public Params() {}

    @OnOpen
    public void open(Session s, @PathParam("a") String a) {
      Journal.add(s, "open:a=" + a);
    }

    @OnMessage
    public String message(String m, @PathParam("a") String a, @PathParam("b") int b,
        @PathParam("missing") String missing) {
      return "a=" + a + ";b=" + b + ";missing=" + missing + ";m=" + m;
    }

    @OnError
    public void error(Session s, Throwable t) {
      Journal.error(s, t);
    }

    @OnClose
    public void close(Session s, CloseReason r, @PathParam("b") String b) {
      Journal.add(s, "close:" + r.getCloseCode().getCode() + ":b=" + b);
    }
  }

  /** §3.1.1's example, endpoint B: the exact path. */
  @ServerEndpoint("/uri/a/b/c")
  public static class UriExact {
    /** For the container. */
    public UriExact() {}

    @OnOpen
    public void open(Session s) throws IOException {
      s.getBasicRemote().sendText("exact");
    }
  }

  /** §3.1.1's example, endpoint A. */
  @ServerEndpoint("/uri/a/{var}/c")
  public static class UriVarMiddle {
    /** For the container. */
    public UriVarMiddle() {}

    @OnOpen
    public void open(Session s, @PathParam("var") String var) throws IOException {
      s.getBasicRemote().sendText("var-middle:" + var);
    }
  }

  /** §3.1.1's example, endpoint C. */
  @ServerEndpoint("/uri/a/{var1}/{var2}")
  public static class UriTwoVars {
    /** For the container. */
    public UriTwoVars() {}

    @OnOpen
    public void open(Session s, @PathParam("var1") String v1, @PathParam("var2") String v2)
        throws IOException {
      s.getBasicRemote().sendText("two-vars:" + v1 + "," + v2);
    }
  }

  /** A shorter exact path. */
  @ServerEndpoint("/uri/a/b")
  public static class UriAb {
    /** For the container. */
    public UriAb() {}

    @OnOpen
    public void open(Session s) throws IOException {
      s.getBasicRemote().sendText("ab");
    }
  }

  /** One variable segment. */
  @ServerEndpoint("/uri/{x}")
  public static class UriOneVar {
    /** For the container. */
    public UriOneVar() {}

    @OnOpen
    public void open(Session s, @PathParam("x") String x) throws IOException {
      s.getBasicRemote().sendText("one-var:" + x);
    }
  }

  /** The configurator of {@link Configured}: journals every call, in order. */
  public static class JournalingConfigurator extends ServerEndpointConfig.Configurator {
    /** For the container. */
    public JournalingConfigurator() {}

    private static String cid(String query) {
      if (query == null) {
        return "none";
      }
      for (String p : query.split("&")) {
        if (p.startsWith("cid=")) {
          return p.substring(4);
        }
      }
      return "none";
    }

    @Override
    public boolean checkOrigin(String origin) {
      return !"http://evil.example".equals(origin);
    }

    @Override
    public void modifyHandshake(ServerEndpointConfig sec, HandshakeRequest request,
        HandshakeResponse response) {
      String cid = cid(request.getQueryString());
      Journal.add(cid, "modifyHandshake");
      List<String> probe = request.getHeaders().get("X-Probe");
      List<String> lower = request.getHeaders().get("x-probe");
      if (probe != null && !probe.isEmpty()) {
        response.getHeaders().put("X-Seen", List.of(probe + "/" + lower));
        sec.getUserProperties().put("probe-" + cid, String.valueOf(probe));
      }
      Journal.add(cid, "absent=" + request.getHeaders().get("X-Absent") + ";");
      Journal.add(cid, "request:uri=" + request.getRequestURI().getPath() + ";query="
          + request.getQueryString() + ";params=" + sortedParams(request.getParameterMap())
          + ";session=" + (request.getHttpSession() != null) + ";principal="
          + request.getUserPrincipal());
      Journal.add(cid, "response-headers-before=" + new TreeMap<>(response.getHeaders()).keySet());
    }

    @Override
    public <T> T getEndpointInstance(Class<T> endpointClass) throws InstantiationException {
      T instance = super.getEndpointInstance(endpointClass);
      if (instance instanceof Configured c) {
        c.madeBy = "configurator";
      }
      return instance;
    }
  }

  /** A configurator, subprotocols and the config's user properties (§3.1, §4.1.4, §4.1.5). */
  @ServerEndpoint(value = "/configured", subprotocols = {"chat", "superchat"},
      configurator = JournalingConfigurator.class)
  public static class Configured {
    String madeBy = "container";

    /** For the container. */
    public Configured() {}

    @OnOpen
    public void open(Session s, EndpointConfig config) throws IOException {
      Journal.open(s);
      Object probe = config.getUserProperties().get("probe-" + Journal.cid(s));
      s.getBasicRemote().sendText("madeBy=" + madeBy + ";sub=" + s.getNegotiatedSubprotocol()
          + (probe == null ? "" : ";probe=" + probe));
    }

    @OnClose
    public void close(Session s, CloseReason r) {
      Journal.close(s, r);
    }
  }

  /** {@code maxMessageSize} on a text method (§4.7: larger messages close with 1009). */
  @ServerEndpoint("/maxsize")
  public static class MaxSize {
    /** For the container. */
    public MaxSize() {}

    @OnOpen
    public void open(Session s) {
      Journal.open(s);
    }

    @OnMessage(maxMessageSize = 16)
    public String message(String text) {
      return "ok:" + text.length();
    }

    @OnError
    public void error(Session s, Throwable t) {
      Journal.error(s, t);
    }

    @OnClose
    public void close(Session s, CloseReason r) {
      Journal.close(s, r);
    }
  }

  /** {@code maxMessageSize} on a binary method. */
  @ServerEndpoint("/maxsize/binary")
  public static class MaxSizeBinary {
    /** For the container. */
    public MaxSizeBinary() {}

    @OnOpen
    public void open(Session s) {
      Journal.open(s);
    }

    @OnMessage(maxMessageSize = 16)
    public String message(byte[] data) {
      return "ok:" + data.length;
    }

    @OnClose
    public void close(Session s, CloseReason r) {
      Journal.close(s, r);
    }
  }

  /** {@code @OnOpen} throws (§5.2.2). */
  @ServerEndpoint("/open-throws")
  public static class OpenThrows {
    /** For the container. */
    public OpenThrows() {}

    @OnOpen
    public void open(Session s) {
      Journal.open(s);
      throw new IllegalStateException("open boom");
    }

    @OnMessage
    public String message(String text) {
      return "after:" + text;
    }

    @OnError
    public void error(Session s, Throwable t) {
      Journal.error(s, t);
    }

    @OnClose
    public void close(Session s, CloseReason r) {
      Journal.close(s, r);
    }
  }

  /** Text only: a binary message has nowhere to go (RFC 6455 1003). */
  @ServerEndpoint("/text-only")
  public static class TextOnly {
    /** For the container. */
    public TextOnly() {}

    @OnOpen
    public void open(Session s) {
      Journal.open(s);
    }

    @OnMessage
    public String message(String text) {
      return text;
    }

    @OnError
    public void error(Session s, Throwable t) {
      Journal.error(s, t);
    }

    @OnClose
    public void close(Session s, CloseReason r) {
      Journal.close(s, r);
    }
  }

  /** Whether the EndpointConfig's user properties are shared between sessions. */
  @ServerEndpoint("/config-props")
  public static class ConfigProps {
    /** For the container. */
    public ConfigProps() {}

    @OnOpen
    public void open(Session s, EndpointConfig config) throws IOException {
      Object seen = config.getUserProperties().put("seen-by", Journal.cid(s));
      s.getBasicRemote().sendText("before=" + (seen == null ? "none" : "other"));
    }
  }

  /** The decoder lifecycle: init per session, destroy at close (§4.1.3 with Decoder javadoc). */
  @ServerEndpoint(value = "/counting", decoders = Point.CountingDecoder.class)
  public static class Counting {
    /** For the container. */
    public Counting() {}

    @OnMessage
    public String message(Point p) {
      return "inits=" + Point.CountingDecoder.INITS.get();
    }
  }

  /** A configurator that negotiates no extension (§3.1.3). */
  public static class RefuseExtensions extends ServerEndpointConfig.Configurator {
    /** For the container. */
    public RefuseExtensions() {}

    @Override
    public List<Extension> getNegotiatedExtensions(List<Extension> installed,
        List<Extension> requested) {
      return List.of();
    }
  }

  /** Text echo behind {@link RefuseExtensions}. */
  @ServerEndpoint(value = "/no-ext", configurator = RefuseExtensions.class)
  public static class NoExtensions {
    /** For the container. */
    public NoExtensions() {}

    @OnMessage
    public String message(String text, Session s) {
      return text + ";ext=" + s.getNegotiatedExtensions().size();
    }
  }

  /** A programmatic endpoint with a whole text handler and a partial binary one. */
  public static class Programmatic extends jakarta.websocket.Endpoint {
    /** For the container. */
    public Programmatic() {}

    @Override
    public void onOpen(Session s, EndpointConfig config) {
      Journal.open(s);
      s.addMessageHandler(String.class, text -> {
        try {
          s.getBasicRemote().sendText("prog:" + text + ";handlers=" + s.getMessageHandlers().size());
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      s.addMessageHandler(ByteBuffer.class, new MessageHandler.Partial<ByteBuffer>() {
        private int parts;

        @Override
        public void onMessage(ByteBuffer part, boolean last) {
          parts++;
          if (last) {
            try {
              s.getBasicRemote().sendText("binary-parts>0=" + (parts > 0));
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
            parts = 0;
          }
        }
      });
      try {
        s.addMessageHandler(String.class, text -> { });
        Journal.add(s, "second-text-handler:accepted");
      } catch (IllegalStateException e) {
        Journal.add(s, "second-text-handler:IllegalStateException");
      }
    }

    @Override
    public void onClose(Session s, CloseReason r) {
      Journal.add(s, "close:" + r.getCloseCode().getCode() + ":" + r.getReasonPhrase());
    }

    @Override
    public void onError(Session s, Throwable t) {
      Journal.error(s, t);
    }
  }
}
