package dev.wsjava.jakarta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.TlsContexts;
import dev.wsjava.Transport;
import dev.wsjava.WebSocketConfig;
import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.ContainerProvider;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.OnMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** wss:// end to end: the client's SSLContext, and the server's view of a client certificate. */
@Timeout(60)
class JakartaTlsTest {
  @TempDir static Path dir;

  @ServerEndpoint("/who")
  public static class Who {
    @OnMessage
    public String text(String s, Session session) {
      return session.isSecure() + " " + (session.getUserPrincipal() == null ? null : session.getUserPrincipal().getName());
    }
  }

  /** Makes NAME.p12 (an EC key for SUBJECT, valid for localhost) and NAME.pem with keytool. */
  private static Path keyPair(String name, String subject) throws Exception {
    Path p12 = dir.resolve(name + ".p12");
    if (Files.exists(p12)) {
      return p12;
    }
    Process p = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
            "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
            "-dname", subject, "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
            "-keystore", p12.toString(), "-storepass", "changeit", "-keypass", "changeit")
        .redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    assertThat(p.waitFor()).isZero();
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (var in = Files.newInputStream(p12)) {
      ks.load(in, "changeit".toCharArray());
    }
    Files.writeString(dir.resolve(name + ".pem"), "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(ks.getCertificate(name).getEncoded())
        + "\n-----END CERTIFICATE-----\n");
    return p12;
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aClientCertificateIsTheSessionsPrincipal(Transport t) throws Exception {
    Path server = keyPair("server", "CN=localhost");
    Path client = keyPair("client", "CN=alice");
    char[] pw = "changeit".toCharArray();
    try (JakartaServer s = JakartaServer.builder()
        .bind("127.0.0.1", 0)
        .config(WebSocketConfig.builder().transport(t).build())
        .tls(TlsContexts.fromPkcs12(server, pw, dir.resolve("client.pem")))
        .routes(b -> b.requestClientCertificates())
        .endpoint(Who.class)
        .start()) {
      BlockingQueue<String> got = new LinkedBlockingQueue<>();
      Endpoint endpoint = new Endpoint() {
        @Override
        public void onOpen(Session session, EndpointConfig config) {
          session.addMessageHandler(String.class, got::add);
        }
      };
      // the standard way: the config's SSLContext
      SSLContext withKey = TlsContexts.fromPkcs12(client, pw, dir.resolve("server.pem"));
      ClientEndpointConfig config = ClientEndpointConfig.Builder.create().sslContext(withKey).build();
      config.getUserProperties().put(JakartaProperties.TRANSPORT, t);
      Session a = ContainerProvider.getWebSocketContainer().connectToServer(endpoint, config,
          URI.create("wss://localhost:" + s.port() + "/who"));
      assertThat(a.isSecure()).isTrue();
      a.getBasicRemote().sendText("?");
      assertThat(got.poll(10, TimeUnit.SECONDS)).isEqualTo("true CN=alice");
      a.close();

      // Tomcat's user property, and no client certificate
      ClientEndpointConfig byProperty = ClientEndpointConfig.Builder.create().build();
      byProperty.getUserProperties().put(JakartaProperties.SSL_CONTEXT, TlsContexts.trusting(dir.resolve("server.pem")));
      byProperty.getUserProperties().put(JakartaProperties.TRANSPORT, t.name());
      Session b = ContainerProvider.getWebSocketContainer().connectToServer(endpoint, byProperty,
          URI.create("wss://localhost:" + s.port() + "/who"));
      b.getBasicRemote().sendText("?");
      assertThat(got.poll(10, TimeUnit.SECONDS)).isEqualTo("true null");
      b.close();
    }
  }
}
