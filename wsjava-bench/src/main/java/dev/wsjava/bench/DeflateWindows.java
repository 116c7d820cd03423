package dev.wsjava.bench;

import dev.wsjava.bench.peer.EchoPayload;
import dev.wsjava.extension.ByteSink;
import dev.wsjava.extension.Extension;
import dev.wsjava.extension.ExtensionOffer;
import dev.wsjava.extension.PerMessageDeflate;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionData;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketServerExtension;
import io.netty.handler.codec.http.websocketx.extensions.compression.PerMessageDeflateServerExtensionHandshaker;
import java.io.BufferedReader;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.Deflater;

/**
 * permessage-deflate at windows of 2^9, 2^12 and 2^15 bytes: compression ratio and speed of
 * wsjava's compressor beside zlib at the same window (Python's {@code zlib.compressobj(wbits=-N)},
 * timed inside Python around the compression calls alone), Netty's encoder (JZlib below 15 bits,
 * the JDK's zlib at 15) and two floors that need no compressor of one's own because they never
 * refer back: zlib's stored blocks and its Huffman-only strategy.
 *
 * <p>Payloads are the benchmark suite's: scenario 6's 300-byte JSON-like messages, numbered,
 * with context takeover; the micro-benchmark's 300-byte message without; and scenario 3's 64 KiB
 * text and binary messages. Every message is compressed as RFC 7692 §7.2.1 says (sync flush, tail
 * removed). Ratio is compressed / original bytes; MB/s is original bytes (10^6) per second of the
 * compressing thread's CPU time, the median of the measured passes, with their spread. One
 * thread; run it under {@code cpu-exclusive}. Usage: {@code DeflateWindows [passes]}.
 */
public final class DeflateWindows {
  private static final int[] WINDOWS = {9, 12, 15};
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private record PayloadSet(String name, List<byte[]> messages, boolean text, boolean reset) {
    long bytes() {
      return messages.stream().mapToLong(m -> m.length).sum();
    }
  }

  /** One pass: compressed bytes and CPU nanoseconds. */
  private record Pass(long out, long cpuNanos) {}

  /** A compressor under test: compresses the set once, from a fresh state. */
  private interface Contender {
    Pass run(PayloadSet set) throws Exception;
  }

  private DeflateWindows() {}

  /**
   * Prints the table.
   *
   * @param args optional: the number of measured passes (default 5)
   * @throws Exception if a compressor or Python fails
   */
  public static void main(String[] args) throws Exception {
    int passes = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    List<PayloadSet> sets = sets();
    Path script = Files.createTempFile("zlib_windows", ".py");
    try (InputStream in = DeflateWindows.class.getResourceAsStream("zlib_windows.py")) {
      Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
    }
    System.out.println("| payload | N | compressor | ratio | MB/s (median, min-max) |");
    System.out.println("|---|---|---|---|---|");
    for (PayloadSet set : sets) {
      Path file = write(set);
      row(set, "any", "floor: stored blocks (zlib level 0)", measure(set, passes,
          s -> zlibFloor(s, 0, Deflater.DEFAULT_STRATEGY)));
      row(set, "any", "floor: literals only (zlib Huffman-only)", measure(set, passes,
          s -> zlibFloor(s, 1, Deflater.HUFFMAN_ONLY)));
      for (int bits : WINDOWS) {
        for (int level : new int[] {1, 3, 6}) {
          row(set, bits, "wsjava level " + level + (level == 3 ? " (default)" : ""),
              measure(set, passes, s -> wsjava(s, bits, level)));
        }
        for (int level : new int[] {1, 3, 6}) {
          row(set, bits, "zlib level " + level, python(script, file, set, bits, level, passes));
        }
        for (int level : new int[] {3, 6}) {
          row(set, bits, "Netty level " + level + (bits < 15 ? " (JZlib)" : " (JDK zlib)"),
              measure(set, passes, s -> netty(s, bits, level)));
        }
      }
      Files.delete(file);
    }
    Files.delete(script);
  }

  private static List<PayloadSet> sets() {
    List<PayloadSet> sets = new ArrayList<>();
    EchoPayload small = EchoPayload.of(300, true);
    List<byte[]> numbered = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      byte[] m = new byte[small.size()];
      small.fill(i, m);
      numbered.add(m);
    }
    sets.add(new PayloadSet("scenario 6: 20,000 x 300 B JSON, context kept", numbered, true,
        false));
    sets.add(new PayloadSet("micro: 20,000 x the 300 B JSON, no context takeover",
        java.util.Collections.nCopies(20_000, Payloads.json300()), true, true));
    for (boolean text : new boolean[] {true, false}) {
      EchoPayload big = EchoPayload.of(64 * 1024, text);
      List<byte[]> messages = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        byte[] m = new byte[big.size()];
        big.fill(i, m);
        messages.add(m);
      }
      sets.add(new PayloadSet("scenario 3: 100 x 64 KiB " + (text ? "JSON text" : "random binary")
          + ", context kept", messages, text, false));
    }
    return sets;
  }

  private static void row(PayloadSet set, Object bits, String who, double[] r) {
    System.out.printf(Locale.ROOT, "| %s | %s | %s | %.1f%% | %.1f (%.1f-%.1f) |%n", set.name(),
        bits, who, r[0], r[1], r[2], r[3]);
  }

  /** Runs two passes to warm up, then the measured ones: ratio %, median, min, max MB/s. */
  private static double[] measure(PayloadSet set, int passes, Contender c) throws Exception {
    c.run(set);
    c.run(set);
    double[] speeds = new double[passes];
    long out = 0;
    for (int i = 0; i < passes; i++) {
      Pass p = c.run(set);
      out = p.out();
      speeds[i] = set.bytes() / 1e6 / (p.cpuNanos() / 1e9);
    }
    return summary(100.0 * out / set.bytes(), speeds);
  }

  private static double[] summary(double ratio, double[] speeds) {
    Arrays.sort(speeds);
    return new double[] {ratio, speeds[speeds.length / 2], speeds[0], speeds[speeds.length - 1]};
  }

  private static Pass wsjava(PayloadSet set, int bits, int level) throws Exception {
    PerMessageDeflate config = PerMessageDeflate.builder()
        .compressionLevel(level)
        .minCompressSize(0)
        .serverNoContextTakeover(set.reset())
        .build();
    List<ExtensionOffer> offer = List.of(new ExtensionOffer(PerMessageDeflate.NAME, List.of(
        new ExtensionOffer.Param("server_max_window_bits", Integer.toString(bits)))));
    long[] out = {0};
    ByteSink count = chunk -> {
      out[0] += chunk.remaining();
      chunk.position(chunk.limit());
    };
    try (Extension server = config.serverAccept(offer).extension()) {
      long start = THREADS.getCurrentThreadCpuTime();
      for (byte[] m : set.messages()) {
        server.encode(true, true, ByteBuffer.wrap(m), count);
      }
      return new Pass(out[0], THREADS.getCurrentThreadCpuTime() - start);
    }
  }

  private static Pass zlibFloor(PayloadSet set, int level, int strategy) {
    Deflater d = new Deflater(level, true);
    d.setStrategy(strategy);
    byte[] buf = new byte[256 * 1024];
    long out = 0;
    long start = THREADS.getCurrentThreadCpuTime();
    for (byte[] m : set.messages()) {
      d.setInput(m);
      int n;
      do {
        n = d.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH);
        out += n;
      } while (n == buf.length);
      out -= 4;
    }
    long cpu = THREADS.getCurrentThreadCpuTime() - start;
    d.end();
    return new Pass(out, cpu);
  }

  private static Pass netty(PayloadSet set, int bits, int level) {
    PerMessageDeflateServerExtensionHandshaker handshaker =
        new PerMessageDeflateServerExtensionHandshaker(level, true, 15, true, false, 1 << 20);
    Map<String, String> offer = new HashMap<>();
    offer.put("server_max_window_bits", Integer.toString(bits));
    if (set.reset()) {
      offer.put("server_no_context_takeover", null);
    }
    WebSocketServerExtension ext =
        handshaker.handshakeExtension(new WebSocketExtensionData("permessage-deflate", offer));
    EmbeddedChannel encoder = new EmbeddedChannel(ext.newExtensionEncoder());
    long out = 0;
    long start = THREADS.getCurrentThreadCpuTime();
    for (byte[] m : set.messages()) {
      encoder.writeOutbound(set.text()
          ? new TextWebSocketFrame(Unpooled.wrappedBuffer(m))
          : new BinaryWebSocketFrame(Unpooled.wrappedBuffer(m)));
      WebSocketFrame frame = encoder.readOutbound();
      out += frame.content().readableBytes();
      frame.release();
    }
    long cpu = THREADS.getCurrentThreadCpuTime() - start;
    encoder.finishAndReleaseAll();
    return new Pass(out, cpu);
  }

  private static Path write(PayloadSet set) throws IOException {
    Path file = Files.createTempFile("payloads", ".bin");
    try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(file))) {
      for (byte[] m : set.messages()) {
        out.writeInt(m.length);
        out.write(m);
      }
    }
    return file;
  }

  /** zlib through Python: the script times its own passes (two more first, to warm up). */
  private static double[] python(Path script, Path file, PayloadSet set, int bits, int level,
      int passes) throws IOException, InterruptedException {
    String python = Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    Process p = new ProcessBuilder(python, script.toString(), file.toString(),
        Integer.toString(bits), Integer.toString(level), set.reset() ? "1" : "0",
        Integer.toString(passes + 2))
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII))) {
      for (String line; (line = r.readLine()) != null; ) {
        lines.add(line);
      }
    }
    if (p.waitFor() != 0 || lines.size() != passes + 2) {
      throw new IOException("zlib_windows.py failed: " + lines);
    }
    double[] speeds = new double[passes];
    long out = 0;
    for (int i = 0; i < passes; i++) {
      String[] f = lines.get(i + 2).split(" ");
      out = Long.parseLong(f[0]);
      speeds[i] = Long.parseLong(f[1]) / 1e6 / Double.parseDouble(f[2]);
    }
    return summary(100.0 * out / set.bytes(), speeds);
  }
}
