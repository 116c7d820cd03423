package dev.wsjava;

import dev.wsjava.extension.ExtensionFactory;
import dev.wsjava.handshake.ClientHandshakeConfig;
import dev.wsjava.internal.http.HttpLimits;
import dev.wsjava.internal.http.Router;
import dev.wsjava.transport.ClientTransport;
import dev.wsjava.transport.Acceptor;
import dev.wsjava.transport.ConnectionConfig;
import dev.wsjava.transport.ServerBuilder;
import dev.wsjava.transport.ServerTransport;
import dev.wsjava.transport.blocking.BlockingClient;
import dev.wsjava.transport.blocking.BlockingServer;
import dev.wsjava.transport.nio.NioClient;
import dev.wsjava.transport.nio.NioServer;
import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/** Maps the API's configuration onto the transport a user chose. */
final class Transports {
  private Transports() {}

  static ServerTransport server(
      WebSocketConfig config,
      ConnectionConfig connection,
      String host,
      int port,
      SSLContext tls,
      ServerBuilder.ClientAuth clientAuth,
      boolean proxyProtocol,
      Router<Acceptor> router,
      ServerBuilder.Refusals refusals)
      throws IOException {
    return switch (config.transport()) {
      case NIO -> {
        NioServer.Builder b =
            NioServer.builder()
                .bind(host, port)
                .eventLoopSpin(config.eventLoopSpin())
                .connectionConfig(connection)
                .router(router, httpLimits(config))
                .proxyProtocol(proxyProtocol)
                .refusals(refusals);
        if (config.eventLoops() > 0) { // else the server's own group: one loop per processor
          b.eventLoops(config.eventLoops());
        }
        if (tls != null) {
          b.tls(tls).clientAuth(clientAuth);
        }
        yield b.start();
      }
      case BLOCKING -> {
        BlockingServer.Builder b =
            BlockingServer.builder()
                .bind(host, port)
                .connectionConfig(connection)
                .router(router, httpLimits(config))
                .proxyProtocol(proxyProtocol)
                .refusals(refusals);
        if (tls != null) {
          b.tls(tls).clientAuth(clientAuth);
        }
        yield b.start();
      }
    };
  }

  static ClientTransport client(
      WebSocketConfig config, ClientHandshakeConfig handshake, SSLContext tls, boolean insecure) {
    SSLContext context = insecure ? trustAnything() : tls;
    return switch (config.transport()) {
      case NIO -> {
        NioClient.Builder b =
            NioClient.builder()
                .eventLoopSpin(config.eventLoopSpin())
                .connectionConfig(config.connectionConfig(true))
                .handshakeConfig(handshake);
        if (config.eventLoops() > 0) { // else the client's own group: one loop per processor
          b.eventLoops(config.eventLoops());
        }
        if (context != null) {
          b.sslContext(context);
        }
        if (insecure) {
          b.insecureSkipHostnameVerification();
        }
        yield b.build();
      }
      case BLOCKING -> {
        BlockingClient.Builder b =
            BlockingClient.builder()
                .connectionConfig(config.connectionConfig(false))
                .handshakeConfig(handshake);
        if (context != null) {
          b.sslContext(context);
        }
        if (insecure) {
          b.insecureSkipHostnameVerification();
        }
        yield b.build();
      }
    };
  }

  /** The HTTP front's limits: a request (and so an upgrade) must arrive within the handshake time. */
  private static HttpLimits httpLimits(WebSocketConfig config) {
    return HttpLimits.defaults().withRequestTimeoutNanos(config.handshakeTimeout().toNanos());
  }

  static List<ExtensionFactory> extensions(WebSocketConfig config) {
    return config.deflate() == null ? List.of() : List.of(config.deflate());
  }

  /** Picks the client's first offered subprotocol that the server supports, in client order. */
  static Function<List<String>, String> subprotocolSelector(List<String> supported) {
    return offered -> {
      for (String p : offered) {
        if (supported.contains(p)) {
          return p;
        }
      }
      return null;
    };
  }

  /** A context that trusts any certificate: only behind the loudly named development option. */
  private static SSLContext trustAnything() {
    dev.wsjava.events.Loggers.CLIENT
        .log(System.Logger.Level.WARNING,
            "TLS certificate and host name checks are OFF (development only): the connection is"
                + " not protected against interception");
    TrustManager anything =
        new X509ExtendedTrustManager() {
          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType, Socket s) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType, Socket s) {}

          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine e) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine e) {}

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        };
    try {
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, new TrustManager[] {anything}, null);
      return ctx;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("TLS is not available in this JVM", e);
    }
  }
}
