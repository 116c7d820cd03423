package dev.wsjava.bench.peer.wsjava;

import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.bench.peer.ClientBench;
import dev.wsjava.bench.peer.EchoClientDriver;
import dev.wsjava.bench.peer.PeerArgs;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The wsjava client in scenarios 8 and 10, on either transport: a listener-style connection.
 * Command line: {@code nio|blocking [--spin-us N]} followed by {@link ClientBench}'s; {@code
 * --spin-us} sets {@code eventLoopSpin} (0 turns the NIO loop's polling off).
 */
public final class WsjavaClientDriver implements EchoClientDriver {
  private final Transport transport;
  private final WebSocketConfig config;
  private final WebSocketClient client;

  private WsjavaClientDriver(Transport transport, Duration spin, Path trust) throws Exception {
    this.transport = transport;
    WebSocketConfig.Builder b = WebSocketConfig.builder().transport(transport).deflate(null)
        .maxOutboundFramePayload(PeerArgs.MAX_MESSAGE); // the frame size every target is given
    if (spin != null) {
      b.eventLoopSpin(spin);
    }
    this.config = b.build();
    WebSocketClient.Builder client = WebSocketClient.builder().config(config);
    if (trust != null) {
      client.tls(PeerArgs.clientTls(trust));
    }
    this.client = client.build();
  }

  /**
   * Runs the client workloads.
   *
   * @param args {@code nio|blocking [--spin-us N]} then {@link ClientBench#main}'s arguments
   * @throws Exception when the client cannot be built
   */
  public static void main(String[] args) throws Exception {
    Transport t = Transport.valueOf(args[0].toUpperCase(Locale.ROOT));
    int from = 1;
    Duration spin = null;
    if (args.length > 2 && args[1].equals("--spin-us")) {
      spin = Duration.ofNanos(Long.parseLong(args[2]) * 1000);
      from = 3;
    }
    Duration s = spin;
    ClientBench.main(Arrays.copyOfRange(args, from, args.length), trust -> new WsjavaClientDriver(t, s, trust));
  }

  @Override
  public String describe() {
    return "wsjava " + transport.name().toLowerCase(Locale.ROOT)
        + (transport == Transport.NIO ? ", spin " + config.eventLoopSpin().toNanos() / 1000 + " µs" : "");
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
