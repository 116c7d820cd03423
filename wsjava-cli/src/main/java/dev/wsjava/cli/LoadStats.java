package dev.wsjava.cli;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What a load run counts: echoes checked, payload bytes, latencies (HdrHistogram, microseconds)
 * and errors by kind, each kind with its first example. Thread-safe: every connection's I/O
 * thread records into it while the main thread reads progress.
 */
final class LoadStats {

  /** The kinds of error a load run tells apart. */
  enum Kind {
    CONNECT("connect", "connection or handshake failed"),
    CLOSED("closed", "connection closed before the run ended"),
    SEND("send", "a send was refused"),
    TYPE("type", "echo of the other message type"),
    LENGTH("length", "echo of the wrong length"),
    CONTENT("content", "echo with different bytes"),
    LOST("lost", "no echo, while later messages came back"),
    ORDER("order", "echo after a later message's echo"),
    EXTRA("extra", "echo of no message in flight (duplicate or made up)"),
    TIMEOUT("timeout", "no echo by the end of the drain");

    final String key;
    final String meaning;

    Kind(String key, String meaning) {
      this.key = key;
      this.meaning = meaning;
    }
  }

  /** Latency values are microseconds; this many significant digits. */
  private static final int DIGITS = 3;

  private final AtomicLongArray errors = new AtomicLongArray(Kind.values().length);
  private final AtomicReferenceArray<String> firstExample =
      new AtomicReferenceArray<>(Kind.values().length);
  private final LongAdder messages = new LongAdder();
  private final LongAdder bytes = new LongAdder();
  private final Recorder latency = new Recorder(DIGITS);

  /** Counts {@code n} errors of {@code kind} (n may be negative to move a count to another kind). */
  void error(Kind kind, long n, Supplier<String> example) {
    errors.addAndGet(kind.ordinal(), n);
    if (n > 0 && firstExample.get(kind.ordinal()) == null) {
      firstExample.compareAndSet(kind.ordinal(), null, example.get());
    }
  }

  /** Counts one checked echo of {@code size} payload bytes that took {@code nanos}. */
  void echo(int size, long nanos) {
    messages.increment();
    bytes.add(2L * size);
    latency.recordValue(Math.max(1, nanos / 1000));
  }

  long messages() {
    return messages.sum();
  }

  /** Payload bytes sent and received. */
  long bytes() {
    return bytes.sum();
  }

  long errors() {
    long total = 0;
    for (int i = 0; i < errors.length(); i++) {
      total += errors.get(i);
    }
    return total;
  }

  long errors(Kind kind) {
    return errors.get(kind.ordinal());
  }

  /** The latencies recorded so far (call once, at the end). */
  Histogram latencies() {
    return latency.getIntervalHistogram();
  }

  /** The summary for people: a few aligned lines. */
  String summary(String setup, double seconds, Histogram h) {
    StringBuilder b = new StringBuilder();
    long n = messages();
    b.append(setup).append('\n');
    b.append(String.format(Locale.ROOT, "messages  %,d echoed and checked in %.2f s%n", n, seconds));
    b.append(String.format(Locale.ROOT,
        "rate      %,.0f messages/s, %.1f MB/s (payload bytes sent + received, 1 MB = 10^6 bytes)%n",
        n / seconds, bytes() / seconds / 1e6));
    if (h.getTotalCount() > 0) {
      b.append(String.format(Locale.ROOT,
          "latency   p50 %,d  p90 %,d  p99 %,d  p99.9 %,d  max %,d  (microseconds, send to echo)%n",
          h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
          h.getValueAtPercentile(99.9), h.getMaxValue()));
    }
    long total = errors();
    if (total == 0) {
      b.append("errors    none\n");
    } else {
      b.append(String.format(Locale.ROOT, "errors    %,d%n", total));
      for (Kind k : Kind.values()) {
        long count = errors(k);
        if (count != 0) {
          b.append(String.format(Locale.ROOT, "  %-8s %,d  (%s; first: %s)%n",
              k.key, count, k.meaning, firstExample.get(k.ordinal())));
        }
      }
    }
    return b.toString();
  }

  /** The summary for machines: one JSON object on one line. */
  String json(String url, String setupJson, double seconds, Histogram h) {
    StringBuilder b = new StringBuilder("{");
    b.append("\"url\":").append(quote(url)).append(',').append(setupJson);
    long n = messages();
    b.append(String.format(Locale.ROOT,
        ",\"messages\":%d,\"seconds\":%.3f,\"messagesPerSecond\":%.1f,\"payloadBytesBothWays\":%d,"
            + "\"megabytesPerSecond\":%.3f",
        n, seconds, n / seconds, bytes(), bytes() / seconds / 1e6));
    b.append(",\"latencyMicros\":{");
    if (h.getTotalCount() > 0) {
      b.append(String.format(Locale.ROOT,
          "\"p50\":%d,\"p90\":%d,\"p99\":%d,\"p99_9\":%d,\"max\":%d",
          h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
          h.getValueAtPercentile(99.9), h.getMaxValue()));
    }
    b.append("},\"errors\":{");
    String sep = "";
    for (Kind k : Kind.values()) {
      b.append(sep).append('"').append(k.key).append("\":").append(errors(k));
      sep = ",";
    }
    b.append("},\"errorTotal\":").append(errors());
    b.append(",\"firstErrors\":{");
    sep = "";
    for (Kind k : Kind.values()) {
      String example = firstExample.get(k.ordinal());
      if (example != null && errors(k) != 0) {
        b.append(sep).append('"').append(k.key).append("\":").append(quote(example));
        sep = ",";
      }
    }
    return b.append("}}").toString();
  }

  /** A JSON string literal. */
  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }
}
