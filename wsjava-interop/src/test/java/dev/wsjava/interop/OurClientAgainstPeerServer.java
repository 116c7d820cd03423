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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
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

  /**
   * Whether the peer (rightly: RFC 7692 section 5 lets a server decline any offer) declines our
   * offer, so that no extension is negotiated.
   */
  boolean peerDeclines(OurOffer ours, PeerServer.Deflate peers) {
    return false;
  }

  /** Starts the peer's server with its permessage-deflate extension configured so. */
  abstract PeerServer startPeer(PeerServer.Deflate deflate, SelfSigned certOrNull) throws Exception;

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
    return connect(t, tls, ourDeflate ? PerMessageDeflate.defaults() : null,
        peerDeflate ? PeerServer.Deflate.ON : PeerServer.Deflate.OFF, rec);
  }

  WebSocket connect(Transport t, boolean tls, PerMessageDeflate ours, PeerServer.Deflate peers,
      Recorder rec) throws Exception {
    peer = startPeer(peers, tls ? cert : null);
    WebSocketConfig config = WebSocketConfig.builder().transport(t).deflate(ours).build();
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

  /** What our client asks for in its permessage-deflate offer. */
  enum OurOffer {
    DEFAULTS(PerMessageDeflate.defaults()),
    SERVER_NO_CONTEXT_TAKEOVER(PerMessageDeflate.builder().serverNoContextTakeover(true).build()),
    CLIENT_NO_CONTEXT_TAKEOVER(PerMessageDeflate.builder().clientNoContextTakeover(true).build()),
    // Neither peer, as configured here, compresses with a window below 15 bits: it must decline
    // this first offer and accept our plain fallback offer.
    SERVER_MAX_WINDOW_BITS_10(PerMessageDeflate.builder().serverMaxWindowBits(10).build());

    final PerMessageDeflate config;

    OurOffer(PerMessageDeflate config) {
      this.config = config;
    }
  }

  record Agreement(Transport transport, OurOffer ours, PeerServer.Deflate peers) {
    @Override
    public String toString() {
      return transport + " we offer " + ours + ", peer " + peers;
    }
  }

  static Stream<Agreement> agreements() {
    List<Agreement> out = new ArrayList<>();
    for (Transport t : Interop.TRANSPORTS) {
      for (OurOffer o : OurOffer.values()) {
        for (PeerServer.Deflate p : List.of(PeerServer.Deflate.ON, PeerServer.Deflate.DEMAND_CLIENT_NO_CONTEXT_TAKEOVER)) {
          out.add(new Agreement(t, o, p));
        }
      }
    }
    return out.stream();
  }

  /**
   * Repeated messages are where context takeover shows: with it, the second copy compresses to a
   * few back-references into the first; without it (when either side's no_context_takeover was
   * agreed), such a reference would be a protocol error on the receiving side. Every agreement
   * must still carry every message intact, both ways.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("agreements")
  void repeatedMessagesSurviveEveryDeflateAgreement(Agreement a) throws Exception {
    Recorder rec = new Recorder();
    WebSocket ws = connect(a.transport(), false, a.ours().config, a.peers(), rec);
    assertThat(ws.extensions())
        .isEqualTo(peerDeclines(a.ours(), a.peers()) ? List.of() : List.of("permessage-deflate"));
    echoRepeatedMessagesAndClose(ws, rec);
  }

  /** Three rounds of the same text and binary message, each echoed intact, then a close. */
  static void echoRepeatedMessagesAndClose(WebSocket ws, Recorder rec) throws Exception {
    String text = Interop.compressibleText(20_000) + Interop.text(3_000);
    byte[] binary = Interop.utf8(text);
    for (int round = 0; round < 3; round++) {
      ws.sendText(text).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
      Interop.assertSameBytes(Interop.utf8(rec.nextText()), binary, "text, round " + round);
      ws.sendBinary(binary).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
      Interop.assertSameBytes(rec.nextBinary(), binary, "binary, round " + round);
    }
    assertThat(rec.errors).isEmpty();
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
    // Not waiting on this send's future: it races with the peer's close (see
    // aSendThePeerActedOnIsNeverReportedFailed); the close code is what this test is about.
    ws.sendText("!close 4001 bye from the peer");
    assertThat(rec.closed.get(Interop.WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("4001 bye from the peer");
    ws.closeFuture().get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(ws.isOpen()).isFalse();
    // We answered the peer's close with its code (RFC 6455 section 5.5.1).
    assertThat(peer.closesSeen().poll(Interop.WAIT_SECONDS, TimeUnit.SECONDS)).startsWith("4001");
    assertThat(rec.errors).isEmpty();
  }

  /**
   * A send whose bytes were written (the peer received the message and acted on it by closing)
   * must complete normally: WebSocket's send futures are "completed when written".
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("plainSetups")
  void aSendThePeerActedOnIsNeverReportedFailed(Setup s) throws Exception {
    peer = startPeer(s.deflate() ? PeerServer.Deflate.ON : PeerServer.Deflate.OFF, null);
    client = WebSocketClient.builder()
        .config(WebSocketConfig.builder().transport(s.transport())
            .deflate(s.deflate() ? PerMessageDeflate.defaults() : null).build())
        .build();
    int failed = 0;
    for (int round = 0; round < 200; round++) {
      Recorder rec = new Recorder();
      WebSocket ws = client.connect(peer.echoUri(), rec).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
      try {
        ws.sendText("!close 4001 bye").get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        failed++;
      }
      ws.closeFuture().get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    }
    assertThat(failed).as("sends reported failed out of 200, though the peer acted on each").isZero();
  }

  /**
   * RFC 6455 section 5.5: a close frame's reason is at most 123 bytes of valid UTF-8; close()
   * promises to cut a longer one at a character boundary. 100 two-byte chars must arrive as 61.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("plainSetups")
  void aLongCloseReasonReachesThePeerCutAtACharacterBoundary(Setup s) throws Exception {
    Recorder rec = new Recorder();
    WebSocket ws = connect(s, rec);
    ws.close(4003, "é".repeat(100)).get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(peer.closesSeen().poll(Interop.WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("4003 " + "é".repeat(61));
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
