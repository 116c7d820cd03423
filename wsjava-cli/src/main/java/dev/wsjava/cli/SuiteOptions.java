package dev.wsjava.cli;

import dev.wsjava.conformance.Catalogue;
import dev.wsjava.conformance.Settings;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The options both conformance runners share: which cases, how large, how patient. */
final class SuiteOptions {
  @Spec(Spec.Target.MIXEE)
  private CommandSpec spec;

  @Option(names = "--cases", paramLabel = "PATTERNS", split = ",",
      showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER,
      description = "Cases: ids or globs, comma-separated, such as 1.* or 6.4 (6.4 and the cases"
          + " below it); default all.")
  List<String> cases = new ArrayList<>();

  @Option(names = "--exclude", paramLabel = "PATTERNS", split = ",",
      showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER,
      description = "Cases to leave out, as --cases.")
  List<String> exclude = new ArrayList<>();

  @Option(names = "--full",
      description = "Group 9 at full size, messages up to 16 MiB (default: up to 1 MiB).")
  boolean full;

  @Option(names = "--timeout-scale", paramLabel = "X", defaultValue = "1",
      description = "Multiply every case's timeout by X, for a slow peer or machine.")
  double timeoutScale;

  /**
   * Checks the options: a positive finite scale, and patterns that select at least one case (a
   * typo would otherwise pass as a run of nothing); usage errors otherwise.
   *
   * @return how many cases the patterns select
   */
  int check() {
    if (!(timeoutScale > 0) || Double.isInfinite(timeoutScale)) {
      throw new ParameterException(spec.commandLine(), "--timeout-scale must be a positive number");
    }
    int selected = Catalogue.select(Catalogue.all(full), cases, exclude).size();
    if (selected == 0) {
      throw new ParameterException(spec.commandLine(),
          "--cases " + String.join(",", cases) + (exclude.isEmpty() ? "" : " --exclude "
              + String.join(",", exclude)) + " selects no case (ids look like 1.1.1, 6.4.*)");
    }
    return selected;
  }

  /** The runner's patience, with this scale. */
  Settings settings() {
    return Settings.DEFAULTS.withTimeoutScale(timeoutScale);
  }
}
