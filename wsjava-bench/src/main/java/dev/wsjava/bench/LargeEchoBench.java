package dev.wsjava.bench;

import dev.wsjava.protocol.FrameEncoder;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.protocol.Role;
import dev.wsjava.session.FrameBuffers;
import dev.wsjava.session.Session;
import dev.wsjava.session.SessionConfig;
import dev.wsjava.session.SessionListener;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The JVM-side work of echoing one large message (issue 28, docs/benchmarks/LARGE-MESSAGES.md): a
 * server session receives a client's masked one-frame message in 64 KiB reads from a direct
 * buffer, as the NIO transport feeds it, echoes it from the listener, and its queue is drained
 * from the pooled direct frame buffers a transport lends (into a direct sink: the stand-in for the
 * socket's copy). What is left per message is what wsjava does beyond the kernel's two copies:
 * unmasking, assembling, the assembly array's allocation or reuse, and encoding the echo. One
 * operation is one message; per MB echoed, divide by the size in MB.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LargeEchoBench {
  static final int READ = 64 * 1024;

  /** The message size. */
  @Param({"65536", "1048576"})
  int size;

  byte[] wire;
  final ByteBuffer read = ByteBuffer.allocateDirect(READ);
  final ByteBuffer sink = ByteBuffer.allocateDirect(READ);
  final ByteBuffer[] gather = new ByteBuffer[64];
  final ArrayDeque<ByteBuffer> frames = new ArrayDeque<>();
  Session server;
  int echoed;

  @Setup
  public void setup() {
    byte[] message = Payloads.random(size);
    ByteBuffer w = ByteBuffer.allocate(size + 14);
    FrameEncoder.encode(w, true, 0, Opcode.BINARY, ByteBuffer.wrap(message), true, 0x37fa213d);
    w.flip();
    wire = new byte[w.remaining()];
    w.get(wire);
    // One frame per echo, as before the outbound default became 64 KiB frames: the figures in
    // docs/benchmarks/LARGE-MESSAGES.md were taken that way.
    SessionConfig d = SessionConfig.DEFAULTS;
    server = new Session(Role.SERVER,
        new SessionConfig(d.limits(), d.autoPong(), d.streamMessages(), size), List.of());
    server.lendFrameBuffersFrom(new FrameBuffers() { // a loop's pool, as the NIO transport's
      @Override
      public ByteBuffer take() {
        ByteBuffer b = frames.poll();
        return b != null ? b.clear() : ByteBuffer.allocateDirect(READ);
      }

      @Override
      public ByteBuffer takeChunk() {
        return ByteBuffer.allocateDirect(4096);
      }

      @Override
      public void give(ByteBuffer buffer) {
        if (buffer.capacity() == READ) {
          frames.push(buffer);
        }
      }
    });
  }

  final SessionListener echo = new SessionListener() {
    @Override
    public void onMessage(Opcode type, ByteBuffer payload) {
      echoed += payload.remaining();
      server.sendMessage(type, payload);
    }
  };

  /** Receives one message in 64 KiB reads and writes its echo out. */
  @Benchmark
  public int echo() {
    echoed = 0;
    for (int at = 0; at < wire.length; at += READ) {
      server.receive(Payloads.nextRead(read, wire, at), echo);
      while (server.hasOutbound()) {
        int count = server.gatherOutbound(gather, 0);
        long written = 0;
        for (int i = 0; i < count; i++) {
          ByteBuffer b = gather[i];
          while (b.hasRemaining()) {
            sink.clear();
            int take = Math.min(b.remaining(), sink.capacity());
            sink.put(b.slice(b.position(), take));
            b.position(b.position() + take);
            written += take;
          }
        }
        server.written(written);
      }
    }
    if (echoed != size) {
      throw new IllegalStateException("echoed " + echoed);
    }
    return echoed;
  }
}
