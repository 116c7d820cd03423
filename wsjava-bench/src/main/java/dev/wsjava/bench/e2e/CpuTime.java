package dev.wsjava.bench.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time a process has used (user plus system, all its threads), from {@code
 * /proc/PID/stat}. The difference over a measured interval divided by the messages served is the
 * server's CPU cost per message: a figure that, unlike throughput, hardly depends on whether the
 * load client or a neighbour on a shared machine was the bottleneck.
 */
final class CpuTime {
  /** Clock ticks per second of {@code /proc/PID/stat}: USER_HZ, 100 on Linux. */
  static final int TICKS_PER_SECOND = 100;

  private CpuTime() {}

  /**
   * Reads a process's CPU time.
   *
   * @param pid the process
   * @return microseconds of CPU used so far, or -1 when it cannot be read (not Linux, gone)
   */
  static long micros(long pid) {
    try {
      return parseMicros(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * Parses {@code utime + stime} from the text of {@code /proc/PID/stat}. The command name (field
   * 2) is in parentheses and may hold spaces, so fields are counted after its closing parenthesis.
   *
   * @param stat the file's text
   * @return microseconds of CPU
   */
  static long parseMicros(String stat) {
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
    // After the name: state is field 3, so utime (14) and stime (15) are at 11 and 12.
    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
    return ticks * (1_000_000L / TICKS_PER_SECOND);
  }
}
