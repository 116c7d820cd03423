package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MainTest {

  @ParameterizedTest
  @ValueSource(strings = {"serve", "connect", "load", "conformance"})
  void everyCommandExplainsItselfAndExitsZero(String command) {
    Cli.Result r = Cli.run("", command, "--help");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).startsWith("Usage: wsjava " + command);
  }

  @Test
  void theTopHelpListsTheCommandsAndSaysServeIsTheDefault() {
    Cli.Result r = Cli.run("", "--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("serve", "connect", "load", "conformance", "Without a command, or with only options, runs 'serve'");
  }

  @ParameterizedTest
  @ValueSource(strings = {"client", "server"})
  void conformanceSubcommandsExplainThemselves(String command) {
    Cli.Result r = Cli.run("", "conformance", command, "--help");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).startsWith("Usage: wsjava conformance " + command).contains("--cases", "--out");
  }

  @Test
  void serveHelpSaysHowToServeOtherMachines() {
    assertThat(Cli.run("", "serve", "--help").out()).contains("--host 0.0.0.0");
  }

  @Test
  void noArgumentsOrOptionsAloneMeanServe() {
    assertThat(Main.withDefaultCommand(new String[0])).containsExactly("serve");
    assertThat(Main.withDefaultCommand(new String[] {"--port", "9000"}))
        .containsExactly("serve", "--port", "9000");
    assertThat(Main.withDefaultCommand(new String[] {"--help"})).containsExactly("--help");
    assertThat(Main.withDefaultCommand(new String[] {"load", "ws://x/"})).containsExactly("load", "ws://x/");
  }

  @Test
  void anUnknownOptionIsAUsageError() {
    Cli.Result r = Cli.run("", "serve", "--frobnicate");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.stderr()).contains("Unknown option: '--frobnicate'");
  }

  @Test
  void theVersionNamesWsjava() {
    Cli.Result r = Cli.run("", "--version");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("wsjava");
  }
}
