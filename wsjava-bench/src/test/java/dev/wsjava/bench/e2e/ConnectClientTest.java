package dev.wsjava.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.TlsContexts;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import dev.wsjava.bench.peer.PeerArgs;
import dev.wsjava.bench.peer.ResultLine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class ConnectClientTest {

  private static WebSocketServer.Builder echo() {
    return WebSocketServer.builder()
        .bind("127.0.0.1", 0)
        .config(WebSocketConfig.builder().deflate(null).build())
        .websocket("/echo", new WebSocketListener() {
          @Override
          public void onText(WebSocket ws, String text) {
            ws.sendText(text);
          }
        });
  }

  @Test
  void connectionsAreOpenedCheckedAndClosedOneAfterTheOther() throws Exception {
    try (WebSocketServer server = echo().start()) {
      ResultLine line = new ConnectClient("127.0.0.1", server.port(), "/echo", null)
          .run("connect", 100, 300, ProcessHandle.current().pid());
      Map<String, String> r = ResultLine.parse(line.toString());
      assertThat(Long.parseLong(r.get("connections"))).isPositive();
      assertThat(Double.parseDouble(r.get("p50_us"))).isPositive()
          .isLessThanOrEqualTo(Double.parseDouble(r.get("p99_us")));
      assertThat(r).containsKeys("conns_per_s", "client_cpu_us_per_conn", "server_cpu_us_per_conn");
      // Each connection was closed: none is left open on the server. The client returns once it has
      // read the server's close frame; the server forgets the connection just after writing it, so
      // the last one may still be counted for a moment: wait for it, within a bound.
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (server.openTcpConnections() > 0 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
        Thread.yield();
      }
      assertThat(server.openTcpConnections()).isZero();
    }
  }

  @Test
  void theWarmUpGoesOnInRoundsUntilTheCompilersAreQuietThreeTimesInARow() throws Exception {
    try (WebSocketServer server = echo().start()) {
      ConnectClient client = new ConnectClient("127.0.0.1", server.port(), "/echo", null);
      java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
      java.io.PrintStream out = new java.io.PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8);
      long self = ProcessHandle.current().pid();
      // Not watched: only the connections asked for.
      assertThat(client.warmUp(7, -1, 60_000, self, out)).isEqualTo(new ConnectClient.Warm(7, -1));
      // A share no process can reach (200 %): every round is quiet, so three rounds follow.
      ConnectClient.Warm warm = client.warmUp(7, 2.0, 60_000, self, out);
      assertThat(warm.connections()).isEqualTo(7 + 3 * ConnectClient.WARMUP_ROUND);
      assertThat(warm.jitShare()).isBetween(0.0, 1.0);
      assertThat(log.toString(java.nio.charset.StandardCharsets.UTF_8).lines())
          .hasSize(3).allMatch(l -> l.startsWith("warm-up round ") && l.endsWith("of it"));
      // A share no process gets under (0 %): rounds until the bound, then it stops.
      long start = System.nanoTime();
      ConnectClient.Warm bounded = client.warmUp(0, 0, 300, self, out);
      assertThat(bounded.connections()).isPositive();
      assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(30_000);
    }
  }

  @Test
  void theSuitesKeyServesWssAndTheClientTrustsItWithFullHandshakes(@TempDir Path dir) throws Exception {
    TlsFiles.create(dir, List.of("127.0.0.1"));
    for (String f : List.of(PeerArgs.KEY_STORE, PeerArgs.TRUST_STORE, PeerArgs.KEY_PEM, PeerArgs.CERT_PEM)) {
      assertThat(dir.resolve(f)).isNotEmptyFile();
    }
    assertThat(Files.readString(dir.resolve(PeerArgs.KEY_PEM))).startsWith("-----BEGIN PRIVATE KEY-----\n");
    // The PEM files, as Node, Go and C++ read them, make the server's context.
    try (WebSocketServer server = echo()
        .tls(TlsContexts.fromPem(dir.resolve(PeerArgs.CERT_PEM), dir.resolve(PeerArgs.KEY_PEM))).start()) {
      javax.net.ssl.SSLContext trust = PeerArgs.clientTls(dir.resolve(PeerArgs.TRUST_STORE));
      ConnectClient client = new ConnectClient("127.0.0.1", server.port(), "/echo", trust);
      // No warm-up: the first handshakes of a cold JVM (both ends in this one) take long.
      ResultLine line = client.run("connect_tls", 0, 3000, -1);
      assertThat(Long.parseLong(ResultLine.parse(line.toString()).get("connections"))).isPositive();
      // Every session was forgotten after its connection: the next handshake resumes nothing.
      assertThat(java.util.Collections.list(trust.getClientSessionContext().getIds())).isEmpty();
    }
  }

  @Test
  void withResumeAnRsaKeyedServerResumesTheClientsSessionsFromTheirTickets(@TempDir Path dir)
      throws Exception {
    TlsFiles.create(dir, List.of("127.0.0.1"), TlsFiles.KeyType.RSA_2048);
    assertThat(Files.readString(dir.resolve(PeerArgs.KEY_PEM))).startsWith("-----BEGIN PRIVATE KEY-----\n");
    try (WebSocketServer server = echo()
        .tls(TlsContexts.fromPem(dir.resolve(PeerArgs.CERT_PEM), dir.resolve(PeerArgs.KEY_PEM))).start()) {
      javax.net.ssl.SSLContext trust = PeerArgs.clientTls(dir.resolve(PeerArgs.TRUST_STORE));
      ConnectClient client = new ConnectClient("127.0.0.1", server.port(), "/echo", trust, true);
      for (int i = 0; i < 5; i++) {
        client.once();
      }
      // Only the first handshake is full; every later one offers the last ticket and is resumed.
      assertThat(client.resumedShare()).isEqualTo(4 / 5.0);
    }
  }
}
