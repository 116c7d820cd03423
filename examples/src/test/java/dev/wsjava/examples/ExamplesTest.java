package dev.wsjava.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.wsjava.Message;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketClosedException;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.cluster.redis.RedisProcess;
import dev.wsjava.handshake.HandshakeException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the examples of docs/GUIDE.md as a user would ({@code java ... dev.wsjava.examples.NAME},
 * a process each) and checks what each one is for: the rooms server admits by token and caps
 * messages and addresses, the reconnecting client delivers every message through a restart, the
 * upload's hash matches in a 48 MiB heap, and so on.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ExamplesTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final List<String> NONE = List.of();

  @Test
  void roomsServerAdmitsByTokenFansOutByRoomAndEnforcesItsLimits() throws Exception {
    try (ExampleProcess rooms = ExampleProcess.start(List.of("-Xmx64m"), "RoomsServer", "0",
            "ada=tok-a", "bob=tok-b");
        HttpClient http = HttpClient.newHttpClient()) {
      String base = "ws://localhost:" + rooms.port() + "/rooms/";
      try (WebSocketClient anonymous = client().build();
          WebSocketClient stranger = bearer("wrong");
          WebSocketClient ada = bearer("tok-a");
          WebSocketClient bob = bearer("tok-b")) {
        assertThat(refusal(anonymous, base + "lobby").status()).isEqualTo(401);
        assertThat(refusal(stranger, base + "lobby").status()).isEqualTo(401);

        WebSocket a = ada.open(URI.create(base + "lobby"));
        assertThat(a.receive(WAIT)).isEqualTo(new Message.Text("* ada joined"));
        WebSocket b = bob.open(URI.create(base + "lobby"));
        WebSocket elsewhere = bob.open(URI.create(base + "kitchen"));
        assertThat(b.receive(WAIT)).isEqualTo(new Message.Text("* bob joined"));
        assertThat(a.receive(WAIT)).isEqualTo(new Message.Text("* bob joined"));
        b.sendText("hi").join();
        assertThat(a.receive(WAIT)).isEqualTo(new Message.Text("bob: hi"));
        assertThat(elsewhere.receive(WAIT)).isEqualTo(new Message.Text("* bob joined")); // its own
        assertThat(elsewhere.receive(Duration.ofMillis(300))).isNull(); // not the lobby's "hi"

        HttpResponse<String> health = http.send(
            HttpRequest.newBuilder(URI.create("http://localhost:" + rooms.port() + "/health")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.headers().firstValue("Content-Type")).hasValueSatisfying(
            t -> assertThat(t).startsWith("application/json"));
        assertThat(health.body()).isEqualTo("{\"status\":\"up\",\"connections\":3}");

        List<WebSocket> more = new ArrayList<>();
        while (more.size() < RoomsServer.MAX_PER_ADDRESS - 3) {
          more.add(ada.open(URI.create(base + "crowd")));
        }
        assertThat(refusal(ada, base + "crowd").status()).isEqualTo(429);
        more.forEach(WebSocket::abort);

        a.sendText("x".repeat(RoomsServer.MAX_MESSAGE + 1));
        WebSocketClosedException tooBig =
            catchThrowableOfType(WebSocketClosedException.class, () -> a.receive(WAIT));
        assertThat(tooBig.code()).isEqualTo(1009);
      }
    }
  }

  @Test
  void reconnectingClientDeliversEveryMessageThroughAServerRestart() throws Exception {
    try (ExampleProcess client = ExampleProcess.start(NONE, "ReconnectingClient", "1000")) {
      assertThat(client.exit(Duration.ofSeconds(90))).as(client.output()).isZero();
      client.await("server restarted after \\d+ messages", WAIT);
      client.await("^1000 messages sent \\(\\d+ sent again\\), 1000 arrived$", WAIT);
    }
  }

  @Test
  void streamedUploadIsHashedByAServerIn48MiB() throws Exception {
    try (ExampleProcess server = ExampleProcess.start(List.of("-Xmx48m"), "StreamedUpload", "server", "0")) {
      String port = Integer.toString(server.port());
      try (ExampleProcess stream = ExampleProcess.start(List.of("-Xmx48m"), "StreamedUpload", "client",
              port, "32", "stream");
          ExampleProcess fragments = ExampleProcess.start(List.of("-Xmx48m"), "StreamedUpload", "client",
              port, "16", "fragments")) {
        assertThat(stream.exit(Duration.ofSeconds(90))).as(stream.output()).isZero();
        stream.await("^sent 32 MiB through the stream in [0-9.]+ s \\(permessage-deflate\\);"
            + " the server's SHA-256 matches: [0-9a-f]{64}$", WAIT);
        assertThat(fragments.exit(Duration.ofSeconds(90))).as(fragments.output()).isZero();
        fragments.await("^sent 16 MiB as fragments in [0-9.]+ s \\(permessage-deflate\\);"
            + " the server's SHA-256 matches: [0-9a-f]{64}$", WAIT);
      }
      assertThat(server.output()).doesNotContain("Error");
    }
  }

  @Test
  void clusterChatCarriesAMessageFromOneServerToTheOther() throws Exception {
    try (RedisProcess redis = new RedisProcess();
        ExampleProcess one = ExampleProcess.start(NONE, "ClusterChat", "0", redis.uri());
        ExampleProcess two = ExampleProcess.start(NONE, "ClusterChat", "0", redis.uri());
        WebSocketClient client = client().build()) {
      WebSocket a = client.open(URI.create("ws://localhost:" + one.port() + "/chat"));
      WebSocket b = client.open(URI.create("ws://localhost:" + two.port() + "/chat"));
      // Subscriptions reach Redis a moment after the open: send until the other side hears one.
      Message heard = null;
      for (int i = 0; i < 50 && heard == null; i++) {
        a.sendText("hello " + i).join();
        heard = b.receive(Duration.ofMillis(200));
      }
      assertThat(heard).isInstanceOf(Message.Text.class);
      assertThat(((Message.Text) heard).text()).matches("(?s)\\S+ chat\nhello \\d+");
    }
  }

  @Test
  void metricsServerCountsInPrometheusTextAndReportsJfrEvents() throws Exception {
    try (ExampleProcess server = ExampleProcess.start(NONE, "MetricsServer", "0");
        HttpClient http = HttpClient.newHttpClient()) {
      int port = server.port();
      try (ExampleProcess echo = ExampleProcess.start(NONE, "EchoClient", Integer.toString(port), "one", "two")) {
        assertThat(echo.exit(WAIT)).as(echo.output()).isZero();
        echo.await("^< one$", WAIT);
        echo.await("^< two$", WAIT);
      }
      server.await("^JFR opened /echo from ", WAIT);
      server.await("^JFR closed /echo 1000 after \\d+ ms$", WAIT);
      server.await("^stats Stats\\[open=0, total=1, .*in=2/6, out=2/6", WAIT);
      String metrics = http.send(
          HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/metrics")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      assertThat(metrics)
          .contains("wsjava_messages_total{direction=\"in\",server=\"example\"} 2.0")
          .contains("wsjava_connections_opened_total{server=\"example\"} 1.0");
      assertThat(server.output()).doesNotContain("SLF4J");
    }
  }

  @Test
  void broadcastServerAndBlockingClient() throws Exception {
    try (ExampleProcess server = ExampleProcess.start(NONE, "BroadcastServer", "0");
        WebSocketClient client = client().build()) {
      int port = server.port();
      WebSocket listener = client.open(URI.create("ws://localhost:" + port + "/chat"));
      try (ExampleProcess blocking = ExampleProcess.start(NONE, "BlockingClient",
          "ws://localhost:" + port + "/chat")) {
        assertThat(blocking.exit(WAIT)).as(blocking.output()).isZero();
        blocking.await("^< Text\\[text=message 3\\]$", WAIT);
      }
      for (int i = 1; i <= 3; i++) {
        assertThat(listener.receive(WAIT)).isEqualTo(new Message.Text("message " + i));
      }
    }
  }

  @Test
  void authenticatedChatAdmitsBySessionCookie() throws Exception {
    try (ExampleProcess chat = ExampleProcess.start(NONE, "AuthenticatedChat", "0");
        HttpClient http = HttpClient.newHttpClient()) {
      int port = chat.port();
      HttpResponse<String> login = http.send(
          HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/login?user=ada")).build(),
          HttpResponse.BodyHandlers.ofString());
      String cookie = login.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
      String room = "ws://localhost:" + port + "/rooms/lobby";
      try (WebSocketClient stranger = client().build();
          WebSocketClient ada = client().header("Cookie", cookie).build()) {
        assertThat(refusal(stranger, room).status()).isEqualTo(401);
        WebSocket ws = ada.open(URI.create(room));
        ws.sendText("hi").join();
        assertThat(ws.receive(WAIT)).isEqualTo(new Message.Text("ada: hi"));
      }
    }
  }

  @Test
  void wssEchoServerServesOverTls() throws Exception {
    try (ExampleProcess server = ExampleProcess.start(NONE, "WssEchoServer", "0");
        WebSocketClient client =
            client().insecureTrustAnyCertificateForDevelopmentOnly().build()) {
      WebSocket ws = client.open(URI.create("wss://localhost:" + server.port() + "/echo"));
      ws.sendText("secret").join();
      assertThat(ws.receive(WAIT)).isEqualTo(new Message.Text("secret"));
    }
  }

  @Test
  void mutualTlsServerNamesTheClientByItsCertificate(@TempDir Path dir) throws Exception {
    keytool(dir, "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-keystore", "server.p12");
    keytool(dir, "-exportcert", "-rfc", "-alias", "server", "-keystore", "server.p12", "-file", "server.pem");
    keytool(dir, "-genkeypair", "-alias", "client", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=example client", "-keystore", "client.p12");
    keytool(dir, "-exportcert", "-rfc", "-alias", "client", "-keystore", "client.p12", "-file", "client.pem");
    try (ExampleProcess both = ExampleProcess.start(NONE, "MutualTlsServer", dir.toString())) {
      assertThat(both.exit(WAIT)).as(both.output()).isZero();
      both.await("^Text\\[text=hello, CN=example client\\]$", WAIT);
    }
  }

  private static void keytool(Path dir, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
    command.addAll(List.of(args));
    command.addAll(List.of("-storetype", "PKCS12", "-storepass", "changeit", "-validity", "2"));
    if (args[0].equals("-exportcert")) {
      command.removeAll(List.of("-validity", "2"));
    }
    Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as("keytool %s: %s", command, out).isZero();
  }

  /** A client builder whose handshake may take long: an example's JVM has just started, on a busy machine. */
  private static WebSocketClient.Builder client() {
    return WebSocketClient.builder()
        .config(WebSocketConfig.builder().handshakeTimeout(Duration.ofSeconds(30)).build());
  }

  private static WebSocketClient bearer(String token) {
    return client().header("Authorization", "Bearer " + token).build();
  }

  private static HandshakeException refusal(WebSocketClient client, String uri) throws Exception {
    try {
      client.connect(URI.create(uri)).get(20, TimeUnit.SECONDS).abort();
      throw new AssertionError("expected a refusal of " + uri);
    } catch (ExecutionException e) {
      return (HandshakeException) e.getCause();
    }
  }
}
