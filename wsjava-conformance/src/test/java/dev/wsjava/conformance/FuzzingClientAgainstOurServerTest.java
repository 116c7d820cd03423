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
 * The fuzzing client against wsjava's own server, deflate on, each transport: every case of the
 * catalogue runs, none FAILED, and group 13 (deflate parameters) is all OK. The NIO server gets
 * group 9 at full size (messages up to 16 MiB), the blocking one the reduced set.
 */
class FuzzingClientAgainstOurServerTest {

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void ourServerFailsNoCase(Transport transport) throws Exception {
    String agent = "wsjava-server-" + transport.name().toLowerCase(java.util.Locale.ROOT);
    Path out = Path.of("target", "conformance", agent);
    boolean full = transport == Transport.NIO;
    List<Result> results;
    try (WebSocketServer server = OurEchoServer.start(transport, true)) {
      FuzzingClient.Options options = new FuzzingClient.Options(OurEchoServer.echoUri(server),
          Verdicts.selected(), List.of(), full, out, agent, false, Settings.DEFAULTS);
      results = FuzzingClient.run(options, r -> {});
    }
    Verdicts.assertRanTheCatalogue(results, full);
    assertThat(out.resolve("index.json")).exists();
    assertThat(Files.size(out.resolve("index.html"))).isPositive();
    Verdicts.assertNoneFailed(agent, results);
    // permessage-deflate parameters, window bits included: every offer is honoured.
    Verdicts.assertGroupAllOk(agent, results, 13);
  }
}
