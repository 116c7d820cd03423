package dev.wsjava.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
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

/**
 * Netty 4.2's websocketx codec on the same inputs as {@link CodecBench}. Each decoder lives in one
 * channel for the whole fork, as a real connection's decoder does: building a channel and a
 * pipeline per operation would charge Netty for work a connection does once.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class NettyCodecBench {
  byte[] payload;
  ByteBuf payloadBuf;
  ByteBuf maskedFrame;
  ByteBuf unmaskedFrame;
  ByteBuf stream;
  EmbeddedChannel encoder;
  EmbeddedChannel serverDecoder;
  EmbeddedChannel clientDecoder;
  WebSocket08FrameDecoder unmasker;
  MethodHandle unmask;

  @Setup
  public void setup() throws Exception {
    payload = Payloads.random(Payloads.MIB);
    payloadBuf = Unpooled.wrappedBuffer(payload);
    maskedFrame = Unpooled.wrappedBuffer(CodecBench.frame(payload, true));
    unmaskedFrame = Unpooled.wrappedBuffer(CodecBench.frame(payload, false));
    CodecBench ours = new CodecBench();
    ours.setup();
    stream = Unpooled.wrappedBuffer(ours.stream);
    encoder = new EmbeddedChannel(new WebSocket08FrameEncoder(true));
    serverDecoder = new EmbeddedChannel(new WebSocket08FrameDecoder(config(true)));
    clientDecoder = new EmbeddedChannel(new WebSocket08FrameDecoder(config(false)));
    // Netty masks inside its decoder's private unmask(ByteBuf); call it directly for "mask 1 MiB".
    unmasker = new WebSocket08FrameDecoder(config(true));
    MethodHandles.Lookup lookup =
        MethodHandles.privateLookupIn(WebSocket08FrameDecoder.class, MethodHandles.lookup());
    unmask =
        lookup.findVirtual(
            WebSocket08FrameDecoder.class, "unmask", MethodType.methodType(void.class, ByteBuf.class));
    VarHandle mask = lookup.findVarHandle(WebSocket08FrameDecoder.class, "mask", int.class);
    mask.set(unmasker, 0x37fa213d);
  }

  static WebSocketDecoderConfig config(boolean expectMasked) {
    return WebSocketDecoderConfig.newBuilder()
        .expectMaskedFrames(expectMasked)
        .maxFramePayloadLength(16 << 20)
        .allowExtensions(false)
        .build();
  }

  @TearDown
  public void tearDown() {
    encoder.finishAndReleaseAll();
    serverDecoder.finishAndReleaseAll();
    clientDecoder.finishAndReleaseAll();
  }

  /** Netty's unmask loop over 1 MiB, in place. */
  @Benchmark
  public ByteBuf mask1MiB() throws Throwable {
    payloadBuf.setIndex(0, payload.length);
    unmask.invokeExact(unmasker, payloadBuf);
    return payloadBuf;
  }

  /** Netty encodes a masked 1 MiB binary frame (it copies into a new buffer and masks). */
  @Benchmark
  public void encodeMasked1MiB(Blackhole bh) {
    payloadBuf.setIndex(0, payload.length);
    encoder.writeOutbound(new BinaryWebSocketFrame(payloadBuf.retainedDuplicate()));
    drainOutbound(encoder, bh);
  }

  /** Netty decodes a masked 1 MiB frame as a server. */
  @Benchmark
  public void parseMasked1MiB(Blackhole bh) {
    decode(serverDecoder, maskedFrame, bh);
  }

  /** Netty decodes an unmasked 1 MiB frame as a client. */
  @Benchmark
  public void parseUnmasked1MiB(Blackhole bh) {
    decode(clientDecoder, unmaskedFrame, bh);
  }

  /** Netty decodes 1,000 masked 300-byte frames as a server. */
  @Benchmark
  public void parseStream300B(Blackhole bh) {
    decode(serverDecoder, stream, bh);
  }

  /** Feeds whole frames to a decoder's channel; it ends each call between frames, ready for more. */
  static void decode(EmbeddedChannel ch, ByteBuf input, Blackhole bh) {
    ch.writeInbound(input.retainedDuplicate());
    Object frame;
    while ((frame = ch.readInbound()) != null) {
      bh.consume(((WebSocketFrame) frame).content());
      ((WebSocketFrame) frame).release();
    }
  }

  static void drainOutbound(EmbeddedChannel ch, Blackhole bh) {
    Object o;
    while ((o = ch.readOutbound()) != null) {
      bh.consume(o);
      ((ByteBuf) o).release();
    }
  }
}
