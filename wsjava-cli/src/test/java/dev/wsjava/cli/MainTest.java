package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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

  /**
   * Help wraps at spaces only: every word of every command's description, options and footer
   * comes out whole at 80 columns ("index.json", not "index." and "json" on two lines).
   */
  @Test
  void helpAt80ColumnsBreaksNoWord() {
    picocli.CommandLine top = Main.commandLine(Io.system());
    java.util.List<picocli.CommandLine> commands = new java.util.ArrayList<>(List.of(top));
    for (int i = 0; i < commands.size(); i++) {
      commands.addAll(commands.get(i).getSubcommands().values().stream()
          .filter(c -> !(c.getCommand() instanceof picocli.CommandLine.HelpCommand))
          .filter(c -> !commands.contains(c)).toList());
    }
    assertThat(commands).hasSizeGreaterThanOrEqualTo(7);
    for (picocli.CommandLine command : commands) {
      command.setUsageHelpWidth(80);
      String help = command.getUsageMessage(picocli.CommandLine.Help.Ansi.OFF);
      assertThat(help.lines()).as(help).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
      java.util.Map<String, Long> rendered = words(help);
      picocli.CommandLine.Model.CommandSpec spec = command.getCommandSpec();
      List<String> texts = new java.util.ArrayList<>();
      texts.addAll(List.of(spec.usageMessage().description()));
      texts.addAll(List.of(spec.usageMessage().footer()));
      spec.options().forEach(o -> texts.addAll(List.of(o.description())));
      spec.positionalParameters().forEach(p -> texts.addAll(List.of(p.description())));
      words(String.join(" ", texts)).forEach((word, count) -> {
        if (!word.contains("%") && !word.contains("${")) {
          assertThat(rendered.getOrDefault(word, 0L))
              .as("'%s' whole in the help of %s:%n%s", word, spec.qualifiedName(), help)
              .isGreaterThanOrEqualTo(count);
        }
      });
    }
  }

  private static java.util.Map<String, Long> words(String text) {
    return java.util.Arrays.stream(text.split("\\s+")).filter(w -> !w.isEmpty())
        .collect(java.util.stream.Collectors.groupingBy(w -> w, java.util.stream.Collectors.counting()));
  }

  @Test
  void theVersionNamesWsjava() {
    Cli.Result r = Cli.run("", "--version");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("wsjava");
  }
}
