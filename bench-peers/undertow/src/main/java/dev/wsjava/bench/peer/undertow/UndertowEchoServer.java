package dev.wsjava.bench.peer.undertow;

import dev.wsjava.bench.peer.PeerArgs;
import io.undertow.Handlers;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.util.Headers;
import io.undertow.websockets.WebSocketProtocolHandshakeHandler;
import io.undertow.websockets.core.AbstractReceiveListener;
import io.undertow.websockets.core.BufferedBinaryMessage;
import io.undertow.websockets.core.BufferedTextMessage;
import io.undertow.websockets.core.WebSocketCallback;
import io.undertow.websockets.core.WebSocketChannel;
import io.undertow.websockets.core.WebSockets;
import io.undertow.websockets.extensions.PerMessageDeflateHandshake;
import java.nio.ByteBuffer;
import org.xnio.Options;
import org.xnio.Pooled;

/**
 * The Undertow echo server: a {@code Handlers.websocket} handshake handler whose receive listener
 * echoes each full message, and a path handler answering {@code GET /}; permessage-deflate added as
 * Undertow documents it, at the suite's level, with {@code --deflate}. Undertow's default I/O
 * threads (two at least) and worker pool, or one of each with {@code --one-loop}. Command line:
 * {@link PeerArgs}.
 */
public final class UndertowEchoServer {
  private UndertowEchoServer() {}

  /**
   * Starts the server and runs until killed.
   *
   * @param args see {@link PeerArgs}
   * @throws Exception when it cannot start
   */
  public static void main(String[] args) throws Exception {
    PeerArgs peer = PeerArgs.parse(args);
    WebSocketProtocolHandshakeHandler ws = Handlers.websocket((exchange, channel) -> {
      channel.getReceiveSetter().set(new Echo());
      channel.resumeReceives();
    });
    if (peer.deflate()) {
      ws.addExtension(new PerMessageDeflateHandshake(false, peer.deflateLevel()));
    }
    Undertow.Builder builder = Undertow.builder();
    if (peer.tls() != null) {
      builder.addHttpsListener(peer.port(), peer.host(), peer.serverTls());
    } else {
      builder.addHttpListener(peer.port(), peer.host());
    }
    if (peer.oneLoop()) {
      builder.setIoThreads(1).setWorkerThreads(1);
    }
    Undertow server = builder
        .setSocketOption(Options.BACKLOG, 4096)
        .setSocketOption(Options.TCP_NODELAY, true)
        .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, -1)
        .setHandler(Handlers.path()
            .addExactPath(PeerArgs.ECHO_PATH, ws)
            .addExactPath("/", exchange -> {
              exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain");
              exchange.getResponseSender().send(PeerArgs.HELLO);
            }))
        .build();
    server.start();
    peer.ready(server.getWorker().getIoThreadCount() + " I/O thread(s) (the echo runs on them), a"
        + " worker pool of " + server.getWorker().getMXBean().getMaxWorkerPoolSize());
  }

  /** Echoes full messages; binary buffers go back to the pool once written. */
  private static final class Echo extends AbstractReceiveListener {
    @Override
    protected long getMaxTextBufferSize() {
      return PeerArgs.MAX_MESSAGE;
    }

    @Override
    protected long getMaxBinaryBufferSize() {
      return PeerArgs.MAX_MESSAGE;
    }

    @Override
    protected void onFullTextMessage(WebSocketChannel channel, BufferedTextMessage message) {
      WebSockets.sendText(message.getData(), channel, null);
    }

    @Override
    @SuppressWarnings("deprecation") // getData() returns XNIO's Pooled: Undertow's API, no other
    protected void onFullBinaryMessage(WebSocketChannel channel, BufferedBinaryMessage message) {
      Pooled<ByteBuffer[]> data = message.getData();
      WebSockets.sendBinary(data.getResource(), channel, new WebSocketCallback<Void>() {
        @Override
        public void complete(WebSocketChannel ch, Void context) {
          data.free();
        }

        @Override
        public void onError(WebSocketChannel ch, Void context, Throwable error) {
          data.free();
        }
      });
    }
  }
}
