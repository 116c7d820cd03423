package dev.wsjava.cli;

import dev.wsjava.WebSocketConfig;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads the sizes, durations and rates options take: {@code 64k}, {@code 16m}, {@code 10s},
 * {@code 500ms}, {@code 20/s}.
 */
final class Units {
  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmg]?)(?:i?b)?");
  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

  private Units() {}

  /**
   * Parses a byte count: a number, optionally followed by {@code k}, {@code m} or {@code g}
   * (powers of 1024; {@code kb}, {@code KiB} and the like are read the same).
   */
  static long size(String text) {
    Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a size: use bytes, or a number with k, m or g (e.g. 64k, 16m)");
    }
    int shift =
        switch (m.group(2)) {
          case "k" -> 10;
          case "m" -> 20;
          case "g" -> 30;
          default -> 0;
        };
    long n;
    try {
      n = Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is too large");
    }
    if (n > Long.MAX_VALUE >> shift) {
      throw new IllegalArgumentException("'" + text + "' is too large");
    }
    return n << shift;
  }

  /** Parses a duration: a number with {@code ms}, {@code s}, {@code m} or {@code h}; bare is seconds. */
  static Duration duration(String text) {
    Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration: use a number with ms, s, m or h (e.g. 500ms, 10s)");
    }
    long n;
    try {
      n = Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is too long");
    }
    String unit = m.group(2) == null ? "s" : m.group(2);
    return switch (unit) {
      case "ms" -> Duration.ofMillis(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> Duration.ofSeconds(n);
    };
  }

  /**
   * A rate: {@code count} events per {@code window}; {@link #OFF} (count 0) for none.
   *
   * @param count events per window, 0 for no limit
   * @param window the window
   */
  record Rate(int count, Duration window) {
    static final Rate OFF = new Rate(0, Duration.ofSeconds(1));

    boolean off() {
      return count == 0;
    }

    @Override
    public String toString() {
      return off() ? "0" : count + "/" + (window.equals(Duration.ofSeconds(1)) ? "s"
          : window.equals(Duration.ofMinutes(1)) ? "m" : window.toMillis() + "ms");
    }
  }

  /**
   * Parses a rate: {@code N/s}, {@code N/m}, {@code N/h} or {@code N/DURATION} (e.g. {@code 20/s},
   * {@code 100/10s}); {@code 0} for none.
   */
  static Rate rate(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.equals("0")) {
      return Rate.OFF;
    }
    int slash = t.indexOf('/');
    String error = "'" + text + "' is not a rate: use a count per time (e.g. 20/s, 600/m) or 0";
    if (slash < 1) {
      throw new IllegalArgumentException(error);
    }
    int count;
    try {
      count = Integer.parseInt(t.substring(0, slash).trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(error);
    }
    String per = t.substring(slash + 1).trim();
    Duration window = duration(per.matches("ms|s|m|h") ? "1" + per : per);
    if (count < 1 || window.isZero()) {
      throw new IllegalArgumentException(error);
    }
    return new Rate(count, window);
  }

  /** Formats a byte count the way {@link #size} reads it, for messages: {@code 16m}, {@code 1500}. */
  static String formatSize(long bytes) {
    for (String[] unit : new String[][] {{"30", "g"}, {"20", "m"}, {"10", "k"}}) {
      int shift = Integer.parseInt(unit[0]);
      if (bytes >= 1L << shift && bytes % (1L << shift) == 0) {
        return (bytes >> shift) + unit[1];
      }
    }
    return Long.toString(bytes);
  }

  /** Sets limits that let messages (and so frames) of up to {@code maxMessage} bytes through. */
  static WebSocketConfig.Builder messagesUpTo(WebSocketConfig.Builder b, long maxMessage) {
    return b.maxMessageSize(maxMessage).maxFramePayload(Math.max(125, maxMessage));
  }

  /** The picocli converter for size options. */
  static final class SizeConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
      try {
        return size(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** The picocli converter for rate options. */
  static final class RateConverter implements ITypeConverter<Rate> {
    @Override
    public Rate convert(String value) {
      try {
        return rate(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** The picocli converter for {@link Duration} options. */
  static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        return duration(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
