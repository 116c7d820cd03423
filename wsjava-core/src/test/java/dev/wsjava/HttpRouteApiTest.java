package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.http.HttpResponse;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a route handler can reach: its server ({@code request.server()}, on plain routes and in the
 * handshake hook), a JSON response, and a content type of its choosing.
 */
class HttpRouteApiTest {
  WebSocketServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aHealthRouteReportsItsServerAsJson(Transport t) throws Exception {
    server =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(WebSocketConfig.builder().transport(t).eventLoops(1).build())
            .get(
                "/health",
                req ->
                    HttpResponse.json(
                        200,
                        "{\"port\":" + req.server().port() + ",\"webSockets\":"
                            + req.server().stats().connectionsOpen() + "}"))
            .get("/csv", req -> HttpResponse.text(200, "a,b\n").withHeader("Content-Type", "text/csv"))
            .onHandshake(req -> HandshakeDecision.accept().attach(req.server().port()))
            .websocket(
                "/ws",
                new WebSocketListener() {
                  @Override
                  public void onText(WebSocket ws, String text) {
                    ws.sendText("port " + ws.attachment());
                  }
                })
            .start();
    try (WebSocketClient client =
            WebSocketClient.builder().config(WebSocketConfig.builder().transport(t).build()).build()) {
      WebSocket ws =
          client.connect(URI.create("ws://127.0.0.1:" + server.port() + "/ws")).get(10, TimeUnit.SECONDS);
      ws.sendText("which");
      assertThat(ws.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("port " + server.port()));
      String health = get("/health");
      assertThat(health).contains("\r\nContent-Type: application/json\r\n");
      assertThat(health).endsWith("\r\n\r\n{\"port\":" + server.port() + ",\"webSockets\":1}");
      String csv = get("/csv");
      assertThat(csv).contains("\r\nContent-Type: text/csv\r\n").doesNotContain("text/plain");
      assertThat(csv).endsWith("\r\n\r\na,b\n");
    }
  }

  /** One GET on a connection of its own, closed by the request: the whole response. */
  String get(String path) throws Exception {
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @org.junit.jupiter.api.Test
  void framingFieldsStayTheWritersAndA204TakesNoContentType() {
    assertThatThrownBy(() -> HttpResponse.text(200, "x").withHeader("Content-Length", "1"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> HttpResponse.empty(204).withHeader("content-type", "text/plain"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(HttpResponse.json(200, "[]").contentType()).isEqualTo("application/json");
  }
}
