package dev.wsjava.bench.peer.okhttp;

import dev.wsjava.bench.peer.ClientBench;
import dev.wsjava.bench.peer.EchoClientDriver;
import dev.wsjava.bench.peer.PeerArgs;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.SocketFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okio.ByteString;

/**
 * OkHttp's WebSocket client in scenarios 8 and 10, with TCP_NODELAY turned on through its socket
 * factory (OkHttp's own sockets leave Nagle's algorithm on). Its {@code send} copies the message
 * into its queue and returns at once (no completion callback), so the send future completes
 * immediately; the window of messages in flight still bounds the queue. Command line: {@link
 * ClientBench}'s.
 */
public final class OkHttpClientDriver implements EchoClientDriver {
  private final OkHttpClient client;

  private OkHttpClientDriver(Path trust) throws Exception {
    OkHttpClient.Builder b = new OkHttpClient.Builder()
        .readTimeout(0, TimeUnit.MILLISECONDS) // the idle gaps of a run are not failures
        .socketFactory(new NoDelaySockets()); // OkHttp leaves Nagle's algorithm on
    if (trust != null) {
      b.sslSocketFactory(PeerArgs.clientTls(trust).getSocketFactory(),
          (X509TrustManager) PeerArgs.trustManagers(trust).getTrustManagers()[0]);
    }
    client = b.build();
  }

  /**
   * Runs the client workloads.
   *
   * @param args {@link ClientBench#main}'s arguments
   * @throws Exception when the client cannot be built
   */
  public static void main(String[] args) throws Exception {
    ClientBench.main(args, OkHttpClientDriver::new);
  }

  /** The default socket factory with TCP_NODELAY on, the suite's contract (OkHttp leaves it off). */
  private static final class NoDelaySockets extends SocketFactory {
    private static final SocketFactory DEFAULT = SocketFactory.getDefault();

    private static Socket noDelay(Socket s) throws IOException {
      s.setTcpNoDelay(true);
      return s;
    }

    @Override
    public Socket createSocket() throws IOException {
      return noDelay(DEFAULT.createSocket());
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
      return noDelay(DEFAULT.createSocket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress local, int localPort) throws IOException {
      return noDelay(DEFAULT.createSocket(host, port, local, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
      return noDelay(DEFAULT.createSocket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress host, int port, InetAddress local, int localPort)
        throws IOException {
      return noDelay(DEFAULT.createSocket(host, port, local, localPort));
    }
  }

  @Override
  public String describe() {
    return "okhttp " + okhttp3.OkHttp.VERSION;
  }

  @Override
  public Connection connect(URI uri, Inbound inbound) throws Exception {
    CompletableFuture<WebSocket> opened = new CompletableFuture<>();
    Request request = new Request.Builder().url(uri.toString().replaceFirst("^ws", "http")).build();
    client.newWebSocket(request, new WebSocketListener() {
      @Override
      public void onOpen(WebSocket ws, Response response) {
        opened.complete(ws);
      }

      @Override
      public void onMessage(WebSocket ws, String text) {
        inbound.onText(text);
      }

      @Override
      public void onMessage(WebSocket ws, ByteString bytes) {
        inbound.onBinary(bytes.asByteBuffer());
      }

      @Override
      public void onClosing(WebSocket ws, int code, String reason) {
        inbound.onError(new IllegalStateException("closed by the server: " + code + " " + reason));
      }

      @Override
      public void onFailure(WebSocket ws, Throwable t, Response response) {
        opened.completeExceptionally(t);
        inbound.onError(t);
      }
    });
    WebSocket ws = opened.get(10, TimeUnit.SECONDS);
    return new Connection() {
      @Override
      public CompletableFuture<?> sendText(String text) {
        return sent(ws.send(text));
      }

      @Override
      public CompletableFuture<?> sendBinary(ByteBuffer data) {
        return sent(ws.send(ByteString.of(data)));
      }

      private CompletableFuture<?> sent(boolean queued) {
        return queued
            ? CompletableFuture.completedFuture(null)
            : CompletableFuture.failedFuture(new IllegalStateException("OkHttp refused the send"));
      }

      @Override
      public void close() {
        ws.close(1000, null);
      }
    };
  }

  @Override
  public void close() {
    client.dispatcher().executorService().shutdown();
    client.connectionPool().evictAll();
  }
}
