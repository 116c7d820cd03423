package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Mutual TLS over both transports, with certificates the test makes: a server that requires or
 * requests client certificates, clients that present one from PKCS12 or PEM, and the chain the
 * handshake hook sees.
 */
class MutualTlsTest {
  @TempDir static Path dir;
  static SelfSigned server;
  static SelfSigned alice;
  static SelfSigned mallory;

  WebSocketServer ws;
  WebSocketClient client;

  @BeforeAll
  static void certificates() throws Exception {
    server = SelfSigned.create(dir);
    alice = SelfSigned.create(dir, "alice", "CN=alice,O=wsjava tests");
    mallory = SelfSigned.create(dir, "mallory", "CN=mallory");
  }

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (ws != null) {
      ws.close();
    }
  }

  /** A server trusting alice's certificate, whose hook accepts with the client's subject. */
  URI start(Transport t, boolean require) throws Exception {
    WebSocketServer.Builder b =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(WebSocketConfig.builder().transport(t).eventLoops(1).build())
            .tls(TlsContexts.fromPkcs12(server.pkcs12(), server.password(), alice.certPem()))
            .onHandshake(
                req ->
                    HandshakeDecision.accept()
                        .attach(
                            req.peerCertificates().isEmpty()
                                ? "anonymous"
                                : req.peerCertificates().get(0).getSubjectX500Principal().getName()))
            .websocket(
                "/who",
                new WebSocketListener() {
                  @Override
                  public void onText(WebSocket s, String text) {
                    s.sendText(String.valueOf(s.attachment()));
                  }
                });
    if (require) {
      b.requireClientCertificates();
    } else {
      b.requestClientCertificates();
    }
    ws = b.start();
    return URI.create("wss://localhost:" + ws.port() + "/who");
  }

  String who(Transport t, SSLContext tls, URI uri) throws Exception {
    if (client != null) {
      client.close();
    }
    client =
        WebSocketClient.builder()
            .config(WebSocketConfig.builder().transport(t).eventLoops(1).build())
            .tls(tls)
            .build();
    WebSocket s = client.connect(uri).get(10, TimeUnit.SECONDS);
    s.sendText("?");
    Message m = s.receive(Duration.ofSeconds(10));
    s.close();
    return ((Message.Text) m).text();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aRequiredCertificateFromPkcs12OrPemIsSeenByTheHookAndNoneOrAnUntrustedOneIsRefused(
      Transport t) throws Exception {
    URI uri = start(t, true);
    String subject = "CN=alice,O=wsjava tests";
    assertThat(who(t, TlsContexts.fromPkcs12(alice.pkcs12(), alice.password(), server.certPem()), uri))
        .isEqualTo(subject);
    assertThat(who(t, TlsContexts.fromPem(alice.certPem(), alice.keyPem(), server.certPem()), uri))
        .isEqualTo(subject);
    for (SSLContext refused :
        List.of(
            TlsContexts.trusting(server.certPem()),
            TlsContexts.fromPkcs12(mallory.pkcs12(), mallory.password(), server.certPem()))) {
      // TLS 1.3 lets the client finish first: the refusal comes as an alert or a closed socket,
      // at the handshake or at the first read.
      assertThatThrownBy(() -> who(t, refused, uri)).isInstanceOf(Exception.class);
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aRequestedCertificateMayBeDeclinedAndTheHookThenSeesNone(Transport t) throws Exception {
    URI uri = start(t, false);
    assertThat(who(t, TlsContexts.trusting(server.certPem()), uri)).isEqualTo("anonymous");
    assertThat(who(t, TlsContexts.fromPem(alice.certPem(), alice.keyPem(), server.certPem()), uri))
        .isEqualTo("CN=alice,O=wsjava tests");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void clientCertificatesWithoutTlsAreRefusedAtStart(Transport t) {
    assertThatThrownBy(
            () ->
                WebSocketServer.builder()
                    .bind("127.0.0.1", 0)
                    .config(WebSocketConfig.builder().transport(t).build())
                    .requireClientCertificates()
                    .websocket("/x", new WebSocketListener() {})
                    .start())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("need TLS");
  }
}
