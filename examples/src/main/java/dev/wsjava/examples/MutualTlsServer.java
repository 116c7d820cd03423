package dev.wsjava.examples;

import dev.wsjava.HandshakeDecision;
import dev.wsjava.TlsContexts;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Mutual TLS: the server requires a client certificate its trust store accepts, and greets the
 * client by the certificate's subject; a client presents its own from PKCS12 (or PEM, with {@code
 * TlsContexts.fromPem(chain, key, trusted)}).
 *
 * <p>Make the certificates (development only):
 *
 * <pre>
 * keytool -genkeypair -alias server -keyalg EC -groupname secp256r1 -dname CN=localhost \
 *     -ext SAN=dns:localhost \
 *     -storetype PKCS12 -keystore server.p12 -storepass changeit
 * keytool -exportcert -rfc -alias server -keystore server.p12 -storepass changeit -file server.pem
 * keytool -genkeypair -alias client -keyalg EC -groupname secp256r1 -dname CN=alice \
 *     -storetype PKCS12 -keystore client.p12 -storepass changeit
 * keytool -exportcert -rfc -alias client -keystore client.p12 -storepass changeit -file client.pem
 * </pre>
 *
 * <p>Run: {@code java -cp wsjava-core/target/classes:examples/target/classes
 * dev.wsjava.examples.MutualTlsServer DIR} with the four files in DIR; it starts the server,
 * connects once as the client, prints the greeting and stops.
 */
public final class MutualTlsServer {
  private MutualTlsServer() {}

  /**
   * Runs the server and one client.
   *
   * @param args the directory holding server.p12, server.pem, client.p12 and client.pem
   * @throws Exception when a file is missing or a handshake fails
   */
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : ".");
    char[] password = "changeit".toCharArray();
    try (WebSocketServer server =
            WebSocketServer.builder()
                .bind("localhost", 0)
                // The server's key, and the client certificates (or their CA) it accepts.
                .tls(TlsContexts.fromPkcs12(dir.resolve("server.p12"), password, dir.resolve("client.pem")))
                .requireClientCertificates()
                .onHandshake(req -> HandshakeDecision.accept()
                    .attach(req.peerCertificates().get(0).getSubjectX500Principal().getName()))
                .websocket("/hello", new WebSocketListener() {
                  @Override
                  public void onOpen(WebSocket ws) {
                    ws.sendText("hello, " + ws.attachment());
                  }
                })
                .start();
        WebSocketClient client =
            WebSocketClient.builder()
                // The client's key, and the server certificate (or its CA) it trusts.
                .tls(TlsContexts.fromPkcs12(dir.resolve("client.p12"), password, dir.resolve("server.pem")))
                .build()) {
      WebSocket ws = client.open(URI.create("wss://localhost:" + server.port() + "/hello"));
      System.out.println(ws.receive(Duration.ofSeconds(10)));
      ws.close().join();
    }
  }
}
