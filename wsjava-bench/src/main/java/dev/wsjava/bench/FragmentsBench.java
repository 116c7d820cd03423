package dev.wsjava.bench;

import dev.wsjava.protocol.FrameEncoder;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.protocol.Role;
import dev.wsjava.session.Session;
import dev.wsjava.session.SessionConfig;
import dev.wsjava.session.SessionListener;
import java.nio.ByteBuffer;
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
 * What a message costs by its fragmentation (issue 23): a server session receiving a 4 MiB
 * binary message as one frame, or in fragments of 64 bytes to 64 KiB (the reference suite's 9.4.x),
 * fed in 64 KiB reads as a transport does. One operation is one whole message.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class FragmentsBench {
  static final int MESSAGE = 4 * Payloads.MIB;
  static final int READ = 64 * 1024;

  /** Bytes per fragment; the message size means one frame. */
  @Param({"4194304", "65536", "4096", "256", "64"})
  int fragment;

  byte[] wire;
  ByteBuffer read;
  int delivered;
  final SessionListener listener = new SessionListener() {
    @Override
    public void onMessage(Opcode type, ByteBuffer payload) {
      delivered += payload.remaining();
    }
  };

  @Setup
  public void setup() {
    byte[] message = Payloads.random(MESSAGE);
    int frames = MESSAGE / fragment;
    ByteBuffer w = ByteBuffer.allocate(MESSAGE + frames * 14);
    for (int i = 0; i < frames; i++) {
      FrameEncoder.encode(w, i == frames - 1, 0, i == 0 ? Opcode.BINARY : Opcode.CONTINUATION,
          ByteBuffer.wrap(message, i * fragment, fragment), true, 0x37fa213d + i);
    }
    w.flip();
    wire = new byte[w.remaining()];
    w.get(wire);
    read = ByteBuffer.allocate(READ);
  }

  /** Receives the whole message in 64 KiB reads (masked frames are unmasked in place: a copy). */
  @Benchmark
  public int receive() {
    Session s = new Session(Role.SERVER, SessionConfig.DEFAULTS, List.of());
    delivered = 0;
    for (int at = 0; at < wire.length; at += READ) {
      s.receive(Payloads.nextRead(read, wire, at), listener);
    }
    if (delivered != MESSAGE) {
      throw new IllegalStateException("delivered " + delivered);
    }
    return delivered;
  }
}
