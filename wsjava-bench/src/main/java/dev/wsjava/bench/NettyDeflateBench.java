package dev.wsjava.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionData;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketServerExtension;
import io.netty.handler.codec.http.websocketx.extensions.compression.PerMessageDeflateServerExtensionHandshaker;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/** Netty 4.2's permessage-deflate on the same message, level and parameters as DeflateBench. */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class NettyDeflateBench {
  EmbeddedChannel encoder;
  EmbeddedChannel decoder;
  ByteBuf message;
  ByteBuf compressed;

  @Setup
  public void setup() {
    PerMessageDeflateServerExtensionHandshaker handshaker =
        new PerMessageDeflateServerExtensionHandshaker(
            DeflateBench.LEVEL, false, 15, true, true, 1 << 20);
    Map<String, String> offer = new HashMap<>();
    offer.put("server_no_context_takeover", null);
    offer.put("client_no_context_takeover", null);
    WebSocketServerExtension ext =
        handshaker.handshakeExtension(new WebSocketExtensionData("permessage-deflate", offer));
    encoder = new EmbeddedChannel(ext.newExtensionEncoder());
    decoder = new EmbeddedChannel(ext.newExtensionDecoder());
    message = Unpooled.wrappedBuffer(Payloads.json300());
    encoder.writeOutbound(new TextWebSocketFrame(message.retainedDuplicate()));
    WebSocketFrame frame = encoder.readOutbound();
    compressed = Unpooled.copiedBuffer(frame.content());
    frame.release();
  }

  @TearDown
  public void tearDown() {
    encoder.finishAndReleaseAll();
    decoder.finishAndReleaseAll();
  }

  @Benchmark
  public void deflate300B(Blackhole bh) {
    encoder.writeOutbound(new TextWebSocketFrame(message.retainedDuplicate()));
    WebSocketFrame frame = encoder.readOutbound();
    bh.consume(frame.content());
    frame.release();
  }

  @Benchmark
  public void inflate300B(Blackhole bh) {
    decoder.writeInbound(new TextWebSocketFrame(true, io.netty.handler.codec.http.websocketx.extensions.WebSocketExtension.RSV1, compressed.retainedDuplicate()));
    WebSocketFrame frame = decoder.readInbound();
    bh.consume(frame.content());
    frame.release();
  }
}
