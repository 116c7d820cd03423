package dev.wsjava.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fuzzing client against a Jetty 12.1 echo server: a check of the suite itself, since a
 * known-good peer must get no FAILED. Where Jetty and the RFC disagree, the report shows it
 * (NON-STRICT, INFORMATIONAL), and the counts are printed.
 */
class FuzzingClientAgainstJettyTest {

  @Test
  void jettyFailsNoCase() throws Exception {
    String agent = "jetty-12.1";
    Path out = Path.of("target", "conformance", agent);
    List<Result> results;
    try (JettyEchoServer jetty = new JettyEchoServer()) {
      FuzzingClient.Options options = FuzzingClient.Options.of(jetty.echoUri())
          .report(out, agent).cases(Verdicts.selected().toArray(String[]::new));
      results = FuzzingClient.run(options, r -> {});
    }
    Verdicts.assertRanTheCatalogue(results, false);
    assertThat(out.resolve("index.html")).exists();
    Verdicts.assertNoneFailed(agent, results);
  }
}
