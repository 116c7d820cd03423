package dev.wsjava.bench.peer.wsjava;

import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import dev.wsjava.bench.peer.PeerArgs;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * The wsjava echo server of the end-to-end suite, written as the README shows: a listener that
 * echoes from its callbacks, on either transport. Command line: {@code nio|blocking [--spin-us N]
 * [--own-deflate-level] PORT ...} ({@link PeerArgs} after the port): {@code --spin-us} sets {@code
 * eventLoopSpin} (0 turns the NIO loop's polling off), {@code --own-deflate-level} compresses at
 * wsjava's default level instead of the suite's.
 */
public final class WsjavaEchoServer {
  private WsjavaEchoServer() {}

  /**
   * Starts the server and runs until killed.
   *
   * @param args {@code nio|blocking [--spin-us N] [--own-deflate-level] PORT ...}
   * @throws Exception when it cannot start
   */
  public static void main(String[] args) throws Exception {
    Transport transport = Transport.valueOf(args[0].toUpperCase(Locale.ROOT));
    Duration spin = null;
    boolean ownLevel = false;
    int i = 1;
    for (; i < args.length && args[i].startsWith("--"); i++) {
      switch (args[i]) {
        case "--spin-us" -> spin = Duration.ofNanos(Long.parseLong(args[++i]) * 1000);
        case "--own-deflate-level" -> ownLevel = true;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    PeerArgs peer = PeerArgs.parse(Arrays.copyOfRange(args, i, args.length));
    if (ownLevel && peer.deflate()) {
      peer = new PeerArgs(peer.port(), peer.host(), PerMessageDeflate.DEFAULT_COMPRESSION_LEVEL,
          peer.oneLoop(), peer.tls());
    }
    PerMessageDeflate deflate = !peer.deflate() ? null
        : PerMessageDeflate.builder().compressionLevel(peer.deflateLevel()).build();
    WebSocketConfig.Builder config = WebSocketConfig.builder()
        .transport(transport)
        .deflate(deflate)
        .maxOutboundFramePayload(PeerArgs.MAX_MESSAGE); // the frame size every target is given
    if (spin != null) {
      config.eventLoopSpin(spin);
    }
    if (peer.oneLoop()) {
      config.eventLoops(1);
    }
    WebSocketConfig built = config.build();
    WebSocketServer.Builder builder = WebSocketServer.builder()
        .bind(peer.host(), peer.port())
        .config(built)
        .get("/", req -> HttpResponse.text(200, PeerArgs.HELLO));
    if (peer.tls() != null) {
      builder.tls(peer.serverTls());
    }
    // The same listener on both transports: on NIO its callbacks run on the event loop, on the
    // blocking transport on the connection's own virtual thread (as Helidon's WsListener does).
    builder.websocket(PeerArgs.ECHO_PATH, new WebSocketListener() {
      @Override
      public void onText(WebSocket ws, String text) {
        ws.sendText(text);
      }

      @Override
      public void onBinary(WebSocket ws, ByteBuffer data) {
        ws.sendBinary(data);
      }
    });
    WebSocketServer server = builder.start();
    int loops = built.eventLoops() > 0 ? built.eventLoops() : Runtime.getRuntime().availableProcessors();
    String io = transport == Transport.NIO
        ? "nio, " + loops + " event loop" + (loops == 1 ? "" : "s") + " (accepting on one of them),"
            + " spin " + built.eventLoopSpin().toNanos() / 1000 + " µs"
        : "blocking, a virtual thread per connection, "
            + System.getProperty("jdk.virtualThreadScheduler.parallelism",
                Integer.toString(Runtime.getRuntime().availableProcessors()))
            + " carrier thread(s)";
    peer.ready(io);
    Thread.currentThread().join(); // until the suite kills the process
    server.close();
  }
}
