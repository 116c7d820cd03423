package dev.wsjava.bench;

import dev.wsjava.extension.ByteSink;
import dev.wsjava.extension.Extension;
import dev.wsjava.extension.ExtensionFactory;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.ProtocolException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * permessage-deflate of one 300-byte JSON message per op, at compression level 6 (the level
 * Netty uses by default) with no context takeover, so every op does the same work.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DeflateBench {
  static final int LEVEL = 6;

  Extension server;
  Extension client;
  ByteBuffer message;
  ByteBuffer compressed;
  final ByteBuffer out = ByteBuffer.allocate(64 * 1024);
  final ByteSink collect = chunk -> out.put(chunk);

  @Setup
  public void setup() throws Exception {
    PerMessageDeflate config =
        PerMessageDeflate.builder()
            .compressionLevel(LEVEL)
            .minCompressSize(0)
            .serverNoContextTakeover(true)
            .clientNoContextTakeover(true)
            .build();
    ExtensionFactory.Accepted accepted = config.serverAccept(config.clientOffers());
    server = accepted.extension();
    client = config.clientAccept(accepted.response());
    message = ByteBuffer.wrap(Payloads.json300());
    deflate300B();
    compressed = ByteBuffer.allocate(out.position()).put(out.flip()).flip();
  }

  @TearDown
  public void tearDown() {
    server.close();
    client.close();
  }

  @Benchmark
  public ByteBuffer deflate300B() throws ProtocolException {
    out.clear();
    server.encode(true, true, message.duplicate(), collect);
    return out;
  }

  @Benchmark
  public ByteBuffer inflate300B() throws ProtocolException {
    out.clear();
    client.decode(Extension.RSV1, true, compressed.duplicate(), collect);
    return out;
  }
}
