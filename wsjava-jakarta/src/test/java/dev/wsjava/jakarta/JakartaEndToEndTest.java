package dev.wsjava.jakarta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Transport;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.http.HttpResponse;
import jakarta.websocket.ClientEndpoint;
import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.CloseReason;
import jakarta.websocket.ContainerProvider;
import jakarta.websocket.DecodeException;
import jakarta.websocket.Decoder;
import jakarta.websocket.EncodeException;
import jakarta.websocket.Encoder;
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
import jakarta.websocket.server.HandshakeRequest;
import jakarta.websocket.server.PathParam;
import jakarta.websocket.server.ServerEndpoint;
import jakarta.websocket.server.ServerEndpointConfig;
import java.io.InputStream;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** wsjava's Jakarta client container against its Jakarta server container, over both transports. */
@org.junit.jupiter.api.Timeout(60)
class JakartaEndToEndTest {

  // ------------------------------------------------------------------ server endpoints

  @ServerEndpoint("/echo/{room}")
  public static class Echo {
    @OnMessage
    public String text(String message, @PathParam("room") String room, Session session) {
      return room + ":" + message + ":" + session.getUserProperties().get("greeting");
    }

    @OnMessage
    public ByteBuffer binary(ByteBuffer data) {
      ByteBuffer copy = ByteBuffer.allocate(data.remaining()).put(data).flip();
      return copy;
    }

    @OnMessage
    public void pong(PongMessage pong, Session session) throws Exception {
      session.getBasicRemote().sendText("pong:" + StandardCharsets.UTF_8.decode(pong.getApplicationData()));
    }
  }

  @ServerEndpoint("/echo/exact")
  public static class Exact {
    @OnMessage
    public String text(String message) {
      return "exact:" + message;
    }
  }

  @ServerEndpoint("/stream")
  public static class Streams {
    @OnMessage
    public String text(Reader in) throws Exception {
      StringBuilder b = new StringBuilder();
      char[] buf = new char[100];
      for (int n; (n = in.read(buf)) > 0; ) {
        b.append(buf, 0, n);
      }
      return "chars=" + b.length() + " last=" + b.charAt(b.length() - 1);
    }

    @OnMessage
    public void binary(InputStream in, Session session) throws Exception {
      long total = 0;
      byte[] buf = new byte[4096];
      for (int n; (n = in.read(buf)) > 0; ) {
        total += n;
      }
      session.getBasicRemote().sendText("bytes=" + total);
    }
  }

  @ServerEndpoint("/parts")
  public static class Parts {
    private final StringBuilder seen = new StringBuilder();

    @OnMessage
    public void text(String part, boolean last, Session session) throws Exception {
      seen.append(part);
      if (last) {
        session.getBasicRemote().sendText("whole=" + seen.length());
        seen.setLength(0);
      }
    }
  }

  public record Point(int x, int y) {}

  public static class PointDecoder implements Decoder.Text<Point> {
    static volatile int destroyed;

    @Override
    public Point decode(String s) throws DecodeException {
      String[] p = s.split(",");
      try {
        return new Point(Integer.parseInt(p[0]), Integer.parseInt(p[1]));
      } catch (RuntimeException e) {
        throw new DecodeException(s, "not a point", e);
      }
    }

    @Override
    public boolean willDecode(String s) {
      return s.contains(",");
    }

    @Override
    public void destroy() {
      destroyed++;
    }
  }

  public static class PointEncoder implements Encoder.Text<Point> {
    @Override
    public String encode(Point p) throws EncodeException {
      return "(" + p.x() + "|" + p.y() + ")";
    }
  }

  @ServerEndpoint(value = "/points", decoders = PointDecoder.class, encoders = PointEncoder.class)
  public static class Points {
    @OnMessage
    public Point text(Point p) {
      return new Point(p.y(), p.x());
    }

    @OnError
    public void error(Session session, Throwable t) throws Exception {
      session.getBasicRemote().sendText("error:" + t.getClass().getSimpleName());
    }
  }

  @ServerEndpoint("/fail")
  public static class Fail {
    @OnMessage
    public void text(String s) {
      throw new IllegalStateException("boom");
    }
  }

  @ServerEndpoint("/small")
  public static class Small {
    @OnMessage(maxMessageSize = 10)
    public String text(String s) {
      return s;
    }
  }

  public static class Configurator extends ServerEndpointConfig.Configurator {
    @Override
    public void modifyHandshake(ServerEndpointConfig sec, HandshakeRequest request, HandshakeResponse response) {
      sec.getUserProperties().put("greeting", request.getHeaders().get("X-Greeting").get(0));
      response.getHeaders().put("X-Answer", List.of("42"));
    }

    @Override
    public boolean checkOrigin(String origin) {
      return origin == null || !origin.contains("evil");
    }
  }

  /** A programmatic endpoint with a whole-message handler added at onOpen. */
  public static class Programmatic extends Endpoint {
    @Override
    public void onOpen(Session session, EndpointConfig config) {
      session.addMessageHandler(String.class, text -> {
        try {
          session.getBasicRemote().sendText("prog:" + text + ":" + session.getNegotiatedSubprotocol());
        } catch (Exception e) {
          throw new RuntimeException(e);
        }
      });
    }
  }

  // ------------------------------------------------------------------ client endpoint

  @ClientEndpoint
  public static class Collector {
    final BlockingQueue<Object> events = new LinkedBlockingQueue<>();

    @OnOpen
    public void open(Session s) {
      events.add("open");
    }

    @OnMessage
    public void text(String s) {
      events.add(s);
    }

    @OnMessage
    public void binary(byte[] b) {
      events.add(b);
    }

    @OnClose
    public void close(CloseReason reason) {
      events.add(reason);
    }

    Object next() throws InterruptedException {
      Object o = events.poll(10, TimeUnit.SECONDS);
      assertThat(o).as("an event within 10 s").isNotNull();
      return o;
    }

    CloseReason closed() throws InterruptedException {
      while (true) {
        Object o = next();
        if (o instanceof CloseReason r) {
          return r;
        }
      }
    }
  }

  private static JakartaServer server(Transport t) throws Exception {
    return JakartaServer.builder()
        .bind("127.0.0.1", 0)
        .config(WebSocketConfig.builder().transport(t).build())
        .endpoint(ServerEndpointConfig.Builder.create(Echo.class, "/echo/{room}")
            .configurator(new Configurator()).build())
        .endpoint(Exact.class)
        .endpoint(Streams.class)
        .endpoint(Parts.class)
        .endpoint(Points.class)
        .endpoint(Fail.class)
        .endpoint(Small.class)
        .endpoint(ServerEndpointConfig.Builder.create(Programmatic.class, "/prog")
            .subprotocols(List.of("v2", "v1")).build())
        .routes(b -> b.get("/hello", req -> HttpResponse.text(200, "hello")))
        .start();
  }

  private static ClientEndpointConfig clientConfig(Transport t, Map<String, String> headers, List<String> protocols) {
    ClientEndpointConfig c = ClientEndpointConfig.Builder.create()
        .preferredSubprotocols(protocols)
        .configurator(new ClientEndpointConfig.Configurator() {
          @Override
          public void beforeRequest(Map<String, List<String>> h) {
            headers.forEach((k, v) -> h.put(k, List.of(v)));
          }
        })
        .build();
    c.getUserProperties().put(JakartaProperties.TRANSPORT, t.name());
    return c;
  }

  /** An annotated client through a programmatic config: the Endpoint adapter of the container. */
  private static Session connect(WebSocketContainer container, Collector c, String uri, ClientEndpointConfig config)
      throws Exception {
    return container.connectToServer(new Endpoint() {
      @Override
      public void onOpen(Session session, EndpointConfig ec) {
        c.events.add("open");
        session.addMessageHandler(String.class, c.events::add);
        session.addMessageHandler(byte[].class, c.events::add);
      }

      @Override
      public void onClose(Session session, CloseReason reason) {
        c.events.add(reason);
      }
    }, config, URI.create(uri));
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void echoesThroughTheConfiguratorPathParamsAndPings(Transport t) throws Exception {
    try (JakartaServer server = server(t)) {
      WebSocketContainer container = ContainerProvider.getWebSocketContainer();
      Collector c = new Collector();
      Session s = connect(container, c, "ws://127.0.0.1:" + server.port() + "/echo/lobby?x=1",
          clientConfig(t, Map.of("X-Greeting", "hi"), List.of()));
      assertThat(c.next()).isEqualTo("open");
      s.getBasicRemote().sendText("one");
      assertThat(c.next()).isEqualTo("lobby:one:hi");
      s.getAsyncRemote().sendBinary(ByteBuffer.wrap(new byte[] {1, 2, 3})).get(5, TimeUnit.SECONDS);
      assertThat((byte[]) c.next()).containsExactly(1, 2, 3);
      s.getBasicRemote().sendPing(ByteBuffer.wrap("p".getBytes(StandardCharsets.UTF_8)));
      // the server's pong handler sees the pong only when one is sent: send one unsolicited
      s.getBasicRemote().sendPong(ByteBuffer.wrap("q".getBytes(StandardCharsets.UTF_8)));
      assertThat(c.next()).isEqualTo("pong:q");
      assertThat(s.getOpenSessions()).contains(s);
      s.close(new CloseReason(CloseReason.CloseCodes.GOING_AWAY, "bye"));
      CloseReason r = c.closed();
      assertThat(r.getCloseCode().getCode()).isEqualTo(1001);
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void anExactPathBeatsTheTemplateBesideIt(Transport t) throws Exception {
    try (JakartaServer server = server(t)) {
      Collector c = new Collector();
      Session s = ContainerProvider.getWebSocketContainer().connectToServer(c,
          URI.create("ws://127.0.0.1:" + server.port() + "/echo/exact"));
      assertThat(c.next()).isEqualTo("open");
      s.getBasicRemote().sendText("x");
      assertThat(c.next()).isEqualTo("exact:x");
      s.close();
      assertThat(c.closed().getCloseCode().getCode()).isEqualTo(1000);
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void streamsAndPartsAreReadWithoutTheWholeMessage(Transport t) throws Exception {
    try (JakartaServer server = server(t)) {
      WebSocketContainer container = ContainerProvider.getWebSocketContainer();
      Collector c = new Collector();
      Session s = container.connectToServer(c, URI.create("ws://127.0.0.1:" + server.port() + "/stream"));
      assertThat(c.next()).isEqualTo("open");
      String big = "é".repeat(150_000) + "z"; // 300,001 bytes of UTF-8, split across pieces
      s.getBasicRemote().sendText(big);
      assertThat(c.next()).isEqualTo("chars=150001 last=z");
      s.getBasicRemote().sendBinary(ByteBuffer.allocate(1_000_000));
      assertThat(c.next()).isEqualTo("bytes=1000000");
      // in parts, sent as fragments
      s.getBasicRemote().sendText("abc", false);
      s.getBasicRemote().sendText("def", true);
      assertThat(c.next()).isEqualTo("chars=6 last=f");
      s.close();

      Collector p = new Collector();
      Session parts = container.connectToServer(p, URI.create("ws://127.0.0.1:" + server.port() + "/parts"));
      assertThat(p.next()).isEqualTo("open");
      parts.getBasicRemote().sendText("ü".repeat(70_000));
      assertThat(p.next()).isEqualTo("whole=70000");
      parts.close();
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void decodersEncodersAndErrorsMapToTheirCloseCodes(Transport t) throws Exception {
    try (JakartaServer server = server(t)) {
      WebSocketContainer container = ContainerProvider.getWebSocketContainer();
      Collector c = new Collector();
      Session s = container.connectToServer(c, URI.create("ws://127.0.0.1:" + server.port() + "/points"));
      assertThat(c.next()).isEqualTo("open");
      s.getBasicRemote().sendText("1,2");
      assertThat(c.next()).isEqualTo("(2|1)");
      s.getBasicRemote().sendText("no point");
      assertThat(c.next()).isEqualTo("error:DecodeException");
      s.getBasicRemote().sendText("3,x");
      assertThat(c.next()).isEqualTo("error:DecodeException");
      int destroyedBefore = PointDecoder.destroyed;
      s.close();
      c.closed();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (PointDecoder.destroyed == destroyedBefore && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(PointDecoder.destroyed).isGreaterThan(destroyedBefore);

      Collector f = new Collector();
      Session fail = container.connectToServer(f, URI.create("ws://127.0.0.1:" + server.port() + "/fail"));
      assertThat(f.next()).isEqualTo("open");
      fail.getBasicRemote().sendText("x");
      assertThat(f.closed().getCloseCode().getCode()).isEqualTo(1011);

      Collector small = new Collector();
      Session sm = container.connectToServer(small, URI.create("ws://127.0.0.1:" + server.port() + "/small"));
      assertThat(small.next()).isEqualTo("open");
      sm.getBasicRemote().sendText("short");
      assertThat(small.next()).isEqualTo("short");
      sm.getBasicRemote().sendText("far too long for ten");
      assertThat(small.closed().getCloseCode().getCode()).isEqualTo(1009);
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void programmaticEndpointsNegotiateSubprotocolsAndOriginsAreChecked(Transport t) throws Exception {
    try (JakartaServer server = server(t)) {
      WebSocketContainer container = ContainerProvider.getWebSocketContainer();
      Collector c = new Collector();
      Session s = connect(container, c, "ws://127.0.0.1:" + server.port() + "/prog",
          clientConfig(t, Map.of(), List.of("v1", "v2")));
      assertThat(c.next()).isEqualTo("open");
      assertThat(s.getNegotiatedSubprotocol()).isEqualTo("v1");
      s.getBasicRemote().sendText("a");
      assertThat(c.next()).isEqualTo("prog:a:v1");
      s.close();

      Collector evil = new Collector();
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> connect(container, evil,
              "ws://127.0.0.1:" + server.port() + "/echo/x",
              clientConfig(t, Map.of("Origin", "https://evil.example", "X-Greeting", "x"), List.of())))
          .isInstanceOf(jakarta.websocket.DeploymentException.class);
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theJdkClientTalksToAnAnnotatedEndpointBesideAnHttpRoute(Transport t) throws Exception {
    try (JakartaServer server = server(t); HttpClient http = HttpClient.newHttpClient()) {
      var response = http.send(
          java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/hello")).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(response.body()).isEqualTo("hello");
      BlockingQueue<String> got = new LinkedBlockingQueue<>();
      CompletableFuture<java.net.http.WebSocket> ws = http.newWebSocketBuilder()
          .header("X-Greeting", "jdk")
          .buildAsync(URI.create("ws://127.0.0.1:" + server.port() + "/echo/r1"),
              new java.net.http.WebSocket.Listener() {
                @Override
                public java.util.concurrent.CompletionStage<?> onText(java.net.http.WebSocket w, CharSequence data, boolean last) {
                  got.add(data.toString());
                  w.request(1);
                  return null;
                }
              });
      java.net.http.WebSocket w = ws.get(10, TimeUnit.SECONDS);
      w.sendText("hey", true).get(10, TimeUnit.SECONDS);
      assertThat(got.poll(10, TimeUnit.SECONDS)).isEqualTo("r1:hey:jdk");
      w.sendClose(1000, "").get(10, TimeUnit.SECONDS);
    }
  }
}
