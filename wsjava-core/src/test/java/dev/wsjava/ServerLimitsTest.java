package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.handshake.HandshakeException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The server's limits against abuse over both transports, each hit and answered as documented,
 * with the rates on a clock the test moves by hand.
 */
class ServerLimitsTest {
  static final long S = 1_000_000_000L;

  final AtomicLong now = new AtomicLong(42 * S);
  final List<WebSocket> opened = new ArrayList<>();
  WebSocketServer server;
  WebSocketClient client;
  final CountingEcho echo = new CountingEcho();

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  URI start(Transport t, WebSocketServer.Builder b) throws Exception {
    WebSocketConfig config = WebSocketConfig.builder().transport(t).eventLoops(1).build();
    server =
        b.bind("127.0.0.1", 0)
            .config(config)
            .clock(now::get)
            .websocket("/echo", echo)
            .start();
    client = WebSocketClient.builder().config(config).build();
    return URI.create("ws://127.0.0.1:" + server.port() + "/echo");
  }

  WebSocket open(URI uri) throws Exception {
    WebSocket ws = client.connect(uri).get(10, TimeUnit.SECONDS);
    echo.awaitOpened(1);
    opened.add(ws);
    return ws;
  }

  /** The refusal's status and Retry-After. */
  String refusal(URI uri) throws Exception {
    HandshakeException h = CountingEcho.refusal(client, uri);
    return h == null ? "101" : h.status() + " Retry-After: " + h.response().headers().first("Retry-After");
  }

  /** Closes a client socket and waits until the server has counted the close. */
  void closeOne(WebSocket ws) throws Exception {
    ws.close().get(10, TimeUnit.SECONDS);
    echo.awaitClosed(1);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theServerWideCapAnswers503UntilAConnectionCloses(Transport t) throws Exception {
    URI uri = start(t, WebSocketServer.builder().maxConnections(2));
    open(uri);
    WebSocket second = open(uri);
    assertThat(refusal(uri)).isEqualTo("503 Retry-After: 5");
    assertThat(server.stats().rejectedServerFull()).isEqualTo(1);
    assertThat(server.stats().connectionsOpen()).isEqualTo(2);
    closeOne(second);
    assertThat(server.stats().connectionsOpen()).isEqualTo(1);
    open(uri);
    assertThat(server.stats().connectionsTotal()).isEqualTo(3);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void thePerAddressCapAnswers429(Transport t) throws Exception {
    URI uri = start(t, WebSocketServer.builder().maxConnectionsPerAddress(1));
    WebSocket first = open(uri);
    assertThat(refusal(uri)).isEqualTo("429 Retry-After: 5");
    assertThat(server.stats().rejectedAddressFull()).isEqualTo(1);
    closeOne(first);
    open(uri);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theHandshakeRateAnswers429WithTheWaitThenPassesOnceTheClockMoves(Transport t)
      throws Exception {
    URI uri = start(t, WebSocketServer.builder().maxHandshakeRatePerAddress(2, Duration.ofSeconds(10)));
    open(uri);
    open(uri);
    assertThat(refusal(uri)).isEqualTo("429 Retry-After: 5");
    now.addAndGet(4 * S);
    assertThat(refusal(uri)).as("one second short").isEqualTo("429 Retry-After: 1");
    now.addAndGet(S);
    open(uri);
    assertThat(server.stats().rejectedHandshakeRate()).isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theMessageRateClosesWith1008AndTheCountersSeeTheMessages(Transport t) throws Exception {
    URI uri = start(t, WebSocketServer.builder().maxMessageRate(3, Duration.ofSeconds(1)));
    WebSocket ws = open(uri);
    for (int i = 0; i < 3; i++) {
      ws.sendText("m" + i);
      assertThat(ws.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("m" + i));
    }
    ws.sendText("one too many");
    assertThatClosedWith(ws, 1008);
    WebSocketServer.Stats stats = server.stats();
    assertThat(stats.closedForMessageRate()).isEqualTo(1);
    // Four received ("one too many" too: received, not delivered), three echoed.
    assertThat(stats.messagesIn()).isEqualTo(4);
    assertThat(stats.messagesOut()).isEqualTo(3);
    assertThat(stats.bytesIn()).isEqualTo(6 + "one too many".length());
    assertThat(stats.bytesOut()).isEqualTo(6);

    now.addAndGet(S); // a new connection has its own bucket; and time refills it
    WebSocket again = open(uri);
    again.sendText("ok");
    assertThat(again.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("ok"));
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void streamedMessagesCountAgainstTheMessageRateAtTheirFirstPart(Transport t) throws Exception {
    WebSocketConfig streaming =
        WebSocketConfig.builder().transport(t).eventLoops(1).streamMessages(true).build();
    server =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(streaming)
            .clock(now::get)
            .maxMessageRate(2, Duration.ofSeconds(1))
            .websocket(
                "/parts",
                new WebSocketListener() {
                  final StringBuilder message = new StringBuilder();

                  @Override
                  public void onMessagePart(
                      WebSocket ws, boolean text, ByteBuffer part, boolean last) {
                    message.append(StandardCharsets.UTF_8.decode(part));
                    if (last) {
                      ws.sendText(message.toString());
                      message.setLength(0);
                    }
                  }
                })
            .start();
    client =
        WebSocketClient.builder()
            .config(WebSocketConfig.builder().transport(t).eventLoops(1).build())
            .build();
    WebSocket ws =
        client.connect(URI.create("ws://127.0.0.1:" + server.port() + "/parts")).get(10, TimeUnit.SECONDS);
    for (int i = 0; i < 2; i++) {
      ws.sendText("first half " + i + ", ", false);
      ws.sendText("second half", true);
      assertThat(ws.receive(Duration.ofSeconds(10)))
          .isEqualTo(new Message.Text("first half " + i + ", second half"));
    }
    ws.sendText("one too many", false);
    assertThatClosedWith(ws, 1008);
    assertThat(server.stats().closedForMessageRate()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theTrafficCountsSumOpenAndClosedConnectionsInUtf8Bytes(Transport t) throws Exception {
    URI uri = start(t, WebSocketServer.builder());
    WebSocket a = open(uri);
    WebSocket b = open(uri);
    a.sendText("\u00e9\u20ac"); // 2 + 3 bytes of UTF-8, 2 chars
    assertThat(a.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("\u00e9\u20ac"));
    b.sendText("xy");
    assertThat(b.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("xy"));
    assertThat(server.stats().bytesOut()).isEqualTo(7);

    closeOne(a);
    b.sendText("z");
    assertThat(b.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("z"));
    WebSocketServer.Stats stats = server.stats();
    assertThat(stats.connectionsOpen()).isEqualTo(1);
    assertThat(stats.messagesIn()).as("the closed connection's count is kept").isEqualTo(3);
    assertThat(stats.messagesOut()).isEqualTo(3);
    assertThat(stats.bytesIn()).isEqualTo(8);
    assertThat(stats.bytesOut()).isEqualTo(8);
  }

  static void assertThatClosedWith(WebSocket ws, int code) throws Exception {
    try {
      Message m = ws.receive(Duration.ofSeconds(10));
      throw new AssertionError("expected a close, got " + m);
    } catch (WebSocketClosedException e) {
      assertThat(e.code()).isEqualTo(code);
    }
  }
}
