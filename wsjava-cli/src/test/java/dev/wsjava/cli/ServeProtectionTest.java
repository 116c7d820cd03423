package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code wsjava serve}'s protective defaults (issue 35): a cap on the WebSockets one address holds
 * and a rate of upgrades per address, on unless lifted with 0.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ServeProtectionTest {

  @Test
  void theDefaultsAreACapAndARatePerAddress() {
    picocli.CommandLine.Model.CommandSpec serve = Main.commandLine(
            new Io(new ByteArrayInputStream(new byte[0]), System.out, System.err, false))
        .parseArgs("serve").subcommand().commandSpec();
    assertThat((Integer) serve.findOption("--max-per-address").getValue()).isEqualTo(256);
    assertThat((Units.Rate) serve.findOption("--handshake-rate").getValue())
        .isEqualTo(new Units.Rate(100, Duration.ofSeconds(1)));
    assertThat(Cli.run("", "serve", "--help").out())
        .contains("--max-per-address", "--handshake-rate", "256 WebSockets", "100/s");
  }

  @Test
  void theDefaultCapRefusesTheNextConnectionOfAnAddressWith429() throws Exception {
    List<Socket> open = new ArrayList<>();
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--handshake-rate", "0")) {
      for (int i = 0; i < 256; i++) {
        open.add(RawWebSocket.connect(server.port(), "/echo", 4096));
      }
      assertThatThrownBy(() -> open.add(RawWebSocket.connect(server.port(), "/echo", 4096)))
          .isInstanceOf(IOException.class).hasMessageContaining("HTTP/1.1 429");
      assertThat(server.server().stats().rejectedAddressFull()).isEqualTo(1);
    } finally {
      for (Socket s : open) {
        s.close();
      }
    }
  }

  @Test
  void aHandshakeRateRefusesTheUpgradePastItsBurstWith429() throws Exception {
    List<Socket> open = new ArrayList<>();
    try (ServeCommand.Running server = Cli.serve("--port", "0", "--handshake-rate", "3/m")) {
      for (int i = 0; i < 3; i++) {
        open.add(RawWebSocket.connect(server.port(), "/echo", 4096));
      }
      assertThatThrownBy(() -> open.add(RawWebSocket.connect(server.port(), "/echo", 4096)))
          .isInstanceOf(IOException.class).hasMessageContaining("HTTP/1.1 429")
          .hasMessageContaining("Retry-After");
      assertThat(server.server().stats().rejectedHandshakeRate()).isEqualTo(1);
    } finally {
      for (Socket s : open) {
        s.close();
      }
    }
  }

  @Test
  void zeroLiftsBoth() throws Exception {
    List<Socket> open = new ArrayList<>();
    try (ServeCommand.Running server = Cli.serve(
        "--port", "0", "--max-per-address", "0", "--handshake-rate", "0")) {
      for (int i = 0; i < 300; i++) { // past both defaults, as fast as the loop goes
        open.add(RawWebSocket.connect(server.port(), "/echo", 4096));
      }
      assertThat(server.server().openTcpConnections()).isEqualTo(300);
    } finally {
      for (Socket s : open) {
        s.close();
      }
    }
  }

  @Test
  void aRateIsACountPerTimeOrZero() {
    assertThat(Units.rate("20/s")).isEqualTo(new Units.Rate(20, Duration.ofSeconds(1)));
    assertThat(Units.rate("600/m")).isEqualTo(new Units.Rate(600, Duration.ofMinutes(1)));
    assertThat(Units.rate("100/10s")).isEqualTo(new Units.Rate(100, Duration.ofSeconds(10)));
    assertThat(Units.rate("0").off()).isTrue();
    for (String bad : List.of("20", "/s", "x/s", "0/s", "5/0s", "-1/s")) {
      assertThatThrownBy(() -> Units.rate(bad)).as(bad)
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a rate");
    }
    assertThat(Cli.run("", "serve", "--handshake-rate", "fast").stderr())
        .contains("'fast' is not a rate");
    assertThat(Cli.run("", "serve", "--max-per-address", "-1").stderr())
        .contains("--max-per-address takes 0 (no cap) or more");
  }
}
