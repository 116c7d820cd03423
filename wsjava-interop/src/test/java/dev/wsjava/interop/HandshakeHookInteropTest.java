package dev.wsjava.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.HandshakeDecision;
import dev.wsjava.TlsContexts;
import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocketHandshakeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our server's handshake hook seen by real clients, the JDK's {@code java.net.http} and OkHttp,
 * over both transports, ws and wss: a 401 with {@code WWW-Authenticate} and a body, and an
 * acceptance that chooses the subprotocol and sets a cookie.
 */
class HandshakeHookInteropTest {
  @TempDir static Path dir;
  static SelfSigned cert;
  static SSLContext serverTls;
  static SSLContext clientTls;
  static X509TrustManager trust;

  WebSocketServer server;

  record Setup(Transport transport, boolean tls) {
    @Override
    public String toString() {
      return transport + (tls ? " wss" : " ws");
    }
  }

  static Stream<Setup> setups() {
    List<Setup> out = new ArrayList<>();
    for (Transport t : Transport.values()) {
      out.add(new Setup(t, false));
      out.add(new Setup(t, true));
    }
    return out.stream();
  }

  @BeforeAll
  static void certificates() throws Exception {
    cert = SelfSigned.create(dir);
    serverTls = TlsContexts.fromPkcs12(cert.pkcs12(), cert.password());
    KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
    ks.load(null, null);
    try (InputStream in = Files.newInputStream(cert.certPem())) {
      ks.setCertificateEntry("server", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(ks);
    trust = (X509TrustManager) tmf.getTrustManagers()[0];
    clientTls = SSLContext.getInstance("TLS");
    clientTls.init(null, tmf.getTrustManagers(), null);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  /** {@code /ws}: 401 without {@code Authorization}; with it, subprotocol {@code b} and a cookie. */
  URI start(Setup s) throws Exception {
    WebSocketServer.Builder b =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(WebSocketConfig.builder().transport(s.transport()).eventLoops(1).build())
            .onHandshake(
                req ->
                    req.header("Authorization") == null
                        ? HandshakeDecision.reject(401)
                            .header("WWW-Authenticate", "Bearer realm=\"chat\"")
                            .body("log in first\n")
                        : HandshakeDecision.accept()
                            .subprotocol(req.subprotocols().contains("b") ? "b" : null)
                            .header("Set-Cookie", "sid=s-1; HttpOnly"))
            .websocket(
                "/ws",
                new WebSocketListener() {
                  @Override
                  public void onText(WebSocket ws, String text) {
                    ws.sendText(text);
                  }
                });
    if (s.tls()) {
      b.tls(serverTls);
    }
    server = b.start();
    return URI.create((s.tls() ? "wss" : "ws") + "://localhost:" + server.port() + "/ws");
  }

  HttpClient jdk(Setup s) {
    HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10));
    if (s.tls()) {
      b.sslContext(clientTls);
    }
    return b.build();
  }

  OkHttpClient okhttp(Setup s) {
    OkHttpClient.Builder b = new OkHttpClient.Builder();
    if (s.tls()) {
      b.sslSocketFactory(clientTls.getSocketFactory(), trust);
    }
    return b.build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void theJdkClientSeesThe401WithItsHeaderAndBodyThenIsServedWithTheChosenSubprotocol(Setup s)
      throws Exception {
    URI uri = start(s);
    try (HttpClient http = jdk(s)) {
      CompletableFuture<java.net.http.WebSocket> refused =
          http.newWebSocketBuilder().buildAsync(uri, new java.net.http.WebSocket.Listener() {});
      assertThatThrownBy(refused::join)
          .isInstanceOf(CompletionException.class)
          .cause()
          .isInstanceOfSatisfying(
              WebSocketHandshakeException.class,
              e -> {
                assertThat(e.getResponse().statusCode()).isEqualTo(401);
                assertThat(e.getResponse().headers().firstValue("WWW-Authenticate"))
                    .hasValue("Bearer realm=\"chat\"");
                assertThat(e.getResponse().body()).isEqualTo("log in first\n");
              });
      java.net.http.WebSocket ws =
          http.newWebSocketBuilder()
              .header("Authorization", "Bearer t")
              .subprotocols("a", "b")
              .buildAsync(uri, new java.net.http.WebSocket.Listener() {})
              .get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
      assertThat(ws.getSubprotocol()).isEqualTo("b");
      ws.abort();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void okHttpSeesThe401WithItsHeaderThenTheCookieAndSubprotocolOfTheAcceptance(Setup s)
      throws Exception {
    URI uri = start(s);
    OkHttpClient http = okhttp(s);
    try {
      Response refused = open(http, new Request.Builder().url(uri.toString()).build()).join();
      assertThat(refused.code()).isEqualTo(401);
      assertThat(refused.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"chat\"");
      Response accepted =
          open(
                  http,
                  new Request.Builder()
                      .url(uri.toString())
                      .header("Authorization", "Bearer t")
                      .header("Sec-WebSocket-Protocol", "a, b")
                      .build())
              .join();
      assertThat(accepted.code()).isEqualTo(101);
      assertThat(accepted.header("Set-Cookie")).isEqualTo("sid=s-1; HttpOnly");
      assertThat(accepted.header("Sec-WebSocket-Protocol")).isEqualTo("b");
    } finally {
      http.dispatcher().executorService().shutdownNow();
      http.connectionPool().evictAll();
    }
  }

  /** Opens a WebSocket and completes with the handshake's response, whether it opened or failed. */
  static CompletableFuture<Response> open(OkHttpClient http, Request request) {
    CompletableFuture<Response> done = new CompletableFuture<>();
    http.newWebSocket(
        request,
        new okhttp3.WebSocketListener() {
          @Override
          public void onOpen(okhttp3.WebSocket ws, Response response) {
            done.complete(response);
            ws.cancel();
          }

          @Override
          public void onFailure(okhttp3.WebSocket ws, Throwable t, Response response) {
            if (response != null) {
              done.complete(response);
            } else {
              done.completeExceptionally(t);
            }
          }
        });
    return done.orTimeout(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
  }
}
