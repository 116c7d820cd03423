package dev.wsjava.bench.peer;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU time a process, or each of its threads, has used (user plus system), from {@code
 * /proc/PID/stat} and {@code /proc/PID/task/TID/stat}. The difference over a measured interval
 * divided by the messages served is a side's CPU cost per message: a figure that, unlike
 * throughput, hardly depends on whether the other side or a neighbour on a shared machine was the
 * bottleneck. Per thread, it shows which of a library's threads did the work.
 */
public final class CpuTime {
  /** Clock ticks per second of {@code /proc/PID/stat}: USER_HZ, 100 on Linux. */
  static final int TICKS_PER_SECOND = 100;
  /** A thread counts as busy in a result when it used this share of its process's CPU. */
  static final double BUSY_SHARE = 0.02;

  private CpuTime() {}

  /**
   * Reads a process's CPU time.
   *
   * @param pid the process
   * @return microseconds of CPU used so far, or -1 when it cannot be read (not Linux, gone)
   */
  public static long micros(long pid) {
    try {
      return parseMicros(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * Reads this process's CPU time.
   *
   * @return microseconds of CPU used so far, or -1 when it cannot be read
   */
  public static long self() {
    return micros(ProcessHandle.current().pid());
  }

  /**
   * Reads the CPU time of every thread of a process, keyed by thread id.
   *
   * @param pid the process
   * @return each thread's name (as the kernel knows it, at most 15 characters) and CPU time; empty
   *     when the process cannot be read
   */
  public static Map<Long, ThreadCpu> threads(long pid) {
    Map<Long, ThreadCpu> out = new TreeMap<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks) {
        try {
          String stat = Files.readString(task.resolve("stat"));
          out.put(Long.parseLong(task.getFileName().toString()),
              new ThreadCpu(parseName(stat), parseMicros(stat)));
        } catch (IOException | RuntimeException e) {
          // the thread ended meanwhile
        }
      }
    } catch (IOException | RuntimeException e) {
      return Map.of();
    }
    return out;
  }

  /**
   * One thread's name and CPU time.
   *
   * @param name the kernel's name of the thread
   * @param micros CPU microseconds used so far
   */
  public record ThreadCpu(String name, long micros) {}

  /**
   * Sums the CPU each group of like-named threads used between two readings: names lose their
   * numbers ({@code epollEventLoopG-3-1} and {@code -3-2} are one group), so the report can say
   * "2 × epollEventLoopG" and how busy they were.
   *
   * @param before the first reading
   * @param after the second
   * @param minShare the least share of the process's CPU a thread must have used to count
   * @return group name to (threads, microseconds), busiest first
   */
  public static Map<String, long[]> busyThreads(Map<Long, ThreadCpu> before, Map<Long, ThreadCpu> after,
      double minShare) {
    long total = 0;
    Map<Long, Long> used = new LinkedHashMap<>();
    for (Map.Entry<Long, ThreadCpu> e : after.entrySet()) {
      ThreadCpu b = before.get(e.getKey());
      long d = e.getValue().micros() - (b == null ? 0 : b.micros());
      used.put(e.getKey(), d);
      total += d;
    }
    Map<String, long[]> groups = new LinkedHashMap<>();
    for (Map.Entry<Long, Long> e : used.entrySet()) {
      if (total == 0 || e.getValue() < minShare * total) {
        continue;
      }
      String group = after.get(e.getKey()).name().replaceAll("[-#_ ]\\d+", "").strip();
      long[] g = groups.computeIfAbsent(group.isEmpty() ? "?" : group, k -> new long[2]);
      g[0]++;
      g[1] += e.getValue();
    }
    Map<String, long[]> sorted = new LinkedHashMap<>();
    groups.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]))
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
  }

  /**
   * Formats {@link #busyThreads} for a result line: {@code name*count:percent,...} with no spaces.
   *
   * @param groups the groups
   * @param total the process's CPU microseconds over the same interval
   * @return for example {@code epollEventLoopG*1:97,C2CompilerThre*1:2}
   */
  public static String formatBusy(Map<String, long[]> groups, long total) {
    StringBuilder sb = new StringBuilder();
    groups.forEach((name, g) -> sb.append(sb.isEmpty() ? "" : ",")
        .append(name.replace(' ', '_').replace(',', '_').replace('=', '_'))
        .append('*').append(g[0]).append(':')
        .append(total <= 0 ? 0 : Math.round(100.0 * g[1] / total)));
    return sb.isEmpty() ? "none" : sb.toString();
  }

  /**
   * The share of a process's CPU between two readings that its JIT compiler threads used (HotSpot
   * names them {@code C1 CompilerThread<n>} and {@code C2 CompilerThread<n>}; the kernel keeps the
   * first 15 characters). A JVM whose compilers still take a large share is not warm: its
   * per-unit cost is partly the compiler's. A process without such threads (a native server) has
   * a share of 0.
   *
   * @param before the first reading
   * @param after the second
   * @return 0 to 1; 0 when the process used no CPU in between
   */
  public static double compilerShare(Map<Long, ThreadCpu> before, Map<Long, ThreadCpu> after) {
    long total = 0;
    long compilers = 0;
    for (Map.Entry<Long, ThreadCpu> e : after.entrySet()) {
      ThreadCpu b = before.get(e.getKey());
      long d = e.getValue().micros() - (b == null ? 0 : b.micros());
      total += d;
      if (isCompiler(e.getValue().name())) {
        compilers += d;
      }
    }
    return total <= 0 ? 0 : (double) compilers / total;
  }

  /** Whether a kernel thread name is one of HotSpot's JIT compiler threads. */
  static boolean isCompiler(String name) {
    return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");
  }

  /**
   * Both sides' CPU time and threads at one edge of a measured interval: this process (the client)
   * and, when known, the server.
   *
   * @param client this process's CPU microseconds
   * @param server the server's, or -1
   * @param clientThreads this process's threads
   * @param serverThreads the server's threads, or none
   */
  public record Edge(long client, long server, Map<Long, ThreadCpu> clientThreads,
      Map<Long, ThreadCpu> serverThreads) {}

  /**
   * Reads an edge of a measured interval.
   *
   * @param serverPid the server's process id, or a negative number when unknown
   * @return this process's and the server's CPU time and threads now
   */
  public static Edge edge(long serverPid) {
    return new Edge(self(), serverPid > 0 ? micros(serverPid) : -1,
        threads(ProcessHandle.current().pid()), serverPid > 0 ? threads(serverPid) : Map.of());
  }

  /**
   * Adds each side's CPU time per unit of work over an interval (user + system, all threads) to
   * a result line, with the threads that did the work: {@code client_cpu_us<per>}, {@code
   * client_threads}, and for a known server {@code server_cpu_us<per>}, {@code server_threads}
   * and {@code server_jit_share} ({@link #compilerShare}).
   *
   * @param line the result line
   * @param begin the interval's start
   * @param end its end
   * @param units echoes, connections, ... done in the interval
   * @param per the suffix of the keys, for example {@code _per_msg}
   * @return the line
   */
  public static ResultLine costs(ResultLine line, Edge begin, Edge end, long units, String per) {
    if (begin.client() >= 0 && end.client() >= 0) {
      long client = end.client() - begin.client();
      line.put("client_cpu_us" + per, client / (double) units)
          .put("client_threads", formatBusy(
              busyThreads(begin.clientThreads(), end.clientThreads(), BUSY_SHARE), client));
    }
    if (begin.server() >= 0 && end.server() >= 0) {
      long server = end.server() - begin.server();
      line.put("server_cpu_us" + per, server / (double) units)
          .put("server_threads", formatBusy(
              busyThreads(begin.serverThreads(), end.serverThreads(), BUSY_SHARE), server))
          .put("server_jit_share", compilerShare(begin.serverThreads(), end.serverThreads()));
    }
    return line;
  }

  /**
   * Parses {@code utime + stime} from the text of a {@code stat} file. The command name (field 2)
   * is in parentheses and may hold spaces, so fields are counted after its closing parenthesis.
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

  /** Parses the command (thread) name between the first '(' and the last ')'. */
  static String parseName(String stat) {
    return stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  }
}
