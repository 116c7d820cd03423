package dev.wsjava.internal.http;

import static dev.wsjava.internal.http.HttpConnectionTest.GET;
import static dev.wsjava.internal.http.HttpConnectionTest.HELLO;
import static dev.wsjava.internal.http.HttpWire.buffer;
import static dev.wsjava.internal.http.HttpWire.bytes;
import static dev.wsjava.internal.http.HttpWire.concat;
import static dev.wsjava.internal.http.HttpWire.drain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.handshake.ServerHandshakeConfig;
import dev.wsjava.protocol.Hex;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** WebSocket routes: the hand-over to a session, and the answers to refused upgrades. */
class HttpConnectionUpgradeTest {

  /** The client handshake of RFC 6455 §1.2, to the {@code /chat} route. */
  static final String UPGRADE =
      "GET /chat HTTP/1.1\r\n"
          + "Host: server.example.com\r\n"
          + "Upgrade: websocket\r\n"
          + "Connection: Upgrade\r\n"
          + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
          + "Origin: http://example.com\r\n"
          + "Sec-WebSocket-Version: 13\r\n"
          + "\r\n";

  /** The server handshake of RFC 6455 §1.3 for that key. */
  static final String SWITCHING =
      "HTTP/1.1 101 Switching Protocols\r\n"
          + "Upgrade: websocket\r\n"
          + "Connection: Upgrade\r\n"
          + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"
          + "\r\n";

  /** A masked text frame "Hello" the client sends right after its request (RFC 6455 §5.7). */
  static final String FRAME = "81 85 37 fa 21 3d 7f 9f 4d 51 58";

  private final HttpConnection<String> c =
      new HttpConnection<>(HttpConnectionTest.ROUTER, HttpLimits.defaults(), 0);

  @Test
  void anUpgradeFollowedByAFrameInOneBufferHandsTheFrameOver() {
    ByteBuffer in = ByteBuffer.wrap(concat(bytes(UPGRADE), Hex.bytes(FRAME)));
    WebSocketUpgrade<String> up = c.receive(in, 0);
    assertThat(up).isNotNull();
    assertThat(up.route()).isEqualTo("chat-route");
    assertThat(Hex.of(up.received())).isEqualTo(FRAME);
    assertThat(up.handshake().request().target()).isEqualTo("/chat");
    assertThat(in.hasRemaining()).as("the frame moved into the upgrade").isFalse();
    assertThat(drain(c)).isEqualTo(SWITCHING);
    assertThat(c.upgrade()).isSameAs(up);
    assertThat(c.shouldClose()).isFalse();
    assertThat(c.deadlineNanos()).isEqualTo(Long.MAX_VALUE);
    assertThatThrownBy(() -> c.receive(buffer("x"), 0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("WebSocket session");
  }

  @Test
  void everySplitPointOfUpgradeAndFrameGivesTheSameHandOver() {
    byte[] wire = concat(bytes(UPGRADE), Hex.bytes(FRAME));
    for (int split = 0; split <= wire.length; split++) {
      HttpConnection<String> conn =
          new HttpConnection<>(HttpConnectionTest.ROUTER, HttpLimits.defaults(), 0);
      WebSocketUpgrade<String> up = conn.receive(ByteBuffer.wrap(wire, 0, split).slice(), 0);
      ByteBuffer received;
      if (up == null) {
        assertThat(split).as("no upgrade before the head ends").isLessThan(UPGRADE.length());
        up = conn.receive(ByteBuffer.wrap(wire, split, wire.length - split).slice(), 0);
        received = up.received();
      } else {
        // The rest of the frame arrives later, straight for the session.
        received = ByteBuffer.wrap(concat(bytesOf(up.received()), tail(wire, split)));
      }
      assertThat(Hex.of(received)).as("split %d", split).isEqualTo(FRAME);
      assertThat(drain(conn)).as("split %d", split).isEqualTo(SWITCHING);
    }
  }

  @Test
  void anUpgradeAfterAPipelinedRequestIsAnsweredInOrder() {
    ByteBuffer in = ByteBuffer.wrap(concat(bytes(GET + UPGRADE), Hex.bytes(FRAME)));
    WebSocketUpgrade<String> up = c.receive(in, 0);
    assertThat(Hex.of(up.received())).isEqualTo(FRAME);
    assertThat(drain(c)).isEqualTo(HELLO + SWITCHING);
  }

  @Test
  void aPlainGetToAWebSocketRouteIs426AsTheHandshakeDecides() {
    c.receive(buffer("GET /chat HTTP/1.1\r\nHost: a\r\n\r\n" + GET), 0);
    assertThat(drain(c))
        .isEqualTo(
            "HTTP/1.1 426 Upgrade Required\r\n"
                + "Upgrade: websocket\r\n"
                + "Connection: Upgrade, close\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 21\r\n"
                + "\r\n"
                + "426 Upgrade Required\n");
    assertThat(c.shouldClose()).isTrue();
    assertThat(c.upgrade()).isNull();
  }

  @Test
  void anUpgradeWithoutKeyIs400AndCloses() {
    String noKey = UPGRADE.replace("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", "");
    c.receive(ByteBuffer.wrap(concat(bytes(noKey), Hex.bytes(FRAME))), 0);
    assertThat(drain(c))
        .isEqualTo(
            "HTTP/1.1 400 Bad Request\r\n"
                + "Connection: close\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 16\r\n"
                + "\r\n"
                + "400 Bad Request\n");
    assertThat(c.shouldClose()).isTrue();
    assertThat(c.closeReason()).contains("Sec-WebSocket-Key");
  }

  @Test
  void anUpgradeOfAnotherVersionIs426NamingVersion13() {
    c.receive(buffer(UPGRADE.replace("Version: 13", "Version: 8")), 0);
    assertThat(drain(c))
        .startsWith(
            "HTTP/1.1 426 Upgrade Required\r\n"
                + "Sec-WebSocket-Version: 13\r\n"
                + "Connection: close\r\n");
  }

  @Test
  void anotherMethodOnAWebSocketRouteIs405AllowingGet() {
    c.receive(buffer(UPGRADE.replace("GET /chat", "POST /chat")), 0);
    assertThat(drain(c)).startsWith("HTTP/1.1 405 Method Not Allowed\r\nAllow: GET\r\n");
  }

  @Test
  void aRoutesOwnHandshakeConfigurationDecides() {
    ServerHandshakeConfig onlyOurs =
        ServerHandshakeConfig.defaults().withOriginPolicy("https://ours.example"::equals);
    Router<String> router =
        Router.<String>builder()
            .websocket("/chat", "strict", onlyOurs)
            .websocket("/open", "open")
            .build();
    HttpConnection<String> strict = new HttpConnection<>(router, HttpLimits.defaults(), 0);
    assertThat(strict.receive(buffer(UPGRADE), 0)).isNull();
    assertThat(drain(strict)).startsWith("HTTP/1.1 403 Forbidden\r\nConnection: close\r\n");

    HttpConnection<String> open = new HttpConnection<>(router, HttpLimits.defaults(), 0);
    assertThat(open.receive(buffer(UPGRADE.replace("/chat", "/open")), 0).route())
        .isEqualTo("open");
  }

  @Test
  void theRoutersDefaultHandshakeChoosesTheSubprotocol() {
    Router<String> router =
        Router.<String>builder()
            .websocket("/chat", "chat")
            .handshake(
                ServerHandshakeConfig.defaults()
                    .withSubprotocolSelector(offers -> offers.contains("v2") ? "v2" : null))
            .build();
    HttpConnection<String> conn = new HttpConnection<>(router, HttpLimits.defaults(), 0);
    String offer = UPGRADE.replace("\r\n\r\n", "\r\nSec-WebSocket-Protocol: v1, v2\r\n\r\n");
    WebSocketUpgrade<String> up = conn.receive(buffer(offer), 0);
    assertThat(up.handshake().subprotocol()).isEqualTo("v2");
    assertThat(up.received().hasRemaining()).isFalse();
    assertThat(drain(conn)).contains("\r\nSec-WebSocket-Protocol: v2\r\n");
  }

  @Test
  void aThrowingHandshakeHookIs500() {
    Router<String> router =
        Router.<String>builder()
            .websocket(
                "/chat",
                "chat",
                ServerHandshakeConfig.defaults()
                    .withOriginPolicy(
                        origin -> {
                          throw new IllegalStateException("policy store down");
                        }))
            .build();
    HttpConnection<String> conn = new HttpConnection<>(router, HttpLimits.defaults(), 0);
    assertThat(conn.receive(buffer(UPGRADE), 0)).isNull();
    assertThat(drain(conn))
        .startsWith("HTTP/1.1 500 Internal Server Error\r\nConnection: close\r\n");
    assertThat(conn.handlerFailure()).hasMessage("policy store down");
  }

  @Test
  void anUpgradeHeaderOnAPlainRouteIsIgnored() {
    c.receive(buffer(UPGRADE.replace("/chat", "/")), 0);
    assertThat(drain(c)).isEqualTo(HELLO);
    assertThat(c.upgrade()).isNull();
    assertThat(c.shouldClose()).isFalse();
  }

  private static byte[] bytesOf(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.duplicate().get(a);
    return a;
  }

  private static byte[] tail(byte[] wire, int from) {
    byte[] a = new byte[wire.length - from];
    System.arraycopy(wire, from, a, 0, a.length);
    return a;
  }
}
