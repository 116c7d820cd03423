package dev.wsjava.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Transport;
import dev.wsjava.WebSocketServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The fuzzing client against wsjava's own server, deflate on, each transport: zero FAILED, and
 * group 13 (deflate parameters) all OK.
 */
class FuzzingClientAgainstOurServerTest {

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void ourServerFailsNoCase(Transport transport) throws Exception {
    String agent = "wsjava-server-" + transport.name().toLowerCase(java.util.Locale.ROOT);
    Path out = Path.of("target", "conformance", agent);
    List<Result> results;
    try (WebSocketServer server = OurEchoServer.start(transport, true)) {
      FuzzingClient.Options options =
          FuzzingClient.Options.of(OurEchoServer.echoUri(server)).report(out, agent);
      String only = System.getProperty("conformance.cases");
      if (only != null) {
        options = options.cases(only.split(","));
      }
      results = FuzzingClient.run(options, r -> {});
    }
    assertThat(results).isNotEmpty();
    assertThat(out.resolve("index.json")).exists();
    assertThat(Files.size(out.resolve("index.html"))).isPositive();
    Verdicts.assertNoneFailed(agent, results);
    // permessage-deflate parameters, window bits included: every offer is honoured.
    Verdicts.assertGroupAllOk(agent, results, 13);
  }
}
