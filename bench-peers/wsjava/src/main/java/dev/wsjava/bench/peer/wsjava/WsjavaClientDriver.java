package dev.wsjava.bench.peer.wsjava;

import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.bench.peer.ClientBench;
import dev.wsjava.bench.peer.EchoClientDriver;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The wsjava client in scenario 8, on either transport: a listener-style connection. Command line:
 * {@code nio|blocking} followed by {@link ClientBench}'s.
 */
public final class WsjavaClientDriver implements EchoClientDriver {
  private final Transport transport;
  private final WebSocketClient client;

  private WsjavaClientDriver(Transport transport) {
    this.transport = transport;
    this.client = WebSocketClient.builder()
        .config(WebSocketConfig.builder().transport(transport).deflate(null).build())
        .build();
  }

  /**
   * Runs the scenario 8 workloads.
   *
   * @param args {@code nio|blocking} then {@link ClientBench#main}'s arguments
   */
  public static void main(String[] args) {
    Transport t = Transport.valueOf(args[0].toUpperCase(Locale.ROOT));
    ClientBench.main(new WsjavaClientDriver(t), java.util.Arrays.copyOfRange(args, 1, args.length));
  }

  @Override
  public String describe() {
    return "wsjava " + transport.name().toLowerCase(Locale.ROOT);
  }

  @Override
  public Connection connect(URI uri, Inbound inbound) throws Exception {
    WebSocket ws = client.connect(uri, new WebSocketListener() {
      @Override
      public void onText(WebSocket ws, String text) {
        inbound.onText(text);
      }

      @Override
      public void onBinary(WebSocket ws, ByteBuffer data) {
        inbound.onBinary(data);
      }

      @Override
      public void onError(WebSocket ws, Throwable error) {
        inbound.onError(error);
      }
    }).get(10, TimeUnit.SECONDS);
    return new Connection() {
      @Override
      public CompletableFuture<?> sendText(String text) {
        return ws.sendText(text);
      }

      @Override
      public CompletableFuture<?> sendBinary(ByteBuffer data) {
        return ws.sendBinary(data);
      }

      @Override
      public void close() {
        try {
          ws.close().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
          ws.abort();
        }
      }
    };
  }

  @Override
  public void close() {
    client.close();
  }
}
