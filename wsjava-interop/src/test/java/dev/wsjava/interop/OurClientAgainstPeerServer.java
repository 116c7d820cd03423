package dev.wsjava.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.TlsContexts;
import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.extension.PerMessageDeflate;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our client against a peer library's server (see {@link PeerServer}): the same behaviours for
 * every peer; a subclass only starts the peer.
 */
abstract class OurClientAgainstPeerServer {
  @TempDir static Path dir;
  static SelfSigned cert;
  static SSLContext clientTls;

  PeerServer peer;
  WebSocketClient client;

  @BeforeAll
  static void certificates() throws Exception {
    cert = SelfSigned.create(dir);
    clientTls = TlsContexts.trusting(cert.certPem());
  }

  /** Starts the peer's server with its permessage-deflate extension on or off. */
  abstract PeerServer startPeer(boolean deflate, SelfSigned certOrNull) throws Exception;

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (peer != null) {
      peer.stop();
    }
  }

  /** Deflate is on (or off) on both sides here; {@link Negotiation} mixes them. */
  record Setup(Transport transport, boolean tls, boolean deflate) {
    @Override
    public String toString() {
      return transport + (tls ? " wss" : " ws") + (deflate ? " deflate" : " no-deflate");
    }
  }

  record Negotiation(Transport transport, boolean ours, boolean peers) {
    @Override
    public String toString() {
      return transport + " ours " + (ours ? "deflate" : "plain") + ", peer's " + (peers ? "deflate" : "plain");
    }
  }

  static Stream<Setup> setups() {
    List<Setup> out = new ArrayList<>();
    for (Transport t : Interop.TRANSPORTS) {
      for (boolean tls : new boolean[] {false, true}) {
        for (boolean deflate : new boolean[] {false, true}) {
          out.add(new Setup(t, tls, deflate));
        }
      }
    }
    return out.stream();
  }

  static Stream<Setup> plainSetups() {
    return setups().filter(s -> !s.tls());
  }

  static Stream<Negotiation> negotiations() {
    List<Negotiation> out = new ArrayList<>();
    for (Transport t : Interop.TRANSPORTS) {
      for (boolean ours : new boolean[] {false, true}) {
        for (boolean peers : new boolean[] {false, true}) {
          out.add(new Negotiation(t, ours, peers));
        }
      }
    }
    return out.stream();
  }

  WebSocket connect(Transport t, boolean tls, boolean ourDeflate, boolean peerDeflate, Recorder rec)
      throws Exception {
    peer = startPeer(peerDeflate, tls ? cert : null);
    WebSocketConfig config =
        WebSocketConfig.builder()
            .transport(t)
            .deflate(ourDeflate ? PerMessageDeflate.defaults() : null)
            .build();
    WebSocketClient.Builder b = WebSocketClient.builder().config(config);
    if (tls) {
      b.tls(clientTls);
    }
    client = b.build();
    return client.connect(peer.echoUri(), rec).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
  }

  WebSocket connect(Setup s, Recorder rec) throws Exception {
    return connect(s.transport(), s.tls(), s.deflate(), s.deflate(), rec);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void everyPayloadLengthClassEchoesByteForByte(Setup s) throws Exception {
    Recorder rec = new Recorder();
    WebSocket ws = connect(s, rec);
    for (int n : Interop.SIZES) {
      byte[] data = Interop.binary(n);
      ws.sendBinary(data).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
      Interop.assertSameBytes(rec.nextBinary(), data, "binary of %d bytes".formatted(n));

      String text = Interop.text(n);
      ws.sendText(text).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
      Interop.assertSameBytes(Interop.utf8(rec.nextText()), Interop.utf8(text), "text of %d bytes".formatted(n));
    }
    // Highly compressible data exercises the inflater's window across many deflate blocks.
    String big = Interop.compressibleText(1 << 20);
    ws.sendText(big).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    Interop.assertSameBytes(Interop.utf8(rec.nextText()), Interop.utf8(big), "text");
    ws.sendBinary(Interop.utf8(big)).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    Interop.assertSameBytes(rec.nextBinary(), Interop.utf8(big), "binary");
    assertThat(rec.errors).isEmpty();
    ws.close().get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("negotiations")
  void extensionsShowPermessageDeflateExactlyWhenBothSidesEnableIt(Negotiation n) throws Exception {
    Recorder rec = new Recorder();
    WebSocket ws = connect(n.transport(), false, n.ours(), n.peers(), rec);
    assertThat(ws.extensions())
        .isEqualTo(n.ours() && n.peers() ? List.of("permessage-deflate") : List.of());
    // Whatever was negotiated, both directions still carry messages intact.
    String text = Interop.compressibleText(100_000);
    ws.sendText(text).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    Interop.assertSameBytes(Interop.utf8(rec.nextText()), Interop.utf8(text), "text");
    ws.close().get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("plainSetups")
  void ourFragmentedSendsArriveAsOneMessage(Setup s) throws Exception {
    Recorder rec = new Recorder();
    WebSocket ws = connect(s, rec);
    // Fragments cut inside multi-byte UTF-8 sequences' neighbourhood, each part whole code points.
    ws.sendText("Hél", false);
    ws.sendText("lo, wörld ", false);
    ws.sendText("€\uD83D\uDE00!", true).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(rec.nextText()).isEqualTo("Héllo, wörld €\uD83D\uDE00!");

    byte[] data = Interop.binary(200_000);
    ws.sendBinary(ByteBuffer.wrap(data, 0, 70_000), false);
    ws.sendBinary(ByteBuffer.wrap(data, 70_000, 0), false); // an empty middle fragment is legal
    ws.sendBinary(ByteBuffer.wrap(data, 70_000, 130_000), true).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    Interop.assertSameBytes(rec.nextBinary(), data, "binary");
    ws.close().get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
  }

  /**
   * WebSocket.sendText(part, last) says "a code point may be split between fragments only as whole
   * UTF-16 chars": a surrogate pair split between two parts must still arrive as its one code point
   * (RFC 6455 section 5.6: the message, not each fragment, is UTF-8).
   */
  @Disabled("wsjava bug: WebSocketImpl.sendText(part, last) UTF-8-encodes each part on its own with"
      + " Charset.encode, which REPLACES a lone surrogate by '?': U+1F600 split as \\uD83D|\\uDE00"
      + " arrives as \"??\" (Jetty and Netty both receive 0x3F 0x3F). Enable once fixed.")
  @ParameterizedTest(name = "{0}")
  @MethodSource("plainSetups")
  void ourTextFragmentsMaySplitASurrogatePair(Setup s) throws Exception {
    Recorder rec = new Recorder();
    WebSocket ws = connect(s, rec);
    ws.sendText("smile \uD83D", false);
    ws.sendText("\uDE00!", true).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(rec.nextText()).isEqualTo("smile \uD83D\uDE00!");
    ws.close().get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("plainSetups")
  void peersFragmentedMessageArrivesWhole(Setup s) throws Exception {
    Recorder rec = new Recorder();
    WebSocket ws = connect(s, rec);
    ws.sendText("!frag Hél|lo, wö|rld €").get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(rec.nextText()).isEqualTo("Héllo, wörld €");
    ws.close().get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void ourPingGetsThePeersPongWithTheSameData(Setup s) throws Exception {
    Recorder rec = new Recorder();
    WebSocket ws = connect(s, rec);
    ws.sendPing(ByteBuffer.wrap(Interop.utf8("are you there?"))).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(rec.nextPong()).isEqualTo("are you there?");
    byte[] max = new byte[125];
    Arrays.fill(max, (byte) 'x');
    ws.sendPing(ByteBuffer.wrap(max)).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(rec.nextPong()).isEqualTo("x".repeat(125));
    ws.close().get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void peersPingGetsOurAutomaticPong(Setup s) throws Exception {
    Recorder rec = new Recorder();
    WebSocket ws = connect(s, rec);
    ws.sendText("!ping hello from the peer").get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(rec.nextText()).isEqualTo("!pong hello from the peer");
    ws.close().get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void peersCloseCodeAndReasonReachUs(Setup s) throws Exception {
    Recorder rec = new Recorder();
    WebSocket ws = connect(s, rec);
    ws.sendText("!close 4001 bye from the peer").get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(rec.closed.get(Interop.WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("4001 bye from the peer");
    ws.closeFuture().get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(ws.isOpen()).isFalse();
    // We answered the peer's close with its code (RFC 6455 section 5.5.1).
    assertThat(peer.closesSeen().poll(Interop.WAIT_SECONDS, TimeUnit.SECONDS)).startsWith("4001");
    assertThat(rec.errors).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void ourCloseCodeAndReasonReachThePeer(Setup s) throws Exception {
    Recorder rec = new Recorder();
    WebSocket ws = connect(s, rec);
    ws.close(4002, "bye from wsjava").get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(peer.closesSeen().poll(Interop.WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("4002 bye from wsjava");
    assertThat(rec.closed.get(Interop.WAIT_SECONDS, TimeUnit.SECONDS)).startsWith("4002");
    assertThat(rec.errors).isEmpty();
  }
}
