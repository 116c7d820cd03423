package dev.wsjava.internal.proxyprotocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The examples and limits of haproxy's proxy-protocol.txt, byte for byte. */
class ProxyHeaderTest {
  private static ByteBuffer ascii(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
  }

  private static ByteBuffer hex(String s) {
    return ByteBuffer.wrap(HexFormat.of().parseHex(s.replace(" ", "")));
  }

  private static final String V2_SIG = "0d0a0d0a000d0a515549540a";

  @Test
  void v1Tcp4ExampleOfTheSpec() throws Exception {
    ByteBuffer in = ascii("PROXY TCP4 192.168.0.1 192.168.0.11 56324 443\r\nGET / HTTP/1.1\r\n");
    ProxyHeader h = ProxyHeader.parse(in);
    assertThat(h.version()).isEqualTo(1);
    assertThat(h.source()).isEqualTo(new InetSocketAddress("192.168.0.1", 56324));
    assertThat(h.destination()).isEqualTo(new InetSocketAddress("192.168.0.11", 443));
    assertThat(StandardCharsets.US_ASCII.decode(in).toString()).isEqualTo("GET / HTTP/1.1\r\n");
  }

  @Test
  void v1WorstCaseTcp4Tcp6AndUnknownFitIn107Bytes() throws Exception {
    String f = "ffff:".repeat(7) + "ffff";
    String tcp4 = "PROXY TCP4 255.255.255.255 255.255.255.255 65535 65535\r\n";
    String tcp6 = "PROXY TCP6 " + f + " " + f + " 65535 65535\r\n";
    String unknown = "PROXY UNKNOWN " + f + " " + f + " 65535 65535\r\n";
    assertThat(tcp6).hasSize(104);
    assertThat(unknown).hasSize(ProxyHeader.V1_MAX);
    assertThat(ProxyHeader.parse(ascii(tcp4)).source().getPort()).isEqualTo(65535);
    ProxyHeader six = ProxyHeader.parse(ascii(tcp6));
    assertThat(six.source().getAddress().getHostAddress())
        .isEqualTo("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff");
    ByteBuffer in = ascii(unknown);
    assertThat(ProxyHeader.parse(in).source()).isNull(); // the connection's own addresses
    assertThat(in.hasRemaining()).isFalse();
    assertThat(ProxyHeader.parse(ascii("PROXY UNKNOWN\r\n")).source()).isNull();
  }

  @Test
  void needMoreConsumesNothingAtEveryCut() throws Exception {
    byte[] whole =
        "PROXY TCP6 2001:db8::1 2001:db8::2 4711 443\r\n".getBytes(StandardCharsets.US_ASCII);
    for (int cut = 0; cut < whole.length; cut++) {
      ByteBuffer in = ByteBuffer.wrap(whole, 0, cut);
      assertThat(ProxyHeader.parse(in)).as("cut at " + cut).isNull();
      assertThat(in.position()).isZero();
    }
    byte[] v2 = HexFormat.of().parseHex(V2_SIG + "2111000c" + "7f000005" + "7f000001" + "d431" + "01bb");
    for (int cut = 0; cut < v2.length; cut++) {
      ByteBuffer in = ByteBuffer.wrap(v2, 0, cut);
      assertThat(ProxyHeader.parse(in)).as("v2 cut at " + cut).isNull();
      assertThat(in.position()).isZero();
    }
  }

  @Test
  void v1WithoutCrlfWithin107BytesIsRefused() {
    String line = "PROXY UNKNOWN " + "x".repeat(100);
    assertThatThrownBy(() -> ProxyHeader.parse(ascii(line)))
        .isInstanceOf(ProxyHeaderException.class)
        .hasMessageContaining("107");
  }

  @Test
  void malformedV1LinesAreRefused() {
    for (String bad :
        new String[] {
          "PROXY TCP4 192.168.0.1 192.168.0.11 56324\r\n", // a field short
          "PROXY TCP4 192.168.0.1 192.168.0.11 56324 65536\r\n", // port too large
          "PROXY TCP4 256.1.1.1 192.168.0.11 1 2\r\n",
          "PROXY TCP4 2001:db8::1 192.168.0.11 1 2\r\n", // IPv6 in TCP4
          "PROXY TCP6 192.168.0.1 2001:db8::2 1 2\r\n", // IPv4 in TCP6
          "PROXY TCP6 example.com 2001:db8::2 1 2\r\n", // never looked up
          "PROXY TCP4  192.168.0.1 192.168.0.11 1 2\r\n", // two spaces
          "PROXY UDP4 192.168.0.1 192.168.0.11 1 2\r\n",
          "PROXY TCP4 192.168.0.1 192.168.0.11 1 2\rX",
          "PROXY TCP4 192.168.0.1\t192.168.0.11 1 2\r\n",
        }) {
      assertThatThrownBy(() -> ProxyHeader.parse(ascii(bad)))
          .as(bad)
          .isInstanceOf(ProxyHeaderException.class);
    }
  }

  @Test
  void plainHttpOrTlsIsRefusedOnItsFirstBytes() {
    assertThatThrownBy(() -> ProxyHeader.parse(ascii("GET / HTTP/1.1\r\n")))
        .isInstanceOf(ProxyHeaderException.class);
    assertThatThrownBy(() -> ProxyHeader.parse(hex("16030100"))) // a TLS ClientHello record
        .isInstanceOf(ProxyHeaderException.class);
    assertThatThrownBy(() -> ProxyHeader.parse(ascii("PRI * HTTP/2.0")))
        .isInstanceOf(ProxyHeaderException.class);
    assertThatThrownBy(() -> ProxyHeader.parse(hex("0d0a0d0a01")))
        .isInstanceOf(ProxyHeaderException.class);
  }

  @Test
  void v2ProxyTcpOverIpv4() throws Exception {
    ByteBuffer in =
        hex(V2_SIG + "21" // version 2, PROXY
            + "11" // AF_INET, STREAM
            + "000c" // 12 bytes follow
            + "7f000005 7f000001" // 127.0.0.5 -> 127.0.0.1
            + "d431 01bb" // 54321 -> 443
            + "47455420"); // "GET " after the header
    ProxyHeader h = ProxyHeader.parse(in);
    assertThat(h.version()).isEqualTo(2);
    assertThat(h.source()).isEqualTo(new InetSocketAddress("127.0.0.5", 54321));
    assertThat(h.destination()).isEqualTo(new InetSocketAddress("127.0.0.1", 443));
    assertThat(in.remaining()).isEqualTo(4);
  }

  @Test
  void v2ProxyTcpOverIpv6WithTlvs() throws Exception {
    ByteBuffer in =
        hex(V2_SIG + "21" + "21" // AF_INET6, STREAM
            + "0033" // 36 + 15 bytes of TLVs
            + "20010db8000000000000000000000001" + "20010db8000000000000000000000002"
            + "1267" + "01bb"
            + "01 0002 6832" // PP2_TYPE_ALPN "h2"
            + "04 0004 00000000" // PP2_TYPE_NOOP
            + "05 0000"); // PP2_TYPE_UNIQUE_ID, empty
    ProxyHeader h = ProxyHeader.parse(in);
    assertThat(h.source()).isEqualTo(new InetSocketAddress("2001:db8::1", 4711));
    assertThat(in.hasRemaining()).isFalse();
  }

  @Test
  void v2LocalIsTheBalancersOwnConnection() throws Exception {
    ByteBuffer in = hex(V2_SIG + "20" + "00" + "0000");
    ProxyHeader h = ProxyHeader.parse(in);
    assertThat(h.source()).isNull();
    assertThat(in.hasRemaining()).isFalse();
    // LOCAL with an address block: skipped, still the connection's own addresses
    assertThat(ProxyHeader.parse(hex(V2_SIG + "20" + "11" + "000c" + "00".repeat(12))).source())
        .isNull();
  }

  @Test
  void v2UnspecifiedAndUnixFamiliesUseTheConnectionsAddresses() throws Exception {
    assertThat(ProxyHeader.parse(hex(V2_SIG + "21" + "00" + "0000")).source()).isNull();
    assertThat(ProxyHeader.parse(hex(V2_SIG + "21" + "31" + "00d8" + "00".repeat(216))).source())
        .isNull();
    assertThat(ProxyHeader.parse(hex(V2_SIG + "21" + "12" + "000c" + "00".repeat(12))).source())
        .as("UDP over IPv4").isNull();
  }

  @Test
  void malformedV2HeadersAreRefused() {
    for (String bad :
        new String[] {
          V2_SIG + "11" + "11" + "000c" + "00".repeat(12), // version 1 in a v2 signature
          V2_SIG + "22" + "11" + "000c" + "00".repeat(12), // command 2
          V2_SIG + "21" + "41" + "0000", // family 4
          V2_SIG + "21" + "13" + "000c" + "00".repeat(12), // transport 3
          V2_SIG + "21" + "11" + "000b" + "00".repeat(11), // too short for IPv4
          V2_SIG + "21" + "21" + "000c" + "00".repeat(12), // too short for IPv6
          V2_SIG + "21" + "11" + "000e" + "00".repeat(14), // a TLV cut short
          V2_SIG + "21" + "11" + "0010" + "00".repeat(12) + "010005ff", // a TLV past the end
          V2_SIG + "21" + "11" + "0ff1", // 16 + 4081 > 4096
        }) {
      assertThatThrownBy(() -> ProxyHeader.parse(hex(bad)))
          .as(bad)
          .isInstanceOf(ProxyHeaderException.class);
    }
  }

  @Test
  void v2AtTheBoundIsAccepted() throws Exception {
    int tlv = ProxyHeader.V2_MAX - 16 - 12 - 3;
    ByteBuffer in =
        hex(V2_SIG + "21" + "11" + String.format("%04x", ProxyHeader.V2_MAX - 16)
            + "7f000005 7f000001 d431 01bb"
            + "04" + String.format("%04x", tlv) + "00".repeat(tlv));
    assertThat(ProxyHeader.parse(in).source().getPort()).isEqualTo(54321);
  }
}
