package dev.wsjava.bench.peer.netty;

import dev.wsjava.bench.peer.ClientBench;
import dev.wsjava.bench.peer.EchoClientDriver;
import dev.wsjava.bench.peer.PeerArgs;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Netty's WebSocket client in scenarios 8 and 10: {@link WebSocketClientProtocolHandler} and a frame
 * aggregator; epoll where it loads. Command line: {@link ClientBench}'s.
 */
public final class NettyClientDriver implements EchoClientDriver {
  private final boolean epoll = Epoll.isAvailable();
  private final EventLoopGroup group;
  private final SslContext tls;

  private NettyClientDriver(Path trust) throws Exception {
    IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    group = new MultiThreadIoEventLoopGroup(1, io);
    tls = trust == null ? null
        : SslContextBuilder.forClient().trustManager(PeerArgs.trustManagers(trust)).build();
  }

  /**
   * Runs the client workloads.
   *
   * @param args {@link ClientBench#main}'s arguments
   * @throws Exception when the client cannot be built
   */
  public static void main(String[] args) throws Exception {
    ClientBench.main(args, NettyClientDriver::new);
  }

  @Override
  public String describe() {
    return "netty " + (epoll ? "epoll" : "nio");
  }

  @Override
  public Connection connect(URI uri, Inbound inbound) throws Exception {
    CompletableFuture<Void> handshake = new CompletableFuture<>();
    WebSocketClientProtocolConfig config = WebSocketClientProtocolConfig.newBuilder()
        .webSocketUri(uri)
        .maxFramePayloadLength(PeerArgs.MAX_MESSAGE)
        .build();
    Channel ch = new Bootstrap()
        .group(group)
        .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
        .option(ChannelOption.TCP_NODELAY, true)
        .handler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel c) {
            if (tls != null) {
              c.pipeline().addLast(tls.newHandler(c.alloc(), uri.getHost(), uri.getPort()));
            }
            c.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(65536),
                new WebSocketClientProtocolHandler(config),
                new WebSocketFrameAggregator(PeerArgs.MAX_MESSAGE), new Receiver(inbound, handshake));
          }
        })
        .connect(uri.getHost(), uri.getPort())
        .sync()
        .channel();
    handshake.get(10, TimeUnit.SECONDS);
    return new Connection() {
      @Override
      public CompletableFuture<?> sendText(String text) {
        return done(ch.writeAndFlush(new TextWebSocketFrame(text)));
      }

      @Override
      public CompletableFuture<?> sendBinary(ByteBuffer data) {
        return done(ch.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(data))));
      }

      @Override
      public void close() {
        ch.writeAndFlush(new CloseWebSocketFrame());
        ch.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
      }
    };
  }

  private static CompletableFuture<?> done(ChannelFuture f) {
    CompletableFuture<Void> cf = new CompletableFuture<>();
    f.addListener(x -> {
      if (x.isSuccess()) {
        cf.complete(null);
      } else {
        cf.completeExceptionally(x.cause());
      }
    });
    return cf;
  }

  @Override
  public void close() {
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }

  /** Hands whole messages to the suite; completes the handshake future. */
  private static final class Receiver extends SimpleChannelInboundHandler<WebSocketFrame> {
    private final Inbound inbound;
    private final CompletableFuture<Void> handshake;

    Receiver(Inbound inbound, CompletableFuture<Void> handshake) {
      this.inbound = inbound;
      this.handshake = handshake;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_COMPLETE) {
        handshake.complete(null);
      } else if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_TIMEOUT) {
        handshake.completeExceptionally(new IllegalStateException("handshake timed out"));
      }
      ctx.fireUserEventTriggered(evt);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame frame) {
      if (frame instanceof TextWebSocketFrame t) {
        inbound.onText(t.text());
      } else if (frame instanceof BinaryWebSocketFrame b) {
        inbound.onBinary(b.content().nioBuffer());
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      handshake.completeExceptionally(new IllegalStateException("connection closed"));
      inbound.onError(new IllegalStateException("connection closed"));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      handshake.completeExceptionally(cause);
      inbound.onError(cause);
      ctx.close();
    }
  }
}
