package dev.wsjava.bench;

import dev.wsjava.protocol.FrameEncoder;
import dev.wsjava.protocol.FrameParser;
import dev.wsjava.protocol.Limits;
import dev.wsjava.protocol.Masking;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.ProtocolException;
import dev.wsjava.protocol.Role;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/** wsjava's frame codec on 1 MiB payloads and on a stream of 300-byte frames. */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CodecBench {
  /** Frames in the 300-byte stream. */
  static final int STREAM_FRAMES = 1000;

  byte[] payload;
  byte[] copyTarget;
  ByteBuffer payloadBuffer;
  ByteBuffer directPayload;
  ByteBuffer out;
  ByteBuffer maskedFrame;
  ByteBuffer unmaskedFrame;
  ByteBuffer stream;

  @Setup
  public void setup() {
    payload = Payloads.random(Payloads.MIB);
    copyTarget = new byte[Payloads.MIB];
    payloadBuffer = ByteBuffer.wrap(payload);
    directPayload = ByteBuffer.allocateDirect(payload.length).put(payload).clear();
    out = ByteBuffer.allocate(Payloads.MIB + 14);
    maskedFrame = frame(payload, true);
    unmaskedFrame = frame(payload, false);
    byte[] small = Payloads.json300();
    ByteBuffer s = ByteBuffer.allocate(STREAM_FRAMES * (small.length + 8));
    for (int i = 0; i < STREAM_FRAMES; i++) {
      FrameEncoder.encode(s, true, 0, Opcode.TEXT, ByteBuffer.wrap(small), true, 0x1234567 * i);
    }
    stream = s.flip();
  }

  static ByteBuffer frame(byte[] payload, boolean masked) {
    ByteBuffer b = ByteBuffer.allocate(payload.length + 14);
    FrameEncoder.encode(b, true, 0, Opcode.BINARY, ByteBuffer.wrap(payload), masked, 0x37fa213d);
    return b.flip();
  }

  /** The memory-copy limit: the same 1 MiB copied with System.arraycopy. */
  @Benchmark
  public byte[] arraycopy1MiB() {
    System.arraycopy(payload, 0, copyTarget, 0, payload.length);
    return copyTarget;
  }

  /** Masks 1 MiB in place (masking twice per two calls; the work is the same). */
  @Benchmark
  public int mask1MiB() {
    return Masking.mask(payloadBuffer, 0, payload.length, 0x37fa213d, 0);
  }

  /** Masks 1 MiB in place in a direct buffer, as a socket's read buffer is unmasked. */
  @Benchmark
  public int mask1MiBDirect() {
    return Masking.mask(directPayload, 0, payload.length, 0x37fa213d, 0);
  }

  /** Encodes a masked 1 MiB frame into a preallocated buffer: header, copy, mask. */
  @Benchmark
  public ByteBuffer encodeMasked1MiB() {
    out.clear();
    FrameEncoder.encode(out, true, 0, Opcode.BINARY, payloadBuffer, true, 0x37fa213d);
    return out;
  }

  /** Parses a masked 1 MiB frame as a server: header, then the payload unmasked in place. */
  @Benchmark
  public void parseMasked1MiB(Blackhole bh) throws ProtocolException {
    parseAll(new FrameParser(Role.SERVER, Limits.DEFAULTS), maskedFrame.duplicate(), bh);
  }

  /** Parses an unmasked 1 MiB frame as a client: the payload is handed over without a copy. */
  @Benchmark
  public void parseUnmasked1MiB(Blackhole bh) throws ProtocolException {
    parseAll(new FrameParser(Role.CLIENT, Limits.DEFAULTS), unmaskedFrame.duplicate(), bh);
  }

  /** Parses 1,000 masked 300-byte frames as a server; ops/s x 1000 = frames/s. */
  @Benchmark
  public void parseStream300B(Blackhole bh) throws ProtocolException {
    parseAll(new FrameParser(Role.SERVER, Limits.DEFAULTS), stream.duplicate(), bh);
  }

  static void parseAll(FrameParser parser, ByteBuffer in, Blackhole bh) throws ProtocolException {
    while (true) {
      switch (parser.next(in)) {
        case NEED_MORE -> {
          return;
        }
        case PAYLOAD -> bh.consume(parser.payload());
        default -> {}
      }
    }
  }
}
