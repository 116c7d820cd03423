package dev.wsjava.bench.peer.netty;

import dev.wsjava.bench.peer.PeerArgs;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.codec.compression.ZlibCodecFactory;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketServerExtensionHandler;
import io.netty.handler.codec.http.websocketx.extensions.compression.PerMessageDeflateServerExtensionHandshaker;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import javax.net.ssl.KeyManagerFactory;
import java.nio.charset.StandardCharsets;

/**
 * The Netty 4.2 echo server: the documented pipeline (TLS when asked, HTTP codec, aggregator,
 * permessage-deflate at the suite's level when asked, {@link WebSocketServerProtocolHandler}) and a
 * handler that writes every data frame back, flushing once per read burst. Epoll when the native
 * transport loads, NIO otherwise; Netty's default of two event loops per processor, or one with
 * {@code --one-loop}; {@code GET /} answers "hello". Command line: {@link PeerArgs}; also the fixed
 * server of scenarios 8 and 10.
 */
public final class NettyEchoServer {
  private NettyEchoServer() {}

  /**
   * Starts the server and runs until killed.
   *
   * @param args {@code PORT [--deflate]}
   * @throws Exception when it cannot start
   */
  public static void main(String[] args) throws Exception {
    PeerArgs peer = PeerArgs.parse(args);
    boolean epoll = Epoll.isAvailable();
    IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    Class<? extends ServerChannel> channel =
        epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(peer.oneLoop() ? 1 : 0, io);
    SslContext tls = null;
    if (peer.tls() != null) {
      KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(PeerArgs.keyStore(peer.tls().resolve(PeerArgs.KEY_STORE)),
          PeerArgs.STORE_PASSWORD.toCharArray());
      tls = SslContextBuilder.forServer(kmf).build();
    }
    SslContext sslContext = tls;
    WebSocketServerProtocolConfig ws = WebSocketServerProtocolConfig.newBuilder()
        .websocketPath(PeerArgs.ECHO_PATH)
        .allowExtensions(peer.deflate())
        .maxFramePayloadLength(PeerArgs.MAX_MESSAGE)
        .build();
    new ServerBootstrap()
        .group(group)
        .channel(channel)
        .option(ChannelOption.SO_BACKLOG, 4096)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            ChannelPipeline p = ch.pipeline();
            if (sslContext != null) {
              p.addLast(sslContext.newHandler(ch.alloc()));
            }
            p.addLast(new HttpServerCodec());
            p.addLast(new HttpObjectAggregator(65536));
            if (peer.deflate()) {
              // WebSocketServerCompressionHandler with the suite's level instead of its fixed 6.
              p.addLast(new WebSocketServerExtensionHandler(new PerMessageDeflateServerExtensionHandshaker(
                  peer.deflateLevel(), ZlibCodecFactory.isSupportingWindowSizeAndMemLevel(),
                  15, false, false, PeerArgs.MAX_MESSAGE)));
            }
            p.addLast(new WebSocketServerProtocolHandler(ws));
            p.addLast(new Echo());
          }
        })
        .bind(peer.host(), peer.port())
        .sync();
    peer.ready((epoll ? "epoll" : "nio") + ", " + group.executorCount()
        + " event loops (accepting on one of them)"
        + (tls == null ? "" : ", TLS by " + SslContext.defaultServerProvider()));
    Thread.currentThread().join();
  }

  /** Echoes data frames (text, binary, continuation) as they are; answers {@code GET /}. */
  private static final class Echo extends SimpleChannelInboundHandler<Object> {
    Echo() {
      super(false); // ownership of each frame passes to the write
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof WebSocketFrame frame) {
        ctx.write(frame);
      } else if (msg instanceof FullHttpRequest req) {
        try {
          hello(ctx, req);
        } finally {
          req.release();
        }
      }
    }

    private static void hello(ChannelHandlerContext ctx, FullHttpRequest req) {
      boolean found = req.uri().equals("/");
      FullHttpResponse res = new DefaultFullHttpResponse(req.protocolVersion(),
          found ? HttpResponseStatus.OK : HttpResponseStatus.NOT_FOUND,
          Unpooled.copiedBuffer(found ? PeerArgs.HELLO : "", StandardCharsets.US_ASCII));
      res.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN);
      res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, res.content().readableBytes());
      boolean keepAlive = HttpUtil.isKeepAlive(req);
      if (keepAlive) {
        ctx.write(res);
      } else {
        ctx.write(res).addListener(ChannelFutureListener.CLOSE);
      }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      ctx.flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
