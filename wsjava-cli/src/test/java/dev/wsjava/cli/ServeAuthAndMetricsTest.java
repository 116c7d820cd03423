package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Message;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.handshake.HandshakeException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code wsjava serve --token / --basic-auth / --metrics}. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ServeAuthAndMetricsTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  @Test
  void aTokenNamesTheChatMemberAndNoTokenGets401() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--token", "alice=s3cret");
        WebSocketClient client = WebSocketClient.builder().build()) {
      String chat = "ws://127.0.0.1:" + server.port() + "/chat";
      HandshakeException refused = refusal(client, URI.create(chat + "?nick=mallory"));
      assertThat(refused.status()).isEqualTo(401);
      assertThat(refused.response().headers().first("WWW-Authenticate")).startsWith("Bearer ");
      assertThat(refusal(client, URI.create(chat + "?token=wrong")).status()).isEqualTo(401);
      WebSocket ws = client.connect(URI.create(chat + "?token=s3cret&nick=bob")).get(20, TimeUnit.SECONDS);
      assertThat(ws.receive(WAIT)).isEqualTo(new Message.Text("* alice joined (1 online)"));
      ws.sendText("hi");
      assertThat(ws.receive(WAIT)).isEqualTo(new Message.Text("alice: hi"));
      WebSocket echo =
          client.connect(URI.create("ws://127.0.0.1:" + server.port() + "/echo")).get(20, TimeUnit.SECONDS);
      echo.close();
      ws.close();
    }
  }

  @Test
  void basicAuthNamesTheChatMemberByItsUser() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--basic-auth", "carol:pw:with:colons")) {
      String basic =
          "Basic " + Base64.getEncoder().encodeToString("carol:pw:with:colons".getBytes(StandardCharsets.UTF_8));
      try (WebSocketClient client = WebSocketClient.builder().header("Authorization", basic).build()) {
        WebSocket ws =
            client.connect(URI.create("ws://127.0.0.1:" + server.port() + "/chat")).get(20, TimeUnit.SECONDS);
        assertThat(ws.receive(WAIT)).isEqualTo(new Message.Text("* carol joined (1 online)"));
        ws.close();
      }
      try (WebSocketClient client =
          WebSocketClient.builder().header("Authorization", "Basic Y2Fyb2w6bm8=").build()) {
        HandshakeException refused =
            refusal(client, URI.create("ws://127.0.0.1:" + server.port() + "/chat"));
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.response().headers().first("WWW-Authenticate"))
            .isEqualTo("Basic realm=\"wsjava chat\"");
      }
    }
  }

  @Test
  void metricsAreScrapedInPrometheusTextAndFollowTheTraffic() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--metrics");
        WebSocketClient client = WebSocketClient.builder().build();
        HttpClient http = HttpClient.newHttpClient()) {
      assertThat(server.urls()).anyMatch(u -> u.contains("/metrics"));
      WebSocket ws =
          client.connect(URI.create("ws://127.0.0.1:" + server.port() + "/echo")).get(20, TimeUnit.SECONDS);
      for (int i = 0; i < 3; i++) {
        ws.sendText("abcd");
        assertThat(ws.receive(WAIT)).isEqualTo(new Message.Text("abcd"));
      }
      ws.sendText("h\u00e9\u00e9"); // 3 characters, 5 bytes of UTF-8: the payload counts bytes
      assertThat(ws.receive(WAIT)).isEqualTo(new Message.Text("h\u00e9\u00e9"));
      HttpResponse<String> scrape =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(scrape.statusCode()).isEqualTo(200);
      assertThat(scrape.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
      Map<String, Double> samples = parse(scrape.body());
      assertThat(samples).containsEntry("wsjava_connections_open{server=\"wsjava-serve\"}", 1.0);
      assertThat(samples).containsEntry("wsjava_connections_opened_total{server=\"wsjava-serve\"}", 1.0);
      assertThat(samples)
          .containsEntry("wsjava_messages_total{direction=\"in\",server=\"wsjava-serve\"}", 4.0)
          .containsEntry("wsjava_payload_bytes_total{direction=\"out\",server=\"wsjava-serve\"}", 17.0)
          .containsEntry(
              "wsjava_handshakes_rejected_total{reason=\"application\",server=\"wsjava-serve\"}", 0.0);
      assertThat(scrape.body()).contains("# HELP wsjava_payload_bytes_total Payload bytes of the"
          + " messages received or sent (text as UTF-8, uncompressed)");
      ws.close();
    }
  }

  @Test
  void withATokenTheBannerAndThePageAskForItNotForANickname() throws Exception {
    try (ServeCommand.Running token = Cli.serve("--port", "0", "--token", "alice=s3cret");
        ServeCommand.Running basic = Cli.serve("--port", "0", "--basic-auth", "carol:pw");
        ServeCommand.Running open = Cli.serve("--port", "0");
        HttpClient http = HttpClient.newHttpClient()) {
      assertThat(chatLine(token)).endsWith("chat (?token=TOKEN or Authorization: Bearer TOKEN)")
          .doesNotContain("nick");
      assertThat(chatLine(basic)).endsWith("chat (Authorization: Basic)").doesNotContain("nick");
      assertThat(chatLine(open)).endsWith("chat (?nick=NAME)");
      assertThat(page(http, token)).contains("<meta name=\"wsjava-chat-auth\" content=\"token\">");
      assertThat(page(http, basic)).contains("<meta name=\"wsjava-chat-auth\" content=\"basic\">");
      assertThat(page(http, open)).contains("<meta name=\"wsjava-chat-auth\" content=\"\">");
    }
  }

  /** The real process: nothing but our own lines on stderr, no "SLF4J: ..." from Micrometer or Lettuce. */
  @Test
  void metricsStartWithoutLoggingWarnings(@TempDir Path dir) throws Exception {
    Path stderr = dir.resolve("stderr");
    Process p = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
            "dev.wsjava.cli.Main", "serve", "--port", "0", "--metrics")
        .redirectError(stderr.toFile()) // destroy() closes the pipes: stderr goes to a file
        .start();
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String line;
      do {
        line = out.readLine();
      } while (line != null && !line.contains("/metrics"));
      assertThat(line).as("the metrics URL line").isNotNull();
      p.destroy(); // SIGTERM: a graceful stop, stderr then ends
      assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
      String err = Files.readString(stderr);
      assertThat(err).doesNotContain("SLF4J")
          .startsWith("wsjava serve: nio transport")
          .contains("metrics at /metrics");
    } finally {
      p.destroyForcibly();
    }
  }

  private static String chatLine(ServeCommand.Running server) {
    return server.urls().stream().filter(u -> u.contains("/chat ")).findFirst().orElseThrow();
  }

  private static String page(HttpClient http, ServeCommand.Running server) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/")).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /** Prometheus text exposition: {@code name{labels} value} per sample, comments skipped. */
  static Map<String, Double> parse(String text) {
    Map<String, Double> samples = new HashMap<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int space = line.lastIndexOf(' ');
      samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
    }
    return samples;
  }

  static HandshakeException refusal(WebSocketClient client, URI uri) throws Exception {
    try {
      client.connect(uri).get(20, TimeUnit.SECONDS).abort();
      throw new AssertionError("expected a refusal of " + uri);
    } catch (ExecutionException e) {
      return (HandshakeException) e.getCause();
    }
  }
}
