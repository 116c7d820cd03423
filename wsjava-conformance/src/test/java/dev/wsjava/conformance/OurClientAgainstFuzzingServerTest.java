package dev.wsjava.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Message;
import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * wsjava's own client, on each transport, against the fuzzing server, driven as the reference
 * suite's drivers do it: getCaseCount, every runCase with an echoing client, updateReports.
 *
 * <p>Each case is driven one-shot, as a command-line driver ({@code wsjava connect --echo}) does
 * it: the process ends as soon as the connection is reported closed. Here the listener aborts the
 * connection in {@code onClose}, the in-process stand-in for that exit. A driver that lived on
 * (as this test once did) let a close reply written after {@code onClose} get out later, and
 * hid a client that reported the close before answering it (RFC 6455 §5.5.1).
 */
class OurClientAgainstFuzzingServerTest {

  /**
   * Echoes every message, as the fuzzing server expects of the client under test, and ends the
   * connection at once when it is reported closed.
   */
  private static final WebSocketListener ONE_SHOT_ECHO = new WebSocketListener() {
    @Override
    public void onText(WebSocket ws, String text) {
      ws.sendText(text);
    }

    @Override
    public void onBinary(WebSocket ws, ByteBuffer data) {
      ws.sendBinary(data);
    }

    @Override
    public void onClose(WebSocket ws, int code, String reason) {
      ws.abort(); // a one-shot driver exits here
    }
  };

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void ourClientFailsNoCase(Transport transport) throws Exception {
    String agent = "wsjava-client-" + transport.name().toLowerCase(Locale.ROOT);
    FuzzingServer.Options options = FuzzingServer.Options.loopback()
        .reports(Path.of("target", "conformance"))
        .cases(Verdicts.selected().toArray(String[]::new));
    WebSocketConfig config = WebSocketConfig.builder().transport(transport).build();
    List<Result> results;
    try (FuzzingServer server = FuzzingServer.start(options);
        WebSocketClient client = WebSocketClient.builder().config(config).build()) {
      results = server.drive(agent, (base, name) -> drive(client, base, name));
    }
    Verdicts.assertRanTheCatalogue(results, false);
    assertThat(Path.of("target", "conformance", agent, "index.html")).exists();
    Verdicts.assertNoneFailed(agent, results);
    // permessage-deflate parameters, window bits included: every offer is honoured.
    Verdicts.assertGroupAllOk(agent, results, 13);
  }

  /** The reference suite's driver protocol, with our client. */
  private static void drive(WebSocketClient client, URI base, String agent) throws Exception {
    WebSocket counter = client.open(base.resolve("/getCaseCount"));
    Message count = counter.receive(Duration.ofSeconds(10));
    counter.closeFuture().get(10, TimeUnit.SECONDS);
    int cases = Integer.parseInt(((Message.Text) count).text());
    for (int i = 1; i <= cases; i++) {
      URI run = base.resolve("/runCase?case=" + i + "&agent=" + agent);
      WebSocket ws = client.connect(run, ONE_SHOT_ECHO).get(10, TimeUnit.SECONDS);
      ws.closeFuture().get(60, TimeUnit.SECONDS);
    }
    client.open(base.resolve("/updateReports?agent=" + agent)).closeFuture()
        .get(10, TimeUnit.SECONDS);
  }
}
