package dev.wsjava.interop;

import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;
import okio.ByteString;
import org.junit.jupiter.api.AfterAll;

/**
 * OkHttp 5's WebSocket client against our server. OkHttp always offers permessage-deflate (it has
 * no switch for it), so only the server's deflate is varied. It cannot send fragments or pings of
 * its own, so it adds no test of its own.
 */
class OkHttpClientAgainstOurServerTest extends PeerClientAgainstOurServer {
  private final OkHttpClient http = new OkHttpClient.Builder().build();

  @AfterAll
  void closeHttpClient() {
    http.dispatcher().executorService().shutdownNow();
    http.connectionPool().evictAll();
  }

  @Override
  List<Boolean> clientDeflate() {
    return List.of(true);
  }

  @Override
  PeerClient connect(URI uri, boolean deflate, List<String> subprotocols) throws Exception {
    Request.Builder request = new Request.Builder().url(uri.toString());
    if (!subprotocols.isEmpty()) {
      request.header("Sec-WebSocket-Protocol", String.join(", ", subprotocols));
    }
    OkHttp c = new OkHttp();
    c.ws = http.newWebSocket(request.build(), c);
    c.response = c.opened.get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    return c;
  }

  static final class OkHttp extends WebSocketListener implements PeerClient {
    final Recorder inbox = new Recorder();
    final CompletableFuture<Response> opened = new CompletableFuture<>();
    volatile WebSocket ws;
    volatile Response response;

    @Override
    public Recorder inbox() {
      return inbox;
    }

    @Override
    public void sendText(String text) {
      if (!ws.send(text)) {
        throw new IllegalStateException("OkHttp refused the send");
      }
    }

    @Override
    public void sendBinary(byte[] data) {
      if (!ws.send(ByteString.of(data))) {
        throw new IllegalStateException("OkHttp refused the send");
      }
    }

    @Override
    public void close(int code, String reason) {
      ws.close(code, reason);
    }

    @Override
    public String subprotocol() {
      return response.header("Sec-WebSocket-Protocol");
    }

    @Override
    public Boolean deflateNegotiated() {
      String extensions = response.header("Sec-WebSocket-Extensions");
      return extensions != null && extensions.startsWith("permessage-deflate");
    }

    @Override
    public void abort() {
      if (ws != null) {
        ws.cancel();
      }
    }

    @Override
    public void onOpen(WebSocket webSocket, Response r) {
      opened.complete(r);
    }

    @Override
    public void onMessage(WebSocket webSocket, String text) {
      inbox.messages.add(text);
    }

    @Override
    public void onMessage(WebSocket webSocket, ByteString bytes) {
      inbox.messages.add(bytes.toByteArray());
    }

    @Override
    public void onClosing(WebSocket webSocket, int code, String reason) {
      inbox.closed.complete(code + " " + reason);
      webSocket.close(code, null); // OkHttp leaves the answer to the application
    }

    @Override
    public void onClosed(WebSocket webSocket, int code, String reason) {
      inbox.closed.complete(code + " " + reason);
    }

    @Override
    public void onFailure(WebSocket webSocket, Throwable t, Response r) {
      inbox.errors.add(t);
      opened.completeExceptionally(t);
      inbox.closed.completeExceptionally(t);
    }
  }
}
