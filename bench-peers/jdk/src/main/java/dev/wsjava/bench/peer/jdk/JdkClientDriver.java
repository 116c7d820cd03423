package dev.wsjava.bench.peer.jdk;

import dev.wsjava.bench.peer.ClientBench;
import dev.wsjava.bench.peer.EchoClientDriver;
import dev.wsjava.bench.peer.PeerArgs;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's {@code java.net.http} WebSocket client in scenarios 8 and 10. It hands messages over in
 * parts; the listener joins them. Command line: {@link ClientBench}'s.
 */
public final class JdkClientDriver implements EchoClientDriver {
  private final HttpClient http;

  private JdkClientDriver(Path trust) throws Exception {
    HttpClient.Builder b = HttpClient.newBuilder();
    if (trust != null) {
      b.sslContext(PeerArgs.clientTls(trust));
    }
    http = b.build();
  }

  /**
   * Runs the client workloads.
   *
   * @param args {@link ClientBench#main}'s arguments
   * @throws Exception when the client cannot be built
   */
  public static void main(String[] args) throws Exception {
    ClientBench.main(args, JdkClientDriver::new);
  }

  @Override
  public String describe() {
    return "jdk java.net.http " + Runtime.version();
  }

  @Override
  public Connection connect(URI uri, Inbound inbound) throws Exception {
    WebSocket ws = http.newWebSocketBuilder()
        .buildAsync(uri, new Joiner(inbound))
        .get(10, TimeUnit.SECONDS);
    return new Connection() {
      @Override
      public CompletableFuture<?> sendText(String text) {
        return ws.sendText(text, true);
      }

      @Override
      public CompletableFuture<?> sendBinary(ByteBuffer data) {
        return ws.sendBinary(data, true);
      }

      @Override
      public void close() {
        try {
          ws.sendClose(WebSocket.NORMAL_CLOSURE, "").get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
          ws.abort();
        }
      }
    };
  }

  @Override
  public void close() {
    http.close();
  }

  /** Joins partial messages and asks for one more each time. */
  private static final class Joiner implements WebSocket.Listener {
    private final Inbound inbound;
    private final StringBuilder text = new StringBuilder();
    private final ByteArrayOutputStream binary = new ByteArrayOutputStream();

    Joiner(Inbound inbound) {
      this.inbound = inbound;
    }

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      if (last && text.isEmpty()) {
        inbound.onText(data);
      } else {
        text.append(data);
        if (last) {
          inbound.onText(text);
          text.setLength(0);
        }
      }
      ws.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
      if (last && binary.size() == 0) {
        inbound.onBinary(data);
      } else {
        byte[] b = new byte[data.remaining()];
        data.get(b);
        binary.writeBytes(b);
        if (last) {
          inbound.onBinary(ByteBuffer.wrap(binary.toByteArray()));
          binary.reset();
        }
      }
      ws.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket ws, int code, String reason) {
      inbound.onError(new IllegalStateException("closed by the server: " + code + " " + reason));
      return null;
    }

    @Override
    public void onError(WebSocket ws, Throwable error) {
      inbound.onError(error);
    }
  }
}
