package dev.wsjava.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the protocol microbenchmarks briefly and prints one table: each operation's throughput for
 * wsjava, for Netty where Netty has the same operation, and for the memory-copy limit, with the
 * ratios the targets are stated in. Arguments: {@code [iterations] [seconds-per-iteration]}.
 */
public final class MicroBench {

  /** One table row: which benchmarks to compare and how many bytes (or items) one op handles. */
  record Row(String operation, String ours, String netty, String baseline, String jdk, double unitsPerOp, String unit) {}

  static final double MIB = Payloads.MIB;

  static final List<Row> ROWS =
      List.of(
          new Row("mask 1 MiB", "CodecBench.mask1MiB", "NettyCodecBench.mask1MiB",
              "CodecBench.arraycopy1MiB", null, MIB, "MB/s"),
          new Row("encode masked 1 MiB frame", "CodecBench.encodeMasked1MiB",
              "NettyCodecBench.encodeMasked1MiB", "CodecBench.arraycopy1MiB", null, MIB, "MB/s"),
          new Row("parse masked 1 MiB frame", "CodecBench.parseMasked1MiB",
              "NettyCodecBench.parseMasked1MiB", "CodecBench.arraycopy1MiB", null, MIB, "MB/s"),
          new Row("parse unmasked 1 MiB frame", "CodecBench.parseUnmasked1MiB",
              "NettyCodecBench.parseUnmasked1MiB", "CodecBench.arraycopy1MiB", null, MIB, "MB/s"),
          new Row("parse 300 B frames (stream)", "CodecBench.parseStream300B",
              "NettyCodecBench.parseStream300B", null, null, CodecBench.STREAM_FRAMES, "frames/s"),
          new Row("UTF-8 validate 1 MiB ASCII", "Utf8Bench.validateAscii1MiB", null,
              "Utf8Bench.arraycopyAscii1MiB", "Utf8Bench.jdkDecodeAscii1MiB", MIB, "MB/s"),
          new Row("UTF-8 validate 1 MiB mixed", "Utf8Bench.validateMixed1MiB", null,
              "Utf8Bench.arraycopyAscii1MiB", "Utf8Bench.jdkDecodeMixed1MiB", MIB, "MB/s"),
          new Row("deflate 300 B JSON", "DeflateBench.deflate300B", "NettyDeflateBench.deflate300B",
              null, null, 1, "msgs/s"),
          new Row("inflate 300 B JSON", "DeflateBench.inflate300B", "NettyDeflateBench.inflate300B",
              null, null, 1, "msgs/s"));

  private MicroBench() {}

  /**
   * Runs the benchmarks and prints the table.
   *
   * @param args optional iterations and seconds per iteration
   * @throws RunnerException when JMH fails
   */
  public static void main(String[] args) throws RunnerException {
    int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    String include = args.length > 2 ? args[2] : "dev\\.wsjava\\.bench\\..*";
    Options options =
        new OptionsBuilder()
            .include(include)
            .forks(1)
            .warmupIterations(3)
            .warmupTime(TimeValue.seconds(1))
            .measurementIterations(iterations)
            .measurementTime(TimeValue.seconds(seconds))
            .jvmArgsAppend("-Xms1g", "-Xmx1g")
            .build();
    Collection<RunResult> results = new Runner(options).run();
    Map<String, double[]> scores = new HashMap<>();
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      name = name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1);
      scores.put(name, new double[] {r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreError()});
    }
    System.out.println(table(scores));
  }

  static String table(Map<String, double[]> s) {
    List<String> lines = new ArrayList<>();
    lines.add("| operation | unit | wsjava | Netty 4.2 | arraycopy | JDK decode | wsjava / arraycopy | wsjava / Netty | wsjava / JDK |");
    lines.add("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for (Row row : ROWS) {
      if (!s.containsKey(row.ours())) {
        continue;
      }
      double ours = rate(s, row.ours(), row);
      double netty = rate(s, row.netty(), row);
      double base = rate(s, row.baseline(), row);
      double jdk = rate(s, row.jdk(), row);
      lines.add(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |",
          row.operation(), row.unit(), fmt(ours, s, row.ours()), fmt(netty, s, row.netty()),
          fmt(base, s, row.baseline()), fmt(jdk, s, row.jdk()),
          ratio(ours, base), ratio(ours, netty), ratio(ours, jdk)));
    }
    return String.join("\n", lines);
  }

  static double rate(Map<String, double[]> s, String bench, Row row) {
    if (bench == null || !s.containsKey(bench)) {
      return Double.NaN;
    }
    double perOp = row.unit().equals("MB/s") ? row.unitsPerOp() / 1e6 : row.unitsPerOp();
    return s.get(bench)[0] * perOp;
  }

  static String fmt(double v, Map<String, double[]> s, String bench) {
    if (Double.isNaN(v)) {
      return "-";
    }
    double[] r = s.get(bench);
    double errPct = r[0] == 0 ? 0 : 100 * r[1] / r[0];
    return String.format(Locale.ROOT, "%,.0f ±%.0f%%", v, errPct);
  }

  static String ratio(double a, double b) {
    return Double.isNaN(a) || Double.isNaN(b) ? "-" : String.format(Locale.ROOT, "%.2fx", a / b);
  }
}
