package dev.wsjava.jakarta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Message;
import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import jakarta.websocket.OnMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Blocking sends from {@code @OnMessage} never wait on their own connection's I/O thread (§2.1.4;
 * Tomcat and Jetty do not deadlock here either): a callback that sends far more than the socket
 * buffers hold, whole and in parts, through the basic remote returns, and every byte arrives in
 * order, on both transports.
 */
@Timeout(60)
class BlockingSendInCallbackTest {
  private static final int MIB = 1 << 20;

  @ServerEndpoint("/burst")
  public static class Burst {
    @OnMessage
    public String burst(String count, Session session) throws IOException {
      int n = Integer.parseInt(count);
      for (int i = 0; i < n; i++) {
        session.getBasicRemote().sendText(String.valueOf((char) ('a' + i % 26)).repeat(MIB));
        ByteBuffer half = ByteBuffer.allocate(MIB / 2);
        session.getBasicRemote().sendBinary(half, false);
        session.getBasicRemote().sendBinary(half.rewind().put(0, (byte) i), true);
      }
      return "done " + n;
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void blockingSendsOfMegabytesFromACallbackReturnAndAllArrive(Transport t) throws Exception {
    int n = 12;
    try (JakartaServer server = JakartaServer.builder()
            .bind("127.0.0.1", 0)
            .config(WebSocketConfig.builder().transport(t).build())
            .endpoint(Burst.class)
            .start();
        WebSocketClient client = WebSocketClient.builder().build()) {
      WebSocket ws = client.open(URI.create("ws://127.0.0.1:" + server.port() + "/burst"));
      ws.sendText(Integer.toString(n));
      for (int i = 0; i < n; i++) {
        Message text = ws.receive(Duration.ofSeconds(30));
        assertThat(text).isInstanceOf(Message.Text.class);
        String s = ((Message.Text) text).text();
        assertThat(s).hasSize(MIB).startsWith(String.valueOf((char) ('a' + i % 26)));
        Message binary = ws.receive(Duration.ofSeconds(30));
        assertThat(binary).isInstanceOf(Message.Binary.class);
        ByteBuffer b = ((Message.Binary) binary).data();
        assertThat(b.remaining()).isEqualTo(MIB);
        assertThat(b.get(b.position() + MIB / 2)).isEqualTo((byte) i);
      }
      Message done = ws.receive(Duration.ofSeconds(30));
      assertThat(done).isInstanceOf(Message.Text.class);
      assertThat(((Message.Text) done).text()).isEqualTo("done " + n);
      ws.close();
    }
  }
}
