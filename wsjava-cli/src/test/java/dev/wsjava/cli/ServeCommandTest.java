package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Message;
import dev.wsjava.TlsContexts;
import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ServeCommandTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  @ParameterizedTest
  @EnumSource(Transport.class)
  void echoSendsEveryTextAndBinaryMessageBack(Transport transport) throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--transport", transport.name());
        WebSocketClient client = WebSocketClient.builder().build()) {
      WebSocket ws = client.open(URI.create("ws://127.0.0.1:" + server.port() + "/echo"));
      assertThat(ws.extensions()).containsExactly("permessage-deflate");
      ws.sendText("hello, 日本").join();
      assertThat(ws.receive(WAIT)).isEqualTo(new Message.Text("hello, 日本"));
      byte[] blob = new byte[70_000];
      new java.util.Random(7).nextBytes(blob);
      ws.sendBinary(blob).join();
      Message back = ws.receive(WAIT);
      assertThat(back).isInstanceOf(Message.Binary.class);
      assertThat(((Message.Binary) back).data()).isEqualTo(ByteBuffer.wrap(blob));
      ws.close().get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void noDeflateRefusesPermessageDeflate() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--no-deflate");
        WebSocketClient client = WebSocketClient.builder().build()) {
      WebSocket ws = client.open(URI.create("ws://127.0.0.1:" + server.port() + "/echo"));
      assertThat(ws.extensions()).isEmpty();
      ws.close().get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void maxMessageClosesWith1009PastTheLimit() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--max-message", "1k");
        WebSocketClient client = WebSocketClient.builder().build()) {
      WebSocket ws = client.open(URI.create("ws://127.0.0.1:" + server.port() + "/echo"));
      ws.sendBinary(new byte[1024]).join();
      assertThat(ws.receive(WAIT)).isInstanceOf(Message.Binary.class);
      ws.sendBinary(new byte[1025]).join();
      assertThat(closeCode(ws)).isEqualTo(1009);
    }
  }

  @Test
  void thePageIsServedAtTheRootAsHtml() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0");
        HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> page = http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
      assertThat(page.body()).contains("<title>wsjava</title>", "/echo", "/chat", "ws.extensions");
    }
  }

  @Test
  void itPrintsEachUrlItServesOnALineOfItsOwn() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0")) {
      String authority = "127.0.0.1:" + server.port();
      assertThat(server.urls()).hasSize(4);
      assertThat(server.urls().get(0)).startsWith("http://" + authority + "/ ");
      assertThat(server.urls().get(1)).startsWith("ws://" + authority + "/echo ");
      assertThat(server.urls().get(2)).startsWith("ws://" + authority + "/chat ");
      assertThat(server.urls().get(3)).startsWith("ws://" + authority + "/topics ");
    }
  }

  @Test
  void chatSendsEveryMessageToEveryClientNamedByItsSender() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0");
        WebSocketClient client = WebSocketClient.builder().build()) {
      String base = "ws://127.0.0.1:" + server.port() + "/chat?nick=";
      WebSocket alice = client.open(URI.create(base + "alice"));
      awaitText(alice, "* alice joined (1 online)");
      WebSocket bob = client.open(URI.create(base + "b%C3%B6b%20the%20builder"));
      awaitText(alice, "* böbthebuilder joined (2 online)");
      awaitText(bob, "* böbthebuilder joined (2 online)");
      alice.sendText("hi bob").join();
      awaitText(alice, "alice: hi bob");
      awaitText(bob, "alice: hi bob");
      bob.sendText("hi alice").join();
      awaitText(alice, "böbthebuilder: hi alice");
      awaitText(bob, "böbthebuilder: hi alice");
      bob.close().get(10, TimeUnit.SECONDS);
      awaitText(alice, "* böbthebuilder left (1 online)");
      alice.close().get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aChatClientWithoutANicknameIsAGuest() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0");
        WebSocketClient client = WebSocketClient.builder().build()) {
      WebSocket ws = client.open(URI.create("ws://127.0.0.1:" + server.port() + "/chat?nick=%20%21"));
      Message joined = ws.receive(WAIT);
      assertThat(((Message.Text) joined).text()).matches("\\* guest-\\d+ joined \\(1 online\\)");
      ws.close().get(10, TimeUnit.SECONDS);
    }
  }

  /**
   * A chat member that never reads fills its socket buffers, then its chat queue: the room closes
   * it with 1008 (reset if its socket cannot take the close frame), while two members that read
   * go on receiving every message.
   */
  @ParameterizedTest
  @EnumSource(Transport.class)
  void aChatClientThatNeverReadsIsDroppedWithoutStallingTheOthers(Transport transport)
      throws Exception {
    int messages = 200;
    int size = 64 * 1024;
    try (ServeCommand.Running server = Cli.serve(
            "--port", "0", "--transport", transport.name(), "--chat-queue", "256k", "--no-deflate");
        WebSocketClient client = WebSocketClient.builder()
            .config(WebSocketConfig.builder().deflate(null).build()).build();
        Socket slow = RawWebSocket.connect(server.port(), "/chat?nick=slow", 4096)) {
      String base = "ws://127.0.0.1:" + server.port() + "/chat?nick=";
      Collector alice = new Collector();
      Collector bob = new Collector();
      WebSocket a = client.connect(URI.create(base + "alice"), alice).get(10, TimeUnit.SECONDS);
      client.connect(URI.create(base + "bob"), bob).get(10, TimeUnit.SECONDS);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      // The server adds a member after the handshake: wait until the room has all three.
      alice.await("* bob joined (3 online)", deadline);
      String filler = "x".repeat(size);
      for (int i = 0; i < messages; i++) {
        String text = i + " " + filler;
        a.sendText(text).join();
        // Paced by the readers: both have the message before alice sends the next.
        alice.await("alice: " + text, deadline);
        bob.await("alice: " + text, deadline);
      }
      assertThat(bob.texts.stream().filter(t -> t.startsWith("alice: ")).count()).isEqualTo(messages);
      // 1008, or a reset when its socket could not take the close frame within the bound.
      assertThat(RawWebSocket.closeOutcome(slow)).isIn("close 1008", "reset");
      while (server.chat().nicknames().contains("slow") && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(server.chat().nicknames()).containsExactlyInAnyOrder("alice", "bob");
    }
  }

  @Test
  void selfSignedServesWssToAClientThatTrustsItsCertificate() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--self-signed")) {
      assertThat(server.urls().get(0)).startsWith("https://127.0.0.1:" + server.port() + "/");
      assertThat(server.certificatePem()).exists();
      try (WebSocketClient client =
          WebSocketClient.builder().tls(TlsContexts.trusting(server.certificatePem())).build()) {
        for (String host : List.of("localhost", "127.0.0.1")) {
          WebSocket ws = client.open(URI.create("wss://" + host + ":" + server.port() + "/echo"));
          ws.sendText("over TLS to " + host).join();
          assertThat(ws.receive(WAIT)).isEqualTo(new Message.Text("over TLS to " + host));
          ws.close().get(10, TimeUnit.SECONDS);
        }
      }
      try (WebSocketClient untrusting = WebSocketClient.builder().build()) {
        URI uri = URI.create("wss://localhost:" + server.port() + "/echo");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> untrusting.open(uri))
            .isInstanceOf(IOException.class);
      }
    }
  }

  @Test
  void idleTimeoutClosesAQuietClientWith1001() throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--idle-timeout", "300ms");
        WebSocketClient client = WebSocketClient.builder().build()) {
      WebSocket ws = client.open(URI.create("ws://127.0.0.1:" + server.port() + "/echo"));
      assertThat(closeCode(ws)).isEqualTo(1001);
    }
  }

  @Test
  void closingTheServerSendsGoingAwayToItsClients() throws Exception {
    ServeCommand.Running server = Cli.serve("--port", "0");
    try (WebSocketClient client = WebSocketClient.builder().build()) {
      WebSocket ws = client.open(URI.create("ws://127.0.0.1:" + server.port() + "/echo"));
      server.close();
      assertThat(closeCode(ws)).isEqualTo(1001);
    }
  }

  /** The real thing: {@code wsjava} (no arguments but a port) as a process, stopped by SIGTERM. */
  @Test
  void sigtermDrainsTheProcessWith1012() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
            "dev.wsjava.cli.Main", "--port", "0")
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    try (WebSocketClient client = WebSocketClient.builder().build()) {
      java.io.BufferedReader out = new java.io.BufferedReader(
          new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String first = out.readLine();
      assertThat(first).matches("http://127\\.0\\.0\\.1:\\d+/ +browser page: chat and echo");
      assertThat(out.readLine()).contains("/echo");
      assertThat(out.readLine()).contains("/chat");
      String port = first.replaceAll("http://127\\.0\\.0\\.1:(\\d+)/.*", "$1");
      WebSocket ws = client.open(URI.create("ws://127.0.0.1:" + port + "/echo"));
      ws.sendText("still here").join();
      assertThat(ws.receive(WAIT)).isEqualTo(new Message.Text("still here"));
      p.destroy(); // SIGTERM: a drain, one client, so at the window's start
      assertThat(closeCode(ws)).isEqualTo(1012);
      assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void tlsOptionsAreOneOfKeystoreCertAndKeyOrSelfSigned() {
    Cli.Result both = Cli.run("", "serve", "--port", "0", "--self-signed", "--keystore", "x.p12");
    assertThat(both.exit()).as(both.toString()).isEqualTo(2);
    assertThat(both.stderr()).contains("choose one of --keystore, --cert/--key and --self-signed");
    Cli.Result half = Cli.run("", "serve", "--port", "0", "--cert", "cert.pem");
    assertThat(half.exit()).as(half.toString()).isEqualTo(2);
    assertThat(half.stderr()).contains("--cert and --key go together");
  }

  private static int closeCode(WebSocket ws) throws InterruptedException {
    try {
      while (true) {
        if (ws.receive(WAIT) == null) {
          throw new AssertionError("no close within " + WAIT);
        }
      }
    } catch (dev.wsjava.WebSocketClosedException closed) {
      return closed.code();
    }
  }

  /** Reads a raw connection until its close frame; returns the close code. */
  private static void awaitText(WebSocket ws, String expected) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      Message m = ws.receive(Duration.ofMillis(200));
      if (m instanceof Message.Text t && t.text().equals(expected)) {
        return;
      }
    }
    throw new AssertionError("no message " + expected);
  }

  /** Collects a listener connection's text messages. */
  private static final class Collector implements WebSocketListener {
    final List<String> texts = new CopyOnWriteArrayList<>();
    volatile String closed = "open";

    @Override
    public void onText(WebSocket ws, String text) {
      texts.add(text);
    }

    @Override
    public void onClose(WebSocket ws, int code, String reason) {
      closed = "closed " + code + " " + reason;
    }

    void await(String text, long deadlineNanos) throws InterruptedException {
      while (!texts.contains(text)) {
        if (System.nanoTime() > deadlineNanos) {
          throw new AssertionError("no message " + text.substring(0, Math.min(40, text.length()))
              + " after " + texts.size() + " messages; " + closed);
        }
        Thread.sleep(1);
      }
    }
  }
}
