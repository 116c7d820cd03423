package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.Message;
import dev.wsjava.TlsContexts;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code wsjava serve --keystore}: a renewed keystore file is picked up (the watch's trigger pulled
 * by the test, not waited for), new connections get the new certificate, open ones go on; a file
 * that does not load keeps the current certificate.
 */
class ServeTlsReloadTest {
  @TempDir Path dir;

  @Test
  void aChangedKeystoreServesNewConnectionsAndSparesOpenOnes() throws Exception {
    SelfSignedCertificate first = SelfSignedCertificate.create();
    SelfSignedCertificate second = SelfSignedCertificate.create();
    try {
      Path served = dir.resolve("server.p12");
      Files.copy(first.keyStore(), served);
      String password = new String(first.password());
      ServeCommand.Running server = Cli.serve("--port", "0", "--keystore", served.toString(),
          "--keystore-password", password);
      try (WebSocketClient old = WebSocketClient.builder()
              .tls(TlsContexts.trusting(first.certificatePem())).build();
          WebSocketClient renewed = WebSocketClient.builder()
              .tls(TlsContexts.trusting(second.certificatePem())).build()) {
        URI uri = URI.create("wss://localhost:" + server.port() + "/echo");
        WebSocket open = old.open(uri);
        assertThat(server.tlsWatch().check()).as("nothing changed yet").isFalse();

        Files.writeString(served, "half written");
        touch(served, 1);
        assertThat(server.tlsWatch().check()).as("a broken file is not applied").isFalse();
        old.open(uri).close();

        rekey(second, served, first.password());
        touch(served, 2);
        assertThat(server.tlsWatch().check()).isTrue();

        WebSocket fresh = renewed.open(uri);
        fresh.sendText("new").join();
        assertThat(fresh.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("new"));
        open.sendText("still here").join();
        assertThat(open.receive(Duration.ofSeconds(10))).isEqualTo(new Message.Text("still here"));
        assertThatThrownBy(() -> old.connect(uri).get(10, TimeUnit.SECONDS))
            .as("the old certificate is no longer served");
      } finally {
        server.close();
      }
    } finally {
      first.delete();
      second.delete();
    }
  }

  /** The new file's time differs from the old even on a coarse clock. */
  private static void touch(Path file, int minutes) throws Exception {
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(60L * minutes)));
  }

  /** Writes {@code from}'s key and certificate to {@code to}, under {@code password}. */
  private static void rekey(SelfSignedCertificate from, Path to, char[] password) throws Exception {
    KeyStore in = KeyStore.getInstance("PKCS12");
    try (InputStream s = Files.newInputStream(from.keyStore())) {
      in.load(s, from.password());
    }
    Key key = in.getKey("wsjava", from.password());
    Certificate[] chain = in.getCertificateChain("wsjava");
    KeyStore out = KeyStore.getInstance("PKCS12");
    out.load(null, null);
    out.setKeyEntry("wsjava", key, password, chain);
    try (OutputStream s = Files.newOutputStream(to)) {
      out.store(s, password);
    }
  }
}
