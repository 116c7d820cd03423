package dev.wsjava.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import dev.wsjava.extension.PerMessageDeflate;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The suite's contract check against wsjava servers that keep it and servers that break it. */
@Timeout(120)
class ContractTest {
  private static final Path PROBE = Path.of("src/main/scripts/tcp_nodelay.py");
  private static final long SELF = ProcessHandle.current().pid();

  private static WebSocketServer server(UnaryOperator<WebSocketConfig.Builder> config) throws Exception {
    return WebSocketServer.builder()
        .bind("127.0.0.1", 0)
        .config(config.apply(WebSocketConfig.builder().deflate(null)).build())
        .websocket("/echo", new WebSocketListener() {
          @Override
          public void onBinary(WebSocket ws, ByteBuffer data) {
            ws.sendBinary(data);
          }
        })
        .start();
  }

  @Test
  void aServerOfTheSuitesContractPassesEveryCheck() throws Exception {
    try (WebSocketServer server = server(b -> b)) {
      Contract.Verdict v = Contract.check(PROBE, "127.0.0.1", server.port(), SELF);
      assertThat(v.text()).isEqualTo("no deflate unless asked, TCP_NODELAY on, 16 MiB echoed,"
          + " 16 MiB + 1 refused (close 1009)");
      assertThat(v.passed()).isTrue();
    }
  }

  /**
   * A server that echoes each part as it arrives and stops reading while much of its echo is
   * unread (as the Jakarta targets' endpoint does on every container), with no limit of its own,
   * or refusing at the limit's byte.
   */
  private static WebSocketServer partEcho(long limit) throws Exception {
    return WebSocketServer.builder()
        .bind("127.0.0.1", 0)
        .config(WebSocketConfig.builder().deflate(null)
            .streamMessages(true).maxFramePayload(1L << 30).build())
        .websocket("/echo", new WebSocketListener() {
          private long received;

          @Override
          public void onMessagePart(WebSocket ws, boolean text, ByteBuffer part, boolean last) {
            received += part.remaining();
            if (received > limit) {
              ws.close(1009, "too big");
              return;
            }
            ws.sendBinary(part, last);
            if (ws.queuedBytes() > 1 << 20) {
              ws.pauseReadingUntilSent();
            }
            if (last) {
              received = 0;
            }
          }
        })
        .start();
  }

  @Test
  void aServerThatStreamsTheEchoAndRefusesAtTheLimitKeepsTheContract() throws Exception {
    try (WebSocketServer server = partEcho(Contract.MAX)) {
      Contract.Verdict v = Contract.check(PROBE, "127.0.0.1", server.port(), SELF);
      assertThat(v.text()).contains("16 MiB echoed, 16 MiB + 1 refused (close 1009, after streaming");
      assertThat(v.passed()).as(v.text()).isTrue();
    }
  }

  @Test
  void aStreamingEchoWithoutALimitFailsTheCheckInsteadOfHangingIt() throws Exception {
    try (WebSocketServer server = partEcho(Long.MAX_VALUE)) {
      Contract.Verdict v = Contract.check(PROBE, "127.0.0.1", server.port(), SELF);
      assertThat(v.passed()).isFalse();
      assertThat(v.text()).startsWith("**BROKEN: 16 MiB + 1 echoed: no limit**");
    }
  }

  @Test
  void nagleLeftOnIsReadFromTheServersOwnSocket() throws Exception {
    try (WebSocketServer server = server(b -> b.tcpNoDelay(false))) {
      Contract.Verdict v = Contract.check(PROBE, "127.0.0.1", server.port(), SELF);
      assertThat(v.passed()).isFalse();
      assertThat(v.text()).startsWith("**BROKEN: TCP_NODELAY off**");
    }
  }

  @Test
  void aSmallerMessageLimitFailsTheSixteenMebibyteEcho() throws Exception {
    try (WebSocketServer server = server(b -> b.maxMessageSize(1 << 20)
        .maxFramePayload(1 << 20))) {
      Contract.Verdict v = Contract.check(PROBE, "127.0.0.1", server.port(), SELF);
      assertThat(v.passed()).isFalse();
      assertThat(v.text()).contains("16 MiB: closed with 1009 after 0 bytes of the echo");
    }
  }

  @Test
  void deflateAnsweredToAClientThatOffersItBreaksTheContractOutsideScenarioSix() throws Exception {
    try (WebSocketServer server = server(b -> b.deflate(PerMessageDeflate.defaults()))) {
      Contract.Verdict v = Contract.check(PROBE, "127.0.0.1", server.port(), SELF);
      assertThat(v.text()).startsWith("**BROKEN: answered \"permessage-deflate");
    }
  }

  @Test
  void theProbeReadsBothEndsOfALoopbackConnectionInThisProcess() throws Exception {
    try (java.net.ServerSocket listener = new java.net.ServerSocket(0);
        Socket client = new Socket("127.0.0.1", listener.getLocalPort());
        Socket accepted = listener.accept()) {
      client.setTcpNoDelay(true);
      accepted.setTcpNoDelay(false);
      List<SocketProbe.Socket> found = SocketProbe.read(PROBE, SELF, listener.getLocalPort());
      assertThat(found).containsExactlyInAnyOrder(
          new SocketProbe.Socket(client.getLocalPort(), listener.getLocalPort(), true),
          new SocketProbe.Socket(listener.getLocalPort(), client.getLocalPort(), false));
    }
  }

  @Test
  void aProbeErrorIsReportedNotTakenForNoSocket() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> SocketProbe.parse("ERROR pidfd_getfd: Operation not permitted\n"))
        .isInstanceOf(IOException.class).hasMessageContaining("Operation not permitted");
  }
}
