package dev.wsjava.bench.peer.jetty;

import dev.wsjava.bench.peer.ClientBench;
import dev.wsjava.bench.peer.EchoClientDriver;
import dev.wsjava.bench.peer.PeerArgs;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.client.WebSocketClient;

/**
 * Jetty 12's WebSocket client (the Jetty API) in scenarios 8 and 10. Command line: {@link
 * ClientBench}'s.
 */
public final class JettyClientDriver implements EchoClientDriver {
  private final WebSocketClient client;

  private JettyClientDriver(Path trust) throws Exception {
    HttpClient http = new HttpClient();
    if (trust != null) {
      SslContextFactory.Client tls = new SslContextFactory.Client();
      tls.setSslContext(PeerArgs.clientTls(trust));
      http.setSslContextFactory(tls);
    }
    client = new WebSocketClient(http);
    client.setMaxTextMessageSize(PeerArgs.MAX_MESSAGE);
    client.setMaxBinaryMessageSize(PeerArgs.MAX_MESSAGE);
    client.start();
  }

  /**
   * Runs the client workloads.
   *
   * @param args {@link ClientBench#main}'s arguments
   * @throws Exception when Jetty's client does not start
   */
  public static void main(String[] args) throws Exception {
    ClientBench.main(args, JettyClientDriver::new);
  }

  @Override
  public String describe() {
    return "jetty websocket client " + org.eclipse.jetty.util.Jetty.VERSION;
  }

  @Override
  public Connection connect(URI uri, Inbound inbound) throws Exception {
    Session session = client.connect(new Receiver(inbound), uri).get(10, TimeUnit.SECONDS);
    return new Connection() {
      @Override
      public CompletableFuture<?> sendText(String text) {
        Callback.Completable done = new Callback.Completable();
        session.sendText(text, done);
        return done;
      }

      @Override
      public CompletableFuture<?> sendBinary(ByteBuffer data) {
        Callback.Completable done = new Callback.Completable();
        session.sendBinary(data, done);
        return done;
      }

      @Override
      public void close() {
        session.close();
      }
    };
  }

  @Override
  public void close() {
    try {
      client.stop();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Hands whole messages to the suite; public for Jetty's lookup. */
  public static final class Receiver implements Session.Listener.AutoDemanding {
    private final Inbound inbound;

    Receiver(Inbound inbound) {
      this.inbound = inbound;
    }

    @Override
    public void onWebSocketText(String text) {
      inbound.onText(text);
    }

    @Override
    public void onWebSocketBinary(ByteBuffer data, Callback callback) {
      inbound.onBinary(data);
      callback.succeed();
    }

    @Override
    public void onWebSocketError(Throwable cause) {
      inbound.onError(cause);
    }
  }
}
