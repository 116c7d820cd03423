package dev.wsjava.jakarta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import jakarta.websocket.ClientEndpoint;
import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.CloseReason;
import jakarta.websocket.ContainerProvider;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.Extension;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnMessage;
import jakarta.websocket.PongMessage;
import jakarta.websocket.Session;
import jakarta.websocket.WebSocketContainer;
import java.io.Reader;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** wsjava's Jakarta client container against wsjava's own server routes, over both transports. */
@Timeout(60)
class JakartaClientTest {
  static final BlockingQueue<Object> EVENTS = new LinkedBlockingQueue<>();

  /** The server side: echoes, answers "big" with 100,000 bytes of text, reports the request. */
  private static WebSocketServer server(Transport t) throws Exception {
    return WebSocketServer.builder()
        .bind("127.0.0.1", 0)
        .config(WebSocketConfig.builder().transport(t).build())
        .onHandshake(req -> dev.wsjava.HandshakeDecision.accept().header("X-Seen", String.valueOf(req.header("X-Token"))))
        .websocket("/echo", new WebSocketListener() {
          @Override
          public void onText(WebSocket ws, String text) {
            if (text.equals("big")) {
              ws.sendText("x".repeat(100_000));
            } else if (text.equals("fragments")) {
              ws.sendText("ab", false);
              ws.sendText("cd", false);
              ws.sendText("ef", true);
            } else if (text.equals("request")) {
              ws.sendText(ws.request().target() + " " + ws.subprotocol() + " " + ws.extensions());
            } else {
              ws.sendText(text);
            }
          }

          @Override
          public void onBinary(WebSocket ws, ByteBuffer data) {
            ws.sendBinary(data);
          }
        })
        .start();
  }

  private static Object next() throws InterruptedException {
    Object o = EVENTS.poll(10, TimeUnit.SECONDS);
    assertThat(o).as("an event within 10 s").isNotNull();
    return o;
  }

  private static ClientEndpointConfig.Builder config(Transport t) {
    return ClientEndpointConfig.Builder.create();
  }

  private static ClientEndpointConfig withTransport(ClientEndpointConfig c, Transport t) {
    c.getUserProperties().put(JakartaProperties.TRANSPORT, t);
    return c;
  }

  @ClientEndpoint
  public static class Partial {
    private final StringBuilder parts = new StringBuilder();

    @OnMessage
    public void text(String part, boolean last) {
      parts.append(part).append(last ? "|" : ",");
      if (last) {
        EVENTS.add(parts.toString());
        parts.setLength(0);
      }
    }

    @OnMessage
    public void pong(PongMessage pong) {
      EVENTS.add("pong:" + StandardCharsets.UTF_8.decode(pong.getApplicationData()));
    }

    @OnClose
    public void close(CloseReason reason) {
      EVENTS.add(reason.getCloseCode().getCode());
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void anAnnotatedClassGetsPartsAndPongs(Transport t) throws Exception {
    EVENTS.clear();
    try (WebSocketServer server = server(t)) {
      WebSocketContainer container = ContainerProvider.getWebSocketContainer();
      Session s = container.connectToServer(Partial.class, URI.create("ws://127.0.0.1:" + server.port() + "/echo"));
      s.getBasicRemote().sendText("fragments");
      String got = (String) next();
      assertThat(got.replace(",", "")).isEqualTo("abcdef|"); // however the pieces fell, in order, ended once
      s.getBasicRemote().sendPing(ByteBuffer.wrap("hb".getBytes(StandardCharsets.UTF_8)));
      assertThat(next()).isEqualTo("pong:hb");
      assertThat(s.getOpenSessions()).contains(s);
      s.close();
      assertThat(next()).isEqualTo(1000);
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theConfiguratorSetsFieldsAndSeesTheResponse(Transport t) throws Exception {
    EVENTS.clear();
    try (WebSocketServer server = server(t)) {
      ClientEndpointConfig c = withTransport(ClientEndpointConfig.Builder.create()
          .configurator(new ClientEndpointConfig.Configurator() {
            @Override
            public void beforeRequest(Map<String, List<String>> headers) {
              headers.put("X-Token", List.of("t1"));
            }

            @Override
            public void afterResponse(HandshakeResponse response) {
              EVENTS.add("after:" + response.getHeaders().get("X-Seen"));
            }
          })
          .extensions(List.of(new Extension() {
            @Override
            public String getName() {
              return "permessage-deflate";
            }

            @Override
            public List<Extension.Parameter> getParameters() {
              return List.of();
            }
          }))
          .build(), t);
      Session s = ContainerProvider.getWebSocketContainer().connectToServer(new Endpoint() {
        @Override
        public void onOpen(Session session, EndpointConfig config) {
          EVENTS.add("open");
          session.addMessageHandler(String.class, EVENTS::add);
        }
      }, c, URI.create("ws://127.0.0.1:" + server.port() + "/echo?a=1&a=2"));
      assertThat(next()).isEqualTo("after:[t1]"); // before onOpen (§3.3)
      assertThat(next()).isEqualTo("open");
      assertThat(s.getRequestParameterMap()).containsEntry("a", List.of("1", "2"));
      s.getBasicRemote().sendText("request");
      assertThat(next()).isEqualTo("/echo?a=1&a=2 null [permessage-deflate]");
      s.close();
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aReaderTakesALargeMessageAndALimitClosesWith1009(Transport t) throws Exception {
    EVENTS.clear();
    try (WebSocketServer server = server(t)) {
      WebSocketContainer container = ContainerProvider.getWebSocketContainer();
      Session s = container.connectToServer(new Endpoint() {
        @Override
        public void onOpen(Session session, EndpointConfig config) {
          session.addMessageHandler(Reader.class, in -> {
            try {
              long n = 0;
              char[] buf = new char[1000];
              for (int r; (r = in.read(buf)) > 0; ) {
                n += r;
              }
              EVENTS.add(n);
            } catch (java.io.IOException e) {
              EVENTS.add(e);
            }
          });
        }
      }, withTransport(ClientEndpointConfig.Builder.create().build(), t),
          URI.create("ws://127.0.0.1:" + server.port() + "/echo"));
      s.getBasicRemote().sendText("big");
      assertThat(next()).isEqualTo(100_000L);
      s.close();

      container.setDefaultMaxTextMessageBufferSize(1000);
      Session limited = container.connectToServer(new Endpoint() {
        @Override
        public void onOpen(Session session, EndpointConfig config) {
          session.addMessageHandler(String.class, EVENTS::add);
        }

        @Override
        public void onClose(Session session, CloseReason reason) {
          EVENTS.add(reason.getCloseCode().getCode());
        }

        @Override
        public void onError(Session session, Throwable error) {
          EVENTS.add("error");
        }
      }, withTransport(ClientEndpointConfig.Builder.create().build(), t),
          URI.create("ws://127.0.0.1:" + server.port() + "/echo"));
      limited.getBasicRemote().sendText("small");
      assertThat(next()).isEqualTo("small");
      limited.getBasicRemote().sendText("big");
      assertThat(next()).isEqualTo("error");
      assertThat(next()).isEqualTo(1009);
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void anIdleSessionIsClosedAfterTheContainersIdleTimeout(Transport t) throws Exception {
    EVENTS.clear();
    try (WebSocketServer server = server(t)) {
      WebSocketContainer container = ContainerProvider.getWebSocketContainer();
      container.setDefaultMaxSessionIdleTimeout(300);
      Session s = container.connectToServer(new Endpoint() {
        @Override
        public void onOpen(Session session, EndpointConfig config) {}

        @Override
        public void onClose(Session session, CloseReason reason) {
          EVENTS.add("closed");
        }
      }, withTransport(ClientEndpointConfig.Builder.create().build(), t),
          URI.create("ws://127.0.0.1:" + server.port() + "/echo"));
      assertThat(s.getMaxIdleTimeout()).isEqualTo(300);
      assertThat(next()).isEqualTo("closed");
      assertThat(s.isOpen()).isFalse();
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void wholeBinaryHandlersAndAsyncSendsWithHandlers(Transport t) throws Exception {
    EVENTS.clear();
    try (WebSocketServer server = server(t)) {
      Session s = ContainerProvider.getWebSocketContainer().connectToServer(new Endpoint() {
        @Override
        public void onOpen(Session session, EndpointConfig config) {
          session.addMessageHandler(new MessageHandler.Whole<ByteBuffer>() {
            @Override
            public void onMessage(ByteBuffer b) {
              EVENTS.add(b.remaining());
            }
          });
        }
      }, withTransport(ClientEndpointConfig.Builder.create().build(), t),
          URI.create("ws://127.0.0.1:" + server.port() + "/echo"));
      s.getAsyncRemote().sendBinary(ByteBuffer.allocate(70_000), result -> EVENTS.add("sent:" + result.isOK()));
      Object first = next();
      Object second = next();
      assertThat(List.of(first, second)).containsExactlyInAnyOrder("sent:true", 70_000);
      try (var out = s.getBasicRemote().getSendStream()) {
        out.write(new byte[20_000]);
      }
      assertThat(next()).isEqualTo(20_000);
      s.close();
    }
  }
}
