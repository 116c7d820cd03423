package dev.wsjava.bench;

import dev.wsjava.ProtocolException;
import dev.wsjava.extension.ByteSink;
import dev.wsjava.extension.Extension;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.internal.deflate.DeflateExtension;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * What the incompressible-message skip of permessage-deflate saves and costs: one message at a
 * time compressed by a sender and inflated by a receiver (default level, context takeover, as two
 * peers of this library negotiate by default), with the skip (the default) and with every message
 * compressed. Prints, per payload, MB/s of message bytes through both ends, CPU nanoseconds per MB
 * (this thread's CPU time) and the wire size as a share of the message. A plain loop, bounded in
 * count and time: run it with {@code java -cp wsjava-bench/target/classes:wsjava-core/target/classes
 * dev.wsjava.bench.DeflateSkipBench [seconds per row]}.
 */
public final class DeflateSkipBench {
  private DeflateSkipBench() {}

  public static void main(String[] args) throws Exception {
    double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 2;
    byte[][] payloads = {random(1 << 20), random(64 << 10), json(1 << 20), json(64 << 10), Payloads.json300()};
    String[] names = {"random 1 MiB", "random 64 KiB", "JSON 1 MiB", "JSON 64 KiB", "JSON 300 B"};
    System.out.printf("%-14s %-9s %10s %12s %8s%n", "payload", "skip", "MB/s", "CPU ms/MB", "wire");
    for (int p = 0; p < payloads.length; p++) {
      for (boolean skip : new boolean[] {true, false}) {
        run(names[p], payloads[p], skip, seconds / 4); // warm-up
        Row r = run(names[p], payloads[p], skip, seconds);
        System.out.printf("%-14s %-9s %10.1f %12.3f %7.1f%%%n", names[p], skip ? "on" : "off",
            r.mbPerSecond, r.cpuMsPerMb, 100.0 * r.wire / r.bytes);
      }
    }
  }

  record Row(double mbPerSecond, double cpuMsPerMb, long wire, long bytes) {}

  static Row run(String name, byte[] message, boolean skip, double seconds) throws ProtocolException {
    DeflateExtension sender =
        new DeflateExtension(PerMessageDeflate.DEFAULT_COMPRESSION_LEVEL, 0, false, false, 15);
    if (!skip) {
      sender.compressEverything();
    }
    DeflateExtension receiver =
        new DeflateExtension(PerMessageDeflate.DEFAULT_COMPRESSION_LEVEL, 0, false, false, 15);
    ByteBuffer wire = ByteBuffer.allocate(message.length + message.length / 8 + 1024);
    ByteSink toWire = wire::put;
    long[] inflated = new long[1];
    ByteSink count = chunk -> {
      inflated[0] += chunk.remaining();
      chunk.position(chunk.limit());
    };
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpu0 = threads.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    long end = t0 + (long) (seconds * 1e9);
    long bytes = 0;
    long wireBytes = 0;
    for (int i = 0; i < 1_000_000 && System.nanoTime() < end; i++) {
      wire.clear();
      int rsv = sender.encode(true, true, ByteBuffer.wrap(message), toWire);
      wire.flip();
      wireBytes += wire.remaining();
      receiver.decode(rsv, true, wire, count);
      bytes += message.length;
    }
    long wall = System.nanoTime() - t0;
    long cpu = threads.getCurrentThreadCpuTime() - cpu0;
    sender.close();
    receiver.close();
    if (inflated[0] != bytes) {
      throw new AssertionError(name + ": inflated " + inflated[0] + " of " + bytes);
    }
    double mb = bytes / 1e6;
    return new Row(mb / (wall / 1e9), cpu / 1e6 / mb, wireBytes, bytes);
  }

  static byte[] random(int n) {
    byte[] b = new byte[n];
    new SplittableRandom(42).nextBytes(b);
    return b;
  }

  /** JSON objects with varying fields, about {@code n} bytes. */
  static byte[] json(int n) {
    SplittableRandom r = new SplittableRandom(7);
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; sb.length() < n - 200; i++) {
      sb.append("{\"id\":").append(100000 + i).append(",\"user\":\"user").append(r.nextInt(5000))
          .append("\",\"price\":").append(r.nextInt(100000) / 100.0).append(",\"qty\":")
          .append(r.nextInt(1000)).append(",\"side\":\"").append(r.nextBoolean() ? "buy" : "sell")
          .append("\",\"ts\":").append(1733300000000L + r.nextInt(1_000_000)).append("},");
    }
    sb.setLength(sb.length() - 1);
    sb.append(']');
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }
}
