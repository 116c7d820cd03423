package dev.wsjava.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.proxy.ProxySpec.Kind;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class HttpConnectTunnelTest {
  static final ProxySpec PLAIN = new ProxySpec(Kind.HTTP, "proxy.test", 3128, null, null);
  static final ProxySpec ALADDIN =
      new ProxySpec(Kind.HTTP, "proxy.test", 3128, "Aladdin", "open sesame");

  static ByteBuffer ascii(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
  }

  static String text(ByteBuffer b) {
    return StandardCharsets.ISO_8859_1.decode(b.duplicate()).toString();
  }

  @Test
  void sendsConnectWithTheAuthorityAndHost() {
    Tunnel t = PLAIN.open("echo.example", 443);
    assertThat(text(t.output()))
        .isEqualTo("CONNECT echo.example:443 HTTP/1.1\r\nHost: echo.example:443\r\n\r\n");
  }

  @Test
  void bracketsAnIpv6Target() {
    Tunnel t = PLAIN.open("2001:db8::1", 80);
    assertThat(text(t.output())).startsWith("CONNECT [2001:db8::1]:80 HTTP/1.1\r\nHost: [2001:db8::1]:80\r\n");
  }

  @Test
  void sendsBasicCredentialsAsRfc7617Shows() {
    // RFC 7617 §2: Aladdin / open sesame -> QWxhZGRpbjpvcGVuIHNlc2FtZQ==
    Tunnel t = ALADDIN.open("echo.example", 80);
    assertThat(text(t.output()))
        .contains("\r\nProxy-Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==\r\n");
  }

  @Test
  void encodesCredentialsAsUtf8() {
    // RFC 7617 §3: test / 123£ -> dGVzdDoxMjPCow==
    Tunnel t = new ProxySpec(Kind.HTTP, "p", 1, "test", "123\u00A3").open("h", 80);
    assertThat(text(t.output())).contains("Basic dGVzdDoxMjPCow==\r\n");
  }

  @Test
  void aTwoHundredOpensTheTunnelAndLeavesTheServersBytes() throws Exception {
    Tunnel t = PLAIN.open("echo.example", 80);
    ByteBuffer in = ascii("HTTP/1.0 200 Connection established\r\nProxy-agent: x\r\n\r\nHTTP/1.1 101");
    assertThat(t.receive(in)).isEqualTo(Tunnel.Step.DONE);
    assertThat(text(in)).isEqualTo("HTTP/1.1 101");
  }

  @Test
  void ignoresContentLengthOnASuccessfulConnect() throws Exception {
    // RFC 9110 §9.3.6: a client MUST ignore Content-Length in a 2xx answer to CONNECT.
    Tunnel t = PLAIN.open("echo.example", 80);
    ByteBuffer in = ascii("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabc");
    assertThat(t.receive(in)).isEqualTo(Tunnel.Step.DONE);
    assertThat(text(in)).isEqualTo("abc");
  }

  @Test
  void skipsAnInterimAnswer() throws Exception {
    Tunnel t = PLAIN.open("echo.example", 80);
    assertThat(t.receive(ascii("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n\r\n")))
        .isEqualTo(Tunnel.Step.DONE);
  }

  @Test
  void tooManyInterimAnswersFail() {
    Tunnel t = PLAIN.open("echo.example", 80);
    assertThatThrownBy(() -> t.receive(ascii("HTTP/1.1 100 Continue\r\n\r\n".repeat(5))))
        .isInstanceOf(TunnelException.class)
        .hasMessageContaining("interim");
  }

  @ParameterizedTest
  @MethodSource("dev.wsjava.protocol.Seeds#fewer")
  void theAnswerMayArriveInPiecesOfAnySize(long seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    byte[] all =
        "HTTP/1.1 200 Connection established\r\nVia: 1.1 proxy\r\n\r\n\u0081\u0002hi"
            .getBytes(StandardCharsets.ISO_8859_1);
    Tunnel t = PLAIN.open("echo.example", 80);
    int at = 0;
    Tunnel.Step step = Tunnel.Step.NEED_MORE;
    ByteBuffer piece = null;
    while (step == Tunnel.Step.NEED_MORE) {
      int n = 1 + random.nextInt(Math.min(12, all.length - at));
      piece = ByteBuffer.wrap(all, at, n);
      at += n;
      step = t.receive(piece);
      if (step == Tunnel.Step.NEED_MORE) {
        assertThat(piece.hasRemaining()).isFalse();
      }
    }
    byte[] rest = new byte[piece.remaining() + all.length - at];
    piece.get(rest, 0, piece.remaining());
    System.arraycopy(all, at, rest, rest.length - (all.length - at), all.length - at);
    assertThat(rest).containsExactly(0x81, 0x02, 'h', 'i');
  }

  @Test
  void a407IsQuotedWithAHintWhenNoCredentialsWereGiven() {
    Tunnel t = PLAIN.open("echo.example", 443);
    assertThatThrownBy(
            () ->
                t.receive(
                    ascii(
                        "HTTP/1.1 407 Proxy Authentication Required\r\n"
                            + "Proxy-Authenticate: Basic realm=\"x\"\r\n\r\n")))
        .isInstanceOf(TunnelException.class)
        .hasMessage(
            "proxy http://proxy.test:3128 refused CONNECT echo.example:443: 407 Proxy"
                + " Authentication Required (the proxy wants credentials: give them as"
                + " http://user:password@host:port)");
  }

  @Test
  void a407AfterCredentialsNamesTheUserButNeverThePassword() {
    Tunnel t = ALADDIN.open("echo.example", 443);
    assertThatThrownBy(() -> t.receive(ascii("HTTP/1.1 407 Proxy Authentication Required\r\n\r\n")))
        .isInstanceOf(TunnelException.class)
        .hasMessageContaining("407 Proxy Authentication Required")
        .hasMessageContaining("user 'Aladdin'")
        .hasMessageContaining("http://Aladdin:***@proxy.test:3128")
        .hasMessageNotContaining("sesame");
  }

  @Test
  void a401ToConnectAfterCredentialsIsTakenAsTheirRefusal() {
    // tinyproxy 1.11.1 answers wrong proxy credentials with 401 (its issue 532)
    Tunnel t = ALADDIN.open("echo.example", 443);
    assertThatThrownBy(() -> t.receive(ascii("HTTP/1.0 401 Unauthorized\r\n\r\n")))
        .hasMessageEndingWith(
            ": 401 Unauthorized (the proxy did not accept the credentials of user 'Aladdin')");
  }

  @Test
  void anyOtherRefusalQuotesItsStatusLine() {
    Tunnel t = PLAIN.open("echo.example", 25);
    assertThatThrownBy(() -> t.receive(ascii("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")))
        .isInstanceOf(TunnelException.class)
        .hasMessageEndingWith("refused CONNECT echo.example:25: 403 Forbidden");
  }

  @Test
  void aMalformedAnswerFails() {
    Tunnel t = PLAIN.open("echo.example", 80);
    assertThatThrownBy(() -> t.receive(ascii("SSH-2.0-OpenSSH_9.6\r\n\r\n")))
        .isInstanceOf(TunnelException.class)
        .hasMessageContaining("malformed answer to CONNECT echo.example:80");
  }

  @Test
  void anOversizeHeadFailsAtTheParsersLimit() {
    Tunnel t = PLAIN.open("echo.example", 80);
    String huge = "HTTP/1.1 200 OK\r\nX: " + "a".repeat(9000) + "\r\n\r\n";
    assertThatThrownBy(() -> t.receive(ascii(huge)))
        .isInstanceOf(TunnelException.class)
        .hasMessageContaining("malformed answer");
  }

  @Test
  void anEndOfStreamBeforeTheAnswerNamesTheStage() throws Exception {
    Tunnel t = PLAIN.open("echo.example", 80);
    assertThat(t.receive(ascii("HTTP/1.1 2"))).isEqualTo(Tunnel.Step.NEED_MORE);
    assertThat(t.endOfStream())
        .hasMessage(
            "proxy http://proxy.test:3128 closed the connection before answering CONNECT"
                + " echo.example:80");
  }

  @Test
  void receivingAfterTheAnswerIsABug() throws Exception {
    Tunnel t = PLAIN.open("echo.example", 80);
    t.receive(ascii("HTTP/1.1 200 OK\r\n\r\n"));
    assertThatThrownBy(() -> t.receive(ascii("x"))).isInstanceOf(IllegalStateException.class);
  }
}
