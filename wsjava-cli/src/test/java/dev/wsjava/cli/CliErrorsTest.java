package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a user sees when a command line or a connection goes wrong: a usage error is its error and
 * one line pointing at {@code --help}, exit status 2; a failure names what failed in words (no
 * Java exception names) and, where one helps, what to try, exit status 1.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CliErrorsTest {

  /** A usage error: exit 2, stderr the error and the pointer at --help, nothing more. */
  private static void assertUsageError(Cli.Result r, String command, String error) {
    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.stderr().lines().toList()).as(r.toString()).hasSize(2);
    assertThat(r.stderr()).as(r.toString())
        .startsWith(command + ": ")
        .contains(error)
        .endsWith("Run '" + command + " --help' for the options.\n")
        .doesNotContain("Usage:", "Exception");
  }

  @Test
  void anUnknownOptionIsItsErrorAndOneLinePointingAtHelpNotTheWholeHelp() {
    assertUsageError(Cli.run("", "serve", "--frobnicate"), "wsjava serve",
        "Unknown option: '--frobnicate'");
    assertUsageError(Cli.run("", "conformance", "client", "ws://127.0.0.1:1/", "--cases", "99.*"),
        "wsjava conformance client", "selects no case");
  }

  @ParameterizedTest
  @ValueSource(strings = {"70000", "-1"})
  void aListeningPortOutOfRangeIsAUsageError(String port) {
    assertUsageError(Cli.run("", "serve", "--port", port), "wsjava serve",
        "--port " + port + " is out of range: give 0 (any free port) to 65535");
    assertUsageError(Cli.run("", "conformance", "server", "--port", port),
        "wsjava conformance server", "--port " + port + " is out of range");
  }

  @Test
  void aUrlPortOutOfRangeIsAUsageError() {
    assertUsageError(Cli.run("", "connect", "ws://127.0.0.1:99999/"), "wsjava connect",
        "the port 99999 of 'ws://127.0.0.1:99999/' is out of range: give 1 to 65535");
    assertUsageError(Cli.run("", "load", "ws://127.0.0.1:99999/"), "wsjava load",
        "is out of range");
  }

  @ParameterizedTest
  @ValueSource(strings = {"ws://", "ws://host name/"})
  void aUrlThatCannotBeReadIsAPlainSentence(String url) {
    assertUsageError(Cli.run("", "connect", url), "wsjava connect",
        "'" + url + "' is not a valid URL: ");
    assertThat(Cli.run("", "connect", url).stderr()).doesNotContain("java.", "Invalid value");
  }

  @Test
  void aMissingFileSaysItDoesNotExistOrCannotBeRead(@TempDir Path dir) throws Exception {
    Path key = Files.writeString(dir.resolve("k.pem"), "not a key");
    assertUsageError(Cli.run("", "serve", "--cert", "/nonexistent.pem", "--key", key.toString()),
        "wsjava serve", "--cert /nonexistent.pem: the file does not exist or cannot be read");
    assertUsageError(Cli.run("", "serve", "--keystore", "/nonexistent.p12",
        "--keystore-password", "x"), "wsjava serve", "--keystore /nonexistent.p12: the file");
    assertUsageError(Cli.run("", "serve", "--cert", key.toString(), "--key", dir.toString()),
        "wsjava serve", "--key " + dir + ": the file does not exist or cannot be read");
    assertUsageError(Cli.run("", "connect", "--cacert", "/nonexistent.pem", "wss://127.0.0.1:1/"),
        "wsjava connect", "--cacert /nonexistent.pem: the file does not exist or cannot be read");
  }

  @Test
  void aHostThatCannotBeResolvedIsNamed() {
    Cli.Result r = Cli.run("", "serve", "--host", "999.1.1.1", "--port", "0");
    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    assertThat(r.stderr()).isEqualTo("wsjava serve: cannot resolve host 999.1.1.1\n");
  }

  @ParameterizedTest
  @ValueSource(strings = {"nio", "blocking"})
  void anUntrustedCertificateHintsAtCacertAndInsecure(String transport) throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--self-signed")) {
      Cli.Result r = Cli.run("", "connect", "--transport", transport,
          "wss://localhost:" + server.port() + "/echo");
      assertThat(r.exit()).as(r.toString()).isEqualTo(1);
      assertThat(r.stderr()).as(r.toString())
          .contains("wsjava connect: cannot connect to wss://localhost:" + server.port())
          .contains("wsjava connect: hint: ", "--cacert FILE", "--insecure");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"nio", "blocking"})
  void plainWsToATlsServerHintsThatItMaySpeakTls(String transport) throws Exception {
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--self-signed")) {
      Cli.Result r = Cli.run("", "connect", "--transport", transport,
          "ws://localhost:" + server.port() + "/echo?x=1");
      assertThat(r.exit()).as(r.toString()).isEqualTo(1);
      assertThat(r.stderr()).as(r.toString()).contains(
          "wsjava connect: hint: the server may speak TLS: try wss://localhost:" + server.port()
              + "/echo?x=1");
    }
  }

  @Test
  void theConformanceClientFailsFastWhenNothingListens() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    Cli.Result r = Cli.run("", "conformance", "client", "ws://127.0.0.1:" + port + "/",
        "--cases", "1.1.*");
    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    assertThat(r.stderr()).isEqualTo("wsjava conformance client: cannot connect to ws://127.0.0.1:"
        + port + "/: Connection refused\n");
    assertThat(r.out()).isEmpty();
  }
}
