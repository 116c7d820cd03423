package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.wsjava.cluster.redis.RedisProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real browser against the page: starts {@code wsjava serve} twice in-process (plain, and with
 * {@code --self-signed}), then runs {@code src/test/browser/browser-test.mjs}, which drives Debian's
 * headless Chromium through playwright-core over ws:// and wss:// (echoes of several sizes checked
 * byte for byte, permessage-deflate, chat between two pages, a screenshot each in {@code
 * target/browser/}), then once in a window 420 px wide (every button and the URL chip inside
 * the window, the chat log clear of the nickname field, by their bounding boxes), and a chat page
 * of a two-server Redis cluster with a history that recovers what it missed after its socket
 * drops. Needs {@code /usr/bin/chromium} and {@code node} (20 or newer) with {@code
 * npm}; fails, naming the Debian package, when one is missing.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class BrowserTest {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path SCRIPT_DIR = Path.of(System.getProperty("basedir", "."), "src/test/browser");
  static final Path OUT = Path.of(System.getProperty("basedir", "."), "target/browser");
  private static final long NPM_MINUTES = 5;
  private static final long SCRIPT_MINUTES = 3;

  @Test
  void headlessChromiumUsesThePageOverWsAndWss() throws Exception {
    requireBrowser();
    for (String shot : List.of("ws.png", "wss.png", "narrow.png")) {
      Files.deleteIfExists(OUT.resolve(shot));
    }
    try (ServeCommand.Running plain = Cli.serve("--port", "0");
        ServeCommand.Running tls = Cli.serve("--port", "0", "--self-signed");
        RedisProcess redis = new RedisProcess();
        ServeCommand.Running one =
            Cli.serve("--port", "0", "--cluster", redis.uri(), "--history", "100");
        ServeCommand.Running two =
            Cli.serve("--port", "0", "--cluster", redis.uri(), "--history", "100")) {
      Run test = run(
          List.of("node", "browser-test.mjs",
              "http://127.0.0.1:" + plain.port() + "/", "https://127.0.0.1:" + tls.port() + "/",
              "--recovery", "http://127.0.0.1:" + one.port() + "/",
              "http://127.0.0.1:" + two.port() + "/"),
          OUT.resolve("browser-test.log"), SCRIPT_MINUTES);
      System.out.println(test.output());
      assertThat(test.exit()).as("browser-test.mjs failed:%n%s", test.output()).isZero();
      assertThat(test.output()).contains("all checks passed").doesNotContain("FAIL");
    }
    assertThat(OUT.resolve("ws.png")).isNotEmptyFile();
    assertThat(OUT.resolve("wss.png")).isNotEmptyFile();
    assertThat(OUT.resolve("narrow.png")).isNotEmptyFile();
  }

  record Run(int exit, String output) {}

  /**
   * Fails, naming the Debian package, without Chromium or node; installs playwright-core with
   * {@code npm ci} when it is missing; makes {@link #OUT}.
   */
  static void requireBrowser() throws IOException, InterruptedException {
    if (!Files.isExecutable(CHROMIUM)) {
      fail("BrowserTest needs " + CHROMIUM + ": install the Debian package chromium (apt-get install chromium)");
    }
    requireTool("node", "nodejs");
    Files.createDirectories(OUT);
    if (!Files.isDirectory(SCRIPT_DIR.resolve("node_modules/playwright-core"))) {
      requireTool("npm", "npm");
      Run npm = run(List.of("npm", "ci", "--no-audit", "--no-fund"), OUT.resolve("npm-ci.log"), NPM_MINUTES);
      assertThat(npm.exit()).as("npm ci in %s failed:%n%s", SCRIPT_DIR, npm.output()).isZero();
    }
  }

  /** Runs a command in the script's directory, output to {@code log}, at most {@code minutes}. */
  static Run run(List<String> command, Path log, long minutes) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command)
        .directory(SCRIPT_DIR.toFile())
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .start();
    if (!p.waitFor(minutes, TimeUnit.MINUTES)) {
      List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
      all.add(p.toHandle());
      all.forEach(ProcessHandle::destroyForcibly);
      p.waitFor(10, TimeUnit.SECONDS);
      return new Run(-1, "timed out after " + minutes + " min: " + command + "\n" + read(log));
    }
    return new Run(p.exitValue(), read(log));
  }

  private static String read(Path log) throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  /** Fails, naming the Debian package, when {@code tool} does not run. */
  static void requireTool(String tool, String debianPackage) throws InterruptedException {
    try {
      Process p = new ProcessBuilder(tool, "--version").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0) {
        return;
      }
    } catch (IOException missing) {
      // reported below
    }
    fail("BrowserTest needs " + tool + " on the PATH: install the Debian package " + debianPackage
        + " (apt-get install " + debianPackage + "; node 20 or newer for playwright-core)");
  }
}
