package dev.wsjava.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Transport;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/** What every interop test shares: the transports under test, the payload set, the timeouts. */
final class Interop {
  /** The transports every interop test runs over: all of them, kept in this one place. */
  static final List<Transport> TRANSPORTS = List.of(Transport.values());

  /** Payload lengths in bytes: each length class of RFC 6455 section 5.2 and its edges, and 1 MiB. */
  static final int[] SIZES = {0, 1, 125, 126, 65535, 65536, 1 << 20};

  /** The longest any single wait in a test may take. */
  static final Duration WAIT = Duration.ofSeconds(10);

  static final long WAIT_SECONDS = WAIT.toSeconds();

  private Interop() {}

  /** {@code n} random bytes, the same for the same {@code n}. */
  static byte[] binary(int n) {
    byte[] b = new byte[n];
    new SplittableRandom(n * 31L + 7).nextBytes(b);
    return b;
  }

  /**
   * A string of exactly {@code n} UTF-8 bytes mixing 1-, 2-, 3- and 4-byte code points (so code
   * points straddle frame, fragment and TCP boundaries), the same for the same {@code n}.
   */
  static String text(int n) {
    SplittableRandom r = new SplittableRandom(n * 17L + 3);
    StringBuilder sb = new StringBuilder(n);
    int left = n;
    while (left > 0) {
      int width = r.nextInt(10) < 6 ? 1 : 1 + r.nextInt(Math.min(4, left));
      switch (width) {
        case 1 -> sb.append((char) ('a' + r.nextInt(26)));
        case 2 -> sb.appendCodePoint(0x80 + r.nextInt(0x800 - 0x80));
        case 3 -> {
          int cp = 0x800 + r.nextInt(0x10000 - 0x800 - 0x800);
          sb.appendCodePoint(cp >= 0xD800 ? cp + 0x800 : cp); // skip the surrogate range
        }
        default -> sb.appendCodePoint(0x10000 + r.nextInt(0x110000 - 0x10000));
      }
      left -= width;
    }
    String s = sb.toString();
    assertThat(s.getBytes(StandardCharsets.UTF_8)).hasSize(n);
    return s;
  }

  /** A highly compressible text of about {@code n} bytes (ASCII, so exactly {@code n}). */
  static String compressibleText(int n) {
    String unit = "the quick brown fox jumps over the lazy dog; ";
    return unit.repeat(n / unit.length() + 1).substring(0, n);
  }

  /**
   * Asserts byte-for-byte equality, reporting lengths and the first differing index instead of
   * dumping megabytes.
   */
  static void assertSameBytes(byte[] actual, byte[] expected, String what) {
    int i = Arrays.mismatch(actual, expected);
    assertThat(i)
        .as("%s: %d bytes received, %d expected, first difference at index %d", what,
            actual.length, expected.length, i)
        .isEqualTo(-1);
  }

  /** The text's UTF-8 bytes. */
  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
