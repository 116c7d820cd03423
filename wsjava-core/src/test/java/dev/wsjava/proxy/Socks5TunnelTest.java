package dev.wsjava.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.proxy.ProxySpec.Kind;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class Socks5TunnelTest {
  static final ProxySpec ANONYMOUS = new ProxySpec(Kind.SOCKS5, "127.0.0.1", 1080, null, null);
  static final ProxySpec ALADDIN =
      new ProxySpec(Kind.SOCKS5, "127.0.0.1", 1080, "Aladdin", "open sesame");

  static ByteBuffer hex(String h) {
    return ByteBuffer.wrap(HexFormat.of().parseHex(h.replace(" ", "")));
  }

  static String hexOf(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.duplicate().get(a);
    return HexFormat.of().formatHex(a);
  }

  /** Takes the tunnel's output, as a transport would write it. */
  static String sent(Tunnel t) {
    String h = hexOf(t.output());
    t.output().position(t.output().limit());
    return h;
  }

  @Test
  void offersOnlyNoAuthenticationWithoutCredentials() {
    assertThat(sent(ANONYMOUS.open("echo.example", 443))).isEqualTo("050100");
  }

  @Test
  void offersUsernamePasswordToo() {
    assertThat(sent(ALADDIN.open("echo.example", 443))).isEqualTo("05020002");
  }

  @Test
  void connectsToAHostNameThatTheProxyResolves() throws Exception {
    Tunnel t = ANONYMOUS.open("echo.example", 443);
    sent(t);
    assertThat(t.receive(hex("05 00"))).isEqualTo(Tunnel.Step.NEED_MORE);
    // VER CMD RSV ATYP=3 LEN "echo.example" PORT=443
    assertThat(sent(t)).isEqualTo("05010003" + "0c" + "6563686f2e6578616d706c65" + "01bb");
  }

  @Test
  void connectsToAnIpv4Literal() throws Exception {
    Tunnel t = ANONYMOUS.open("127.0.0.1", 8080);
    sent(t);
    t.receive(hex("05 00"));
    assertThat(sent(t)).isEqualTo("05010001" + "7f000001" + "1f90");
  }

  @Test
  void connectsToAnIpv6Literal() throws Exception {
    Tunnel t = ANONYMOUS.open("::1", 80);
    sent(t);
    t.receive(hex("05 00"));
    assertThat(sent(t)).isEqualTo("05010004" + "00".repeat(15) + "01" + "0050");
  }

  @Test
  void aNameThatOnlyLooksLikeAnAddressGoesAsAName() throws Exception {
    Tunnel t = ANONYMOUS.open("1.2.3", 80);
    sent(t);
    t.receive(hex("05 00"));
    assertThat(sent(t)).isEqualTo("05010003" + "05" + "312e322e33" + "0050");
  }

  @Test
  void aSuccessReplyOpensTheTunnelAndLeavesTheServersBytes() throws Exception {
    Tunnel t = ANONYMOUS.open("echo.example", 80);
    sent(t);
    t.receive(hex("05 00"));
    sent(t);
    ByteBuffer in = hex("05 00 00 01 0a 00 00 01 c3 50" + "8102 6869");
    assertThat(t.receive(in)).isEqualTo(Tunnel.Step.DONE);
    assertThat(hexOf(in)).isEqualTo("81026869");
  }

  @Test
  void readsABoundDomainOrIpv6AddressToItsLastByte() throws Exception {
    for (String reply :
        new String[] {"05 00 00 03 03 616263 0050", "05 00 00 04" + " 00".repeat(16) + " 0050"}) {
      Tunnel t = ANONYMOUS.open("echo.example", 80);
      t.receive(hex("05 00"));
      ByteBuffer in = hex(reply + " ff");
      assertThat(t.receive(in)).isEqualTo(Tunnel.Step.DONE);
      assertThat(hexOf(in)).isEqualTo("ff");
    }
  }

  @Test
  void authenticatesWithUsernameAndPassword() throws Exception {
    Tunnel t = ALADDIN.open("echo.example", 80);
    sent(t);
    assertThat(t.receive(hex("05 02"))).isEqualTo(Tunnel.Step.NEED_MORE);
    // RFC 1929: VER=1 ULEN "Aladdin" PLEN "open sesame"
    assertThat(sent(t)).isEqualTo("01" + "07" + "416c616464696e" + "0b" + "6f70656e20736573616d65");
    assertThat(t.receive(hex("01 00"))).isEqualTo(Tunnel.Step.NEED_MORE);
    assertThat(sent(t)).startsWith("05010003");
    assertThat(t.receive(hex("05 00 00 01 00000000 0000"))).isEqualTo(Tunnel.Step.DONE);
  }

  @Test
  void aProxyMayWaiveAuthenticationOfferedWithCredentials() throws Exception {
    Tunnel t = ALADDIN.open("echo.example", 80);
    sent(t);
    t.receive(hex("05 00"));
    assertThat(sent(t)).startsWith("05010003");
  }

  @Test
  void rejectedCredentialsNameTheUserButNeverThePassword() throws Exception {
    Tunnel t = ALADDIN.open("echo.example", 80);
    t.receive(hex("05 02"));
    assertThatThrownBy(() -> t.receive(hex("01 01")))
        .isInstanceOf(TunnelException.class)
        .hasMessage(
            "proxy socks5://Aladdin:***@127.0.0.1:1080 rejected the username/password of user"
                + " 'Aladdin' (RFC 1929 status 1)");
  }

  @Test
  void noAcceptableMethodSaysWhatWasOffered() {
    Tunnel t = ANONYMOUS.open("echo.example", 80);
    assertThatThrownBy(() -> t.receive(hex("05 ff")))
        .isInstanceOf(TunnelException.class)
        .hasMessageContaining("accepts none of the authentication methods offered (no authentication;");
  }

  @Test
  void aMethodThatWasNotOfferedFails() {
    Tunnel t = ANONYMOUS.open("echo.example", 80);
    assertThatThrownBy(() -> t.receive(hex("05 02")))
        .isInstanceOf(TunnelException.class)
        .hasMessageContaining("chose authentication method 0x02, which was not offered");
  }

  @Test
  void anotherProtocolIsNotMistakenForSocks5() {
    Tunnel t = ANONYMOUS.open("echo.example", 80);
    assertThatThrownBy(() -> t.receive(hex("48 54"))) // "HT" of an HTTP answer
        .isInstanceOf(TunnelException.class)
        .hasMessageContaining("is not a SOCKS5 proxy: its method selection has version 72");
  }

  @ParameterizedTest(name = "reply {0}: {1}")
  @CsvSource({
    "1, general SOCKS server failure",
    "2, connection not allowed by ruleset",
    "3, network unreachable",
    "4, host unreachable",
    "5, connection refused",
    "6, TTL expired",
    "7, command not supported",
    "8, address type not supported",
    "9, unassigned reply code 0x09",
    "255, unassigned reply code 0xFF"
  })
  void everyReplyCodeIsReportedWithItsMeaning(int code, String meaning) throws Exception {
    Tunnel t = ANONYMOUS.open("echo.example", 443);
    t.receive(hex("05 00"));
    ByteBuffer reply = hex("05" + String.format("%02x", code) + "00 01 00000000 0000");
    assertThatThrownBy(() -> t.receive(reply))
        .isInstanceOf(TunnelException.class)
        .hasMessage(
            "proxy socks5://127.0.0.1:1080 refused CONNECT echo.example:443: reply "
                + code
                + " ("
                + meaning
                + ")");
  }

  @Test
  void anUnknownAddressTypeInTheReplyFails() throws Exception {
    Tunnel t = ANONYMOUS.open("echo.example", 80);
    t.receive(hex("05 00"));
    assertThatThrownBy(() -> t.receive(hex("05 00 00 07 00")))
        .isInstanceOf(TunnelException.class)
        .hasMessageContaining("unknown address type 0x07");
  }

  @Test
  void anEndOfStreamNamesTheStageItCameIn() throws Exception {
    Tunnel t = ALADDIN.open("echo.example", 80);
    assertThat(t.endOfStream()).hasMessageEndingWith("before answering the method selection");
    t.receive(hex("05 02"));
    assertThat(t.endOfStream()).hasMessageEndingWith("before answering the username/password check");
    t.receive(hex("01 00"));
    assertThat(t.endOfStream()).hasMessageEndingWith("before answering CONNECT echo.example:80");
  }

  @Test
  void aHostNameLongerThanTheFieldIsRefusedUpFront() {
    String name = "a".repeat(256);
    assertThatThrownBy(() -> ANONYMOUS.open(name, 80))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most 255 bytes");
  }

  @ParameterizedTest
  @MethodSource("dev.wsjava.protocol.Seeds#fewer")
  void theConversationMayArriveInPiecesOfAnySize(long seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    // method: user/password; auth ok; CONNECT reply with a domain; then two bytes of the server.
    byte[] all = HexFormat.of().parseHex("0502" + "0100" + "050000030474657374" + "1f90" + "abcd");
    Tunnel t = ALADDIN.open("echo.example", 8080);
    int at = 0;
    ByteBuffer piece = null;
    Tunnel.Step step = Tunnel.Step.NEED_MORE;
    while (step == Tunnel.Step.NEED_MORE) {
      sent(t);
      int n = 1 + random.nextInt(Math.min(5, all.length - at));
      piece = ByteBuffer.wrap(all, at, n);
      at += n;
      step = t.receive(piece);
      if (step == Tunnel.Step.NEED_MORE) {
        assertThat(piece.hasRemaining()).isFalse();
      }
    }
    assertThat(hexOf(piece) + HexFormat.of().formatHex(all, at, all.length)).isEqualTo("abcd");
  }
}
