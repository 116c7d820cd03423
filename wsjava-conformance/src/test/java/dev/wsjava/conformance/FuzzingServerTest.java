package dev.wsjava.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Message;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The fuzzing server's protocol beyond runCase, and its command line. */
class FuzzingServerTest {

  private static String ask(WebSocketClient client, FuzzingServer server, String path)
      throws Exception {
    WebSocket ws = client.open(server.base().resolve(path));
    Message m = ws.receive(Duration.ofSeconds(5));
    ws.closeFuture().get(5, TimeUnit.SECONDS);
    return ((Message.Text) m).text();
  }

  @Test
  void answersCaseCountInfoAndStatus() throws Exception {
    WebSocketConfig noDeflate = WebSocketConfig.builder().deflate(null).build();
    try (FuzzingServer server = FuzzingServer.start(
            FuzzingServer.Options.loopback().cases("2.1", "2.2", "13.1.1"));
        WebSocketClient client = WebSocketClient.builder().config(noDeflate).build()) {
      assertThat(ask(client, server, "/getCaseCount")).isEqualTo("3");
      assertThat(ask(client, server, "/getCaseInfo?case=2"))
          .isEqualTo("{\"id\":\"2.2\",\"description\":\"Send a ping with a short text payload.\"}");
      assertThat(ask(client, server, "/getCaseStatus?case=1&agent=t"))
          .isEqualTo("{\"behavior\":\"UNKNOWN\"}");
      // A client without deflate: case 3 (13.1.1) cannot run and says why.
      client.open(server.base().resolve("/runCase?case=3&agent=t")).closeFuture()
          .get(5, TimeUnit.SECONDS);
      List<Result> results = server.results("t");
      assertThat(results).singleElement().satisfies(r -> {
        assertThat(r.id()).isEqualTo("13.1.1");
        assertThat(r.verdict()).isEqualTo(Verdict.UNIMPLEMENTED);
        assertThat(r.reason()).isEqualTo("the client offered no permessage-deflate");
      });
      assertThat(ask(client, server, "/getCaseStatus?case=3&agent=t"))
          .isEqualTo("{\"behavior\":\"UNIMPLEMENTED\"}");
    }
  }

  @Test
  void refusesWhatIsNotAWebSocketUpgrade() throws Exception {
    try (FuzzingServer server = FuzzingServer.start(FuzzingServer.Options.loopback());
        Socket s = new Socket("127.0.0.1", server.port())) {
      OutputStream out = s.getOutputStream();
      out.write("GET /getCaseCount HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      InputStream in = s.getInputStream();
      s.setSoTimeout(5000);
      assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII))
          .startsWith("HTTP/1.1 400 Bad Request");
    }
  }

  @Test
  void aCommandLineItCannotUnderstandExitsWithTwo() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    PrintStream o = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    assertThat(FuzzingServer.run(new String[] {"--port", "x"}, o, e)).isEqualTo(2);
    assertThat(FuzzingServer.run(new String[] {"--url", "ws://a"}, o, e)).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--port needs a number", "usage:");
    assertThat(FuzzingServer.run(new String[] {"--help"}, o, e)).isZero();
  }
}
