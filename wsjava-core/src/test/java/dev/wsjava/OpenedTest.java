package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link WebSocket#opened()}: a reconnecting client's way to wait for its connection instead of
 * failing sends while it reconnects, and the plain socket's trivial answer.
 */
class OpenedTest {
  static final ReconnectPolicy FAST =
      ReconnectPolicy.builder()
          .initialDelay(Duration.ofMillis(20))
          .maxDelay(Duration.ofMillis(100))
          .jitter(0)
          .maxAttempts(200)
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

  WebSocketServer echo(Transport t, int port) throws Exception {
    return server =
        WebSocketServer.builder()
            .bind("127.0.0.1", port)
            .config(WebSocketConfig.builder().transport(t).eventLoops(1).build())
            .websocket(
                "/echo",
                new WebSocketListener() {
                  @Override
                  public void onText(WebSocket ws, String text) {
                    ws.sendText(text);
                  }
                })
            .start();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aSendThroughOpenedWaitsForTheReconnection(Transport t) throws Exception {
    int port = echo(t, 0).port();
    client =
        WebSocketClient.builder()
            .config(WebSocketConfig.builder().transport(t).build())
            .reconnect(FAST)
            .build();
    WebSocket ws = client.open(URI.create("ws://127.0.0.1:" + port + "/echo"));
    assertThat(ws.opened().get(1, TimeUnit.SECONDS)).isSameAs(ws);

    server.shutdown(Duration.ofSeconds(2));
    server = null;
    // Wait (bounded) until the drop is seen: then sends fail fast, and opened() waits.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (ws.isOpen()) {
      assertThat(System.nanoTime()).isLessThan(deadline);
      Thread.sleep(5);
    }
    CompletableFuture<WebSocket> opened = ws.opened();
    CompletableFuture<Void> sent = opened.thenCompose(w -> w.sendText("after the restart"));
    assertThat(sent).isNotDone();
    echo(t, port);
    assertThat(opened.get(10, TimeUnit.SECONDS)).isSameAs(ws);
    sent.get(10, TimeUnit.SECONDS);
    assertThat(ws.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("after the restart"));
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void openedFailsWhenTheClientClosesWhileReconnecting(Transport t) throws Exception {
    int port = echo(t, 0).port();
    client =
        WebSocketClient.builder()
            .config(WebSocketConfig.builder().transport(t).build())
            .reconnect(FAST)
            .build();
    WebSocket ws = client.open(URI.create("ws://127.0.0.1:" + port + "/echo"));
    server.shutdown(Duration.ofSeconds(2));
    server = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (ws.isOpen()) {
      assertThat(System.nanoTime()).isLessThan(deadline);
      Thread.sleep(5);
    }
    CompletableFuture<WebSocket> opened = ws.opened();
    ws.close().get(10, TimeUnit.SECONDS);
    assertThatThrownBy(() -> opened.get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(WebSocketClosedException.class);
    assertThatThrownBy(() -> ws.opened().get(1, TimeUnit.SECONDS))
        .cause()
        .isInstanceOf(WebSocketClosedException.class);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aPlainSocketIsOpenedAtOnceAndFailsOnceClosed(Transport t) throws Exception {
    int port = echo(t, 0).port();
    client = WebSocketClient.builder().config(WebSocketConfig.builder().transport(t).build()).build();
    WebSocket ws = client.open(URI.create("ws://127.0.0.1:" + port + "/echo"));
    assertThat(ws.opened()).isCompletedWithValue(ws);
    ws.close().get(10, TimeUnit.SECONDS);
    assertThat(ws.opened()).isCompletedExceptionally();
  }
}
