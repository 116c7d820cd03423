package dev.wsjava.bench.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Facts about the machine for the report: CPU model, cores, memory, kernel, runtimes. */
final class MachineInfo {
  private MachineInfo() {}

  static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).strip();
        }
      }
    } catch (IOException ignored) {
      // not Linux
    }
    return "unknown";
  }

  static String memory() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
          return String.format(java.util.Locale.ROOT, "%.1f GiB", kib / 1024.0 / 1024.0);
        }
      }
    } catch (IOException ignored) {
      // not Linux
    }
    return "unknown";
  }

  static String kernel() {
    try {
      return "Linux " + Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip();
    } catch (IOException e) {
      return System.getProperty("os.name") + " " + System.getProperty("os.version");
    }
  }

  static String jdk() {
    return System.getProperty("java.vm.name") + " " + Runtime.version() + " ("
        + System.getProperty("java.vendor") + ")";
  }

  /**
   * Runs a short command and returns its first output line.
   *
   * @param command the command
   * @return the line, or {@code null} when the command fails
   */
  static String firstLine(List<String> command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
        return null;
      }
      return out.lines().findFirst().orElse("");
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
