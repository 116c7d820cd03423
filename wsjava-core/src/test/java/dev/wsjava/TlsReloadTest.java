package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A certificate replaced on a running server: new connections get it, open ones keep theirs. */
class TlsReloadTest {
  @TempDir static Path dir;
  static TestTls before;
  static TestTls after;

  @BeforeAll
  static void certificates() throws Exception {
    before = TestTls.create(Files.createDirectory(dir.resolve("before")));
    after = TestTls.create(Files.createDirectory(dir.resolve("after")));
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void newConnectionsUseTheNewCertificateAndOpenOnesGoOn(Transport t) throws Exception {
    WebSocketConfig config = WebSocketConfig.builder().transport(t).eventLoops(1).build();
    CountingEcho echo = new CountingEcho();
    try (WebSocketServer server =
            WebSocketServer.builder().bind("127.0.0.1", 0).config(config).tls(before.server())
                .websocket("/echo", echo).start();
        WebSocketClient old = WebSocketClient.builder().config(config).tls(before.client()).build();
        WebSocketClient renewed =
            WebSocketClient.builder().config(config).tls(after.client()).build()) {
      URI uri = URI.create("wss://localhost:" + server.port() + "/echo");
      WebSocket open = old.connect(uri).get(10, TimeUnit.SECONDS);
      assertThatThrownBy(() -> renewed.connect(uri).get(10, TimeUnit.SECONDS))
          .as("not trusted before the reload");

      server.reloadTls(after.server());

      open.sendText("still here");
      assertThat(open.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("still here"));
      WebSocket fresh = renewed.connect(uri).get(10, TimeUnit.SECONDS);
      fresh.sendText("new");
      assertThat(fresh.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("new"));
      assertThatThrownBy(() -> old.connect(uri).get(10, TimeUnit.SECONDS))
          .as("the old certificate is no longer served");
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aServerWithoutTlsHasNothingToReload(Transport t) throws Exception {
    try (WebSocketServer server =
        WebSocketServer.builder().bind("127.0.0.1", 0)
            .config(WebSocketConfig.builder().transport(t).eventLoops(1).build())
            .websocket("/echo", new CountingEcho()).start()) {
      assertThatThrownBy(() -> server.reloadTls(before.server()))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("without TLS");
    }
  }
}
