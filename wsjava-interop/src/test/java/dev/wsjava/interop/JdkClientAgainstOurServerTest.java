package dev.wsjava.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The JDK's java.net.http.WebSocket client against our server. It has no permessage-deflate. */
class JdkClientAgainstOurServerTest extends PeerClientAgainstOurServer {
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterAll
  void closeHttpClient() {
    http.shutdownNow();
  }

  @Override
  List<Boolean> clientDeflate() {
    return List.of(false);
  }

  @Override
  PeerClient connect(URI uri, boolean deflate, List<String> subprotocols) throws Exception {
    Jdk c = new Jdk();
    WebSocket.Builder b = http.newWebSocketBuilder();
    if (!subprotocols.isEmpty()) {
      b.subprotocols(subprotocols.get(0), subprotocols.subList(1, subprotocols.size()).toArray(String[]::new));
    }
    c.ws = b.buildAsync(uri, c).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    return c;
  }

  /** The JDK client and its listener; every send waits for the previous one, as the JDK requires. */
  static final class Jdk implements PeerClient, WebSocket.Listener {
    final Recorder inbox = new Recorder();
    final StringBuilder text = new StringBuilder();
    final ByteArrayOutputStream binary = new ByteArrayOutputStream();
    volatile WebSocket ws;

    @Override
    public Recorder inbox() {
      return inbox;
    }

    @Override
    public void sendText(String s) throws Exception {
      ws.sendText(s, true).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    }

    void sendText(String part, boolean last) throws Exception {
      ws.sendText(part, last).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public void sendBinary(byte[] data) throws Exception {
      ws.sendBinary(ByteBuffer.wrap(data), true).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    }

    void sendBinary(ByteBuffer part, boolean last) throws Exception {
      ws.sendBinary(part, last).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    }

    void sendPing(String data) throws Exception {
      ws.sendPing(ByteBuffer.wrap(Interop.utf8(data))).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public void close(int code, String reason) throws Exception {
      ws.sendClose(code, reason).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public String subprotocol() {
      return ws.getSubprotocol().isEmpty() ? null : ws.getSubprotocol();
    }

    @Override
    public Boolean deflateNegotiated() {
      return false; // the JDK client never offers an extension
    }

    @Override
    public void abort() {
      if (ws != null) {
        ws.abort();
      }
    }

    @Override
    public void onOpen(WebSocket webSocket) {
      webSocket.request(1);
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      text.append(data);
      if (last) {
        inbox.messages.add(text.toString());
        text.setLength(0);
      }
      webSocket.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
      byte[] b = new byte[data.remaining()];
      data.get(b);
      binary.writeBytes(b);
      if (last) {
        inbox.messages.add(binary.toByteArray());
        binary.reset();
      }
      webSocket.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onPong(WebSocket webSocket, ByteBuffer message) {
      inbox.pongs.add(StandardCharsets.UTF_8.decode(message).toString());
      webSocket.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onPing(WebSocket webSocket, ByteBuffer message) {
      webSocket.request(1); // the JDK sends the pong itself
      return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
      inbox.closed.complete(statusCode + " " + reason);
      return null; // the JDK then answers with the same code
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
      inbox.errors.add(error);
      inbox.closed.completeExceptionally(error);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("usualSetups")
  void jdkFragmentedSendsArriveAsOneMessage(Setup s) throws Exception {
    Jdk c = (Jdk) open(s);
    // Each part whole code points: the JDK refuses a part that ends in a lone surrogate (its
    // sendText fails with "Malformed text message") rather than carrying it to the next part.
    c.sendText("Hél", false);
    c.sendText("lo, wörld € ", false);
    c.sendText("\uD83D\uDE00!", true);
    assertThat(c.inbox().nextText()).isEqualTo("Héllo, wörld € \uD83D\uDE00!");

    byte[] data = Interop.binary(200_000);
    c.sendBinary(ByteBuffer.wrap(data, 0, 70_000), false);
    c.sendBinary(ByteBuffer.wrap(data, 70_000, 0), false);
    c.sendBinary(ByteBuffer.wrap(data, 70_000, 130_000), true);
    Interop.assertSameBytes(c.inbox().nextBinary(), data, "binary");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("usualSetups")
  void jdkPingGetsOurPongWithTheSameData(Setup s) throws Exception {
    Jdk c = (Jdk) open(s);
    c.sendPing("are you there?");
    assertThat(c.inbox().nextPong()).isEqualTo("are you there?");
    c.sendPing("x".repeat(125));
    assertThat(c.inbox().nextPong()).isEqualTo("x".repeat(125));
  }
}
