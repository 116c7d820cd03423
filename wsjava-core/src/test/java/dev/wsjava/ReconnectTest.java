package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Reconnect end to end: a server is shut down and a new one started on the same port; the client's
 * one WebSocket reconnects and echoes again. Every wait is bounded.
 */
class ReconnectTest {
  static final ReconnectPolicy FAST =
      ReconnectPolicy.builder()
          .initialDelay(Duration.ofMillis(50))
          .maxDelay(Duration.ofMillis(200))
          .jitter(0)
          .maxAttempts(100)
          .build();

  WebSocketServer server;
  WebSocketClient client;

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.shutdown(Duration.ofSeconds(2));
    }
  }

  WebSocketServer startServer(Transport t, int port) throws Exception {
    return server =
        WebSocketServer.builder()
            .bind("127.0.0.1", port)
            .config(WebSocketConfig.builder().transport(t).eventLoops(1).build())
            .websocket("/echo", new WebSocketListener() {
              @Override
              public void onText(WebSocket ws, String text) {
                ws.sendText(text);
              }
            })
            .websocket("/bye", new WebSocketListener() {
              @Override
              public void onOpen(WebSocket ws) {
                ws.close(1000, "done with you");
              }
            })
            .start();
  }

  /**
   * Asserts that the reconnection thread, if one ran, has ended: after a final close none starts
   * again, so no attempt can follow. This proves the absence without sleeping for it.
   */
  static void assertNoMoreAttempts(WebSocket ws) throws InterruptedException {
    assertThat(((ReconnectingWebSocket) ws).awaitNoReconnector(Duration.ofSeconds(10)))
        .as("the reconnection thread ended")
        .isTrue();
  }

  /** Records every event, listener and reconnect alike, as text. */
  static class Events implements WebSocketListener, ReconnectListener {
    final BlockingQueue<String> all = new LinkedBlockingQueue<>();
    final AtomicInteger attempts = new AtomicInteger();
    final CompletableFuture<Integer> closed = new CompletableFuture<>();
    final AtomicInteger closes = new AtomicInteger();

    @Override
    public void onOpen(WebSocket ws) {
      all.add("open");
    }

    @Override
    public void onText(WebSocket ws, String text) {
      all.add("text " + text);
    }

    @Override
    public void onClose(WebSocket ws, int code, String reason) {
      closes.incrementAndGet();
      all.add("close " + code);
      closed.complete(code);
    }

    @Override
    public void onReconnecting(WebSocket ws, int attempt, Duration delay, Throwable cause) {
      attempts.incrementAndGet();
      all.add("reconnecting " + attempt + " " + (cause instanceof WebSocketClosedException c ? c.code() : "failed"));
    }

    @Override
    public void onReconnected(WebSocket ws, int attempts) {
      all.add("reconnected");
    }

    String next() throws InterruptedException {
      String e = all.poll(10, TimeUnit.SECONDS);
      assertThat(e).as("an event within 10 s").isNotNull();
      return e;
    }

    /** Skips events until one starts with {@code prefix}. */
    String await(String prefix) throws InterruptedException {
      for (int i = 0; i < 200; i++) {
        String e = next();
        if (e.startsWith(prefix)) {
          return e;
        }
      }
      throw new AssertionError("no event " + prefix);
    }
  }

  WebSocketClient client(Transport t, Events events, ReconnectPolicy policy) {
    return client(t, events, policy, false);
  }

  WebSocketClient client(Transport t, Events events, ReconnectPolicy policy, boolean stream) {
    return client =
        WebSocketClient.builder()
            .config(WebSocketConfig.builder().transport(t).eventLoops(1).streamMessages(stream)
                .build())
            .reconnect(policy, events)
            .build();
  }

  /** Connects to /echo, then shuts the server down for good. */
  WebSocket connectThenLoseTheServer(Transport t, Events events, ReconnectPolicy policy)
      throws Exception {
    int port = startServer(t, 0).port();
    WebSocket ws = client(t, events, policy)
        .connect(URI.create("ws://127.0.0.1:" + port + "/echo"), events)
        .get(10, TimeUnit.SECONDS);
    server.shutdown(Duration.ofSeconds(2));
    server = null;
    return ws;
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void reconnectsAfterTheServerRestartsAndEchoesAgain(Transport t) throws Exception {
    int port = startServer(t, 0).port();
    Events events = new Events();
    WebSocket ws = client(t, events, FAST).connect(URI.create("ws://127.0.0.1:" + port + "/echo"), events)
        .get(10, TimeUnit.SECONDS);
    assertThat(events.next()).isEqualTo("open");
    ws.sendText("one");
    assertThat(events.next()).isEqualTo("text one");

    server.shutdown(Duration.ofSeconds(2));
    assertThat(events.next()).isEqualTo("reconnecting 1 1001"); // Going Away: a restart
    assertThat(ws.isOpen()).isFalse();
    assertThatThrownBy(() -> ws.sendText("lost").get(1, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(WebSocketClosedException.class, e -> assertThat(e.code()).isEqualTo(1006))
        .hasMessageContaining("not buffered");
    assertThat(events.await("reconnecting 2")).isEqualTo("reconnecting 2 failed"); // refused

    startServer(t, port);
    assertThat(events.await("reconnected")).isEqualTo("reconnected");
    assertThat(events.next()).isEqualTo("open");
    ws.sendText("two");
    assertThat(events.next()).isEqualTo("text two");
    assertThat(ws.isOpen()).isTrue();

    ws.close().get(10, TimeUnit.SECONDS);
    assertThat(events.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1000);
    int attempts = events.attempts.get();
    assertNoMoreAttempts(ws);
    assertThat(events.attempts.get()).as("no attempt after the application's close").isEqualTo(attempts);
    assertThat(events.closes.get()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aPullStyleReaderWaitsAcrossTheReconnection(Transport t) throws Exception {
    int port = startServer(t, 0).port();
    Events events = new Events();
    WebSocket ws = client(t, events, FAST).open(URI.create("ws://127.0.0.1:" + port + "/echo"));
    ws.sendText("one").get(10, TimeUnit.SECONDS);
    assertThat(ws.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("one"));
    server.shutdown(Duration.ofSeconds(2));
    events.await("reconnecting 1");
    CompletableFuture<Message> read = CompletableFuture.supplyAsync(() -> {
      try {
        return ws.receive(Duration.ofSeconds(20));
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    startServer(t, port);
    events.await("reconnected");
    ws.sendText("two").get(10, TimeUnit.SECONDS);
    assertThat(read.get(5, TimeUnit.SECONDS)).isEqualTo(new Message.Text("two")); // woken, not timed out
    ws.close().get(10, TimeUnit.SECONDS);
    assertThatThrownBy(() -> ws.receive(Duration.ofSeconds(5)))
        .isInstanceOfSatisfying(WebSocketClosedException.class, e -> assertThat(e.code()).isEqualTo(1000));
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aStreamingReaderWaitsAcrossTheReconnection(Transport t) throws Exception {
    int port = startServer(t, 0).port();
    Events events = new Events();
    WebSocket ws = client(t, events, FAST, true)
        .open(URI.create("ws://127.0.0.1:" + port + "/echo"));
    ws.sendText("one").get(10, TimeUnit.SECONDS);
    try (MessageStream one = ws.receiveStream()) {
      assertThat(one.isText()).isTrue();
      assertThat(new String(one.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("one");
    }
    server.shutdown(Duration.ofSeconds(2));
    events.await("reconnecting 1");
    CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> {
      try (MessageStream next = ws.receiveStream()) {
        return new String(next.readAllBytes(), StandardCharsets.UTF_8);
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    startServer(t, port);
    events.await("reconnected");
    ws.sendText("two").get(10, TimeUnit.SECONDS);
    assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo("two"); // the next connection's message
    ws.close().get(10, TimeUnit.SECONDS);
    assertThatThrownBy(ws::receiveStream)
        .isInstanceOfSatisfying(WebSocketClosedException.class, e -> assertThat(e.code()).isEqualTo(1000));
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aStreamingListenerGetsThePartsOfEveryConnection(Transport t) throws Exception {
    int port = startServer(t, 0).port();
    BlockingQueue<String> messages = new LinkedBlockingQueue<>(); // each message's parts, joined
    Events events = new Events() {
      final StringBuilder message = new StringBuilder();

      @Override
      public void onMessagePart(WebSocket ws, boolean text, ByteBuffer part, boolean last) {
        message.append(StandardCharsets.UTF_8.decode(part));
        if (last) {
          messages.add((text ? "text " : "binary ") + message);
          message.setLength(0);
        }
      }
    };
    WebSocket ws = client(t, events, FAST, true)
        .connect(URI.create("ws://127.0.0.1:" + port + "/echo"), events).get(10, TimeUnit.SECONDS);
    ws.sendText("one").get(10, TimeUnit.SECONDS);
    assertThat(messages.poll(10, TimeUnit.SECONDS)).isEqualTo("text one");
    server.shutdown(Duration.ofSeconds(2));
    events.await("reconnecting 1");
    startServer(t, port);
    events.await("reconnected");
    ws.sendText("two").get(10, TimeUnit.SECONDS);
    assertThat(messages.poll(10, TimeUnit.SECONDS)).isEqualTo("text two");
    ws.close().get(10, TimeUnit.SECONDS);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void givesUpAfterMaxAttemptsWith1006(Transport t) throws Exception {
    Events events = new Events();
    WebSocket ws = connectThenLoseTheServer(t, events, FAST.toBuilder().maxAttempts(3).build());
    assertThat(events.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1006);
    assertThat(events.attempts.get()).isEqualTo(3);
    ws.closeFuture().get(5, TimeUnit.SECONDS);
    assertThat(events.closes.get()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aServersNormalClosureIsFinal(Transport t) throws Exception {
    int port = startServer(t, 0).port();
    Events events = new Events();
    WebSocket ws =
        client(t, events, FAST).connect(URI.create("ws://127.0.0.1:" + port + "/bye"), events)
            .get(10, TimeUnit.SECONDS);
    assertThat(events.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1000);
    assertNoMoreAttempts(ws);
    assertThat(events.attempts.get()).isZero();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void closingWhileDisconnectedStopsTheAttempts(Transport t) throws Exception {
    Events events = new Events();
    WebSocket ws = connectThenLoseTheServer(t, events, FAST);
    events.await("reconnecting 2");
    ws.close().get(5, TimeUnit.SECONDS);
    assertThat(events.closed.get(1, TimeUnit.SECONDS)).isEqualTo(1000);
    int attempts = events.attempts.get();
    assertNoMoreAttempts(ws);
    assertThat(events.attempts.get()).isEqualTo(attempts);
    assertThatThrownBy(() -> ws.sendText("x")).isInstanceOf(IllegalStateException.class);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theFirstConnectionIsNotRetried(Transport t) throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    Events events = new Events();
    assertThatThrownBy(() -> client(t, events, FAST).open(URI.create("ws://127.0.0.1:" + closed + "/")))
        .isInstanceOf(java.net.ConnectException.class);
    assertThat(events.attempts.get()).isZero();
  }
}
