package dev.wsjava.interop;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketServerExtensionHandler;
import io.netty.handler.codec.http.websocketx.extensions.compression.PerMessageDeflateServerExtensionHandshaker;
import io.netty.handler.codec.http.websocketx.extensions.compression.WebSocketServerCompressionHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;

/** A Netty 4.2 WebSocket server following {@link PeerServer}. */
final class NettyPeer implements PeerServer {
  private static final int MAX = 4 << 20;

  private final EventLoopGroup group;
  private final Channel channel;
  private final boolean tls;
  private final BlockingQueue<String> closesSeen = new LinkedBlockingQueue<>();
  private final List<String> extensionsAnswered = new CopyOnWriteArrayList<>();

  private NettyPeer(Deflate deflate, SelfSigned cert) throws Exception {
    tls = cert != null;
    SslContext ssl = tls ? SslContextBuilder.forServer(keyManagers(cert)).build() : null;
    WebSocketServerProtocolConfig config =
        WebSocketServerProtocolConfig.newBuilder()
            .websocketPath("/echo")
            .allowExtensions(true) // RSV1 is legal once permessage-deflate is negotiated
            .maxFramePayloadLength(MAX)
            .handleCloseFrames(false) // our handler records the peer's close code and answers
            .dropPongFrames(false) // our handler answers "!pong DATA"
            .build();
    group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    channel =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(new ChannelInitializer<SocketChannel>() {
              @Override
              protected void initChannel(SocketChannel ch) {
                ChannelPipeline p = ch.pipeline();
                if (ssl != null) {
                  p.addLast(ssl.newHandler(ch.alloc()));
                }
                p.addLast(new HttpServerCodec());
                p.addLast(new AnswerRecorder());
                p.addLast(new HttpObjectAggregator(65536));
                switch (deflate) {
                  case OFF -> {}
                  case ON -> p.addLast(new WebSocketServerCompressionHandler(MAX));
                  // level 6, no server window limit (JDK zlib cannot), client window 15, grant
                  // server_no_context_takeover when asked, demand client_no_context_takeover.
                  case DEMAND_CLIENT_NO_CONTEXT_TAKEOVER -> p.addLast(new WebSocketServerExtensionHandler(
                      new PerMessageDeflateServerExtensionHandshaker(6, false, 15, true, true, MAX)));
                  // level 6, the server window the client asks for (JZlib below 15), client
                  // window 9 bits when the client offers client_max_window_bits.
                  case SMALL_WINDOWS -> p.addLast(new WebSocketServerExtensionHandler(
                      new PerMessageDeflateServerExtensionHandshaker(6, true, 9, true, false, MAX)));
                }
                p.addLast(new WebSocketServerProtocolHandler(config));
                p.addLast(new WebSocketFrameAggregator(MAX));
                p.addLast(new Echo());
              }
            })
            .bind("127.0.0.1", 0)
            .sync()
            .channel();
  }

  static NettyPeer start(Deflate deflate, SelfSigned certOrNull) throws Exception {
    return new NettyPeer(deflate, certOrNull);
  }

  private static KeyManagerFactory keyManagers(SelfSigned cert) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(cert.pkcs12())) {
      ks.load(in, cert.password());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, cert.password());
    return kmf;
  }

  @Override
  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public boolean tls() {
    return tls;
  }

  @Override
  public BlockingQueue<String> closesSeen() {
    return closesSeen;
  }

  @Override
  public void stop() throws Exception {
    channel.close().sync();
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
  }

  /** The Sec-WebSocket-Extensions value of each upgrade response, in order. */
  List<String> extensionsAnswered() {
    return extensionsAnswered;
  }

  /** Records the extensions of each upgrade response as it leaves (after the handshaker). */
  private final class AnswerRecorder extends ChannelOutboundHandlerAdapter {
    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise)
        throws Exception {
      if (msg instanceof HttpResponse r && r.headers().contains("Sec-WebSocket-Extensions")) {
        extensionsAnswered.add(r.headers().get("Sec-WebSocket-Extensions"));
      }
      super.write(ctx, msg, promise);
    }
  }

  private final class Echo extends SimpleChannelInboundHandler<WebSocketFrame> {
    private boolean closeSent;

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame frame) {
      switch (frame) {
        case TextWebSocketFrame t -> text(ctx, t.text());
        case BinaryWebSocketFrame b ->
            ctx.writeAndFlush(new BinaryWebSocketFrame(b.content().retainedDuplicate()));
        case PongWebSocketFrame p ->
            ctx.writeAndFlush(new TextWebSocketFrame("!pong " + p.content().toString(StandardCharsets.UTF_8)));
        case CloseWebSocketFrame c -> {
          closesSeen.add(c.statusCode() + " " + c.reasonText());
          if (closeSent) {
            ctx.close();
          } else {
            // Echo the code back (RFC 6455 section 5.5.1), then close the TCP connection.
            closeSent = true;
            ctx.writeAndFlush(new CloseWebSocketFrame(c.statusCode(), c.reasonText()))
                .addListener(ChannelFutureListener.CLOSE);
          }
        }
        default -> throw new IllegalStateException("unexpected frame " + frame);
      }
    }

    private void text(ChannelHandlerContext ctx, String text) {
      if (text.startsWith("!close ")) {
        String[] parts = text.split(" ", 3);
        closeSent = true;
        ctx.writeAndFlush(new CloseWebSocketFrame(Integer.parseInt(parts[1]), parts[2]));
      } else if (text.startsWith("!frag ")) {
        List<String> parts = List.of(text.substring(6).split("\\|"));
        for (int i = 0; i < parts.size(); i++) {
          boolean last = i == parts.size() - 1;
          ctx.write(i == 0
              ? new TextWebSocketFrame(last, 0, parts.get(i))
              : new ContinuationWebSocketFrame(last, 0, parts.get(i)));
        }
        ctx.flush();
      } else if (text.startsWith("!ping ")) {
        ctx.writeAndFlush(new PingWebSocketFrame(Unpooled.copiedBuffer(text.substring(6), StandardCharsets.UTF_8)));
      } else {
        ctx.writeAndFlush(new TextWebSocketFrame(text));
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      cause.printStackTrace();
      ctx.close();
    }
  }
}
