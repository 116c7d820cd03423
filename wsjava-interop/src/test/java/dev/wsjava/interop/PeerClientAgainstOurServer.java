package dev.wsjava.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Transport;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A peer library's client against our server ({@link OurServer}): the behaviours every client
 * shares; a subclass connects its library and adds what only that library can do.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS) // the parameter sources ask the subclass
abstract class PeerClientAgainstOurServer {
  OurServer server;
  PeerClient client;

  /**
   * Connects the peer's client.
   *
   * @param deflate whether the client offers permessage-deflate (one of {@link #clientDeflate()})
   * @param subprotocols offered, in order; empty for none
   */
  abstract PeerClient connect(URI uri, boolean deflate, List<String> subprotocols) throws Exception;

  /** The deflate choices the library has: offered, not offered, or both. */
  abstract List<Boolean> clientDeflate();

  /**
   * Whether the client always sends its close frame before it closes TCP. A client that does not
   * may leave our server with no close frame, which our server must then report as 1006.
   */
  boolean alwaysAnswersClose() {
    return true;
  }

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.abort();
      client = null;
    }
    if (server != null) {
      server.stop();
      server = null;
    }
  }

  record Setup(Transport transport, boolean serverDeflate, boolean clientDeflate) {
    boolean deflate() {
      return serverDeflate && clientDeflate;
    }

    @Override
    public String toString() {
      return transport + " server " + (serverDeflate ? "deflate" : "plain") + ", client "
          + (clientDeflate ? "deflate" : "plain");
    }
  }

  /** Every transport x server deflate on/off x the client's deflate choices. */
  Stream<Setup> setups() {
    List<Setup> out = new ArrayList<>();
    for (Transport t : Interop.TRANSPORTS) {
      for (boolean server : new boolean[] {false, true}) {
        for (boolean client : clientDeflate()) {
          out.add(new Setup(t, server, client));
        }
      }
    }
    return out.stream();
  }

  /** Deflate on both sides where the client can, else off: for the tests that are not about it. */
  Stream<Setup> usualSetups() {
    boolean client = clientDeflate().contains(true);
    return Interop.TRANSPORTS.stream().map(t -> new Setup(t, client, client));
  }

  PeerClient open(Setup s) throws Exception {
    return open(s, List.of());
  }

  PeerClient open(Setup s, List<String> subprotocols) throws Exception {
    server = OurServer.start(s.transport(), s.serverDeflate());
    client = connect(server.echoUri(), s.clientDeflate(), subprotocols);
    return client;
  }

  /** What our server says it negotiated ("subprotocol=... extensions=[...]"). */
  String serverView(PeerClient c) throws Exception {
    c.sendText("!info");
    return c.inbox().nextText();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("usualSetups")
  void everyPayloadLengthClassEchoesByteForByte(Setup s) throws Exception {
    PeerClient c = open(s);
    for (int n : Interop.SIZES) {
      byte[] data = Interop.binary(n);
      c.sendBinary(data);
      Interop.assertSameBytes(c.inbox().nextBinary(), data, "binary of %d bytes".formatted(n));

      String text = Interop.text(n);
      c.sendText(text);
      Interop.assertSameBytes(Interop.utf8(c.inbox().nextText()), Interop.utf8(text), "text of %d bytes".formatted(n));
    }
    String big = Interop.compressibleText(1 << 20);
    c.sendText(big);
    Interop.assertSameBytes(Interop.utf8(c.inbox().nextText()), Interop.utf8(big), "text");
    c.sendBinary(Interop.utf8(big));
    Interop.assertSameBytes(c.inbox().nextBinary(), Interop.utf8(big), "binary");
    assertThat(c.inbox().errors).isEmpty();
    assertThat(server.errors).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void permessageDeflateIsNegotiatedExactlyWhenBothSidesEnableIt(Setup s) throws Exception {
    PeerClient c = open(s);
    String expected = s.deflate() ? "[permessage-deflate]" : "[]";
    assertThat(serverView(c)).isEqualTo("subprotocol=null extensions=" + expected);
    if (c.deflateNegotiated() != null) {
      assertThat(c.deflateNegotiated()).as("the client's view").isEqualTo(s.deflate());
    }
    String text = Interop.compressibleText(100_000);
    c.sendText(text);
    Interop.assertSameBytes(Interop.utf8(c.inbox().nextText()), Interop.utf8(text), "text");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("usualSetups")
  void subprotocolNegotiationPicksTheOneTheServerSupports(Setup s) throws Exception {
    PeerClient c = open(s, List.of("chat.v1", OurServer.SUBPROTOCOL));
    assertThat(c.subprotocol()).isEqualTo(OurServer.SUBPROTOCOL);
    assertThat(serverView(c)).startsWith("subprotocol=" + OurServer.SUBPROTOCOL + " ");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("usualSetups")
  void noSubprotocolIsChosenWhenTheClientOffersNone(Setup s) throws Exception {
    PeerClient c = open(s);
    assertThat(c.subprotocol()).isNull();
    assertThat(serverView(c)).startsWith("subprotocol=null ");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("usualSetups")
  void ourServersPingGetsTheClientsAutomaticPong(Setup s) throws Exception {
    PeerClient c = open(s);
    c.sendText("!ping hello from wsjava");
    assertThat(c.inbox().nextText()).isEqualTo("!pong hello from wsjava");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("usualSetups")
  void ourServersCloseCodeAndReasonReachTheClient(Setup s) throws Exception {
    PeerClient c = open(s);
    c.sendText("!close 4001 bye from wsjava");
    assertThat(c.inbox().closed.get(Interop.WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("4001 bye from wsjava");
    // The client answered with the same code, and our server's side of the handshake completed;
    // a client that dropped its answer must be reported as an abnormal end, nothing else.
    String seen = server.closesSeen.poll(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    if (alwaysAnswersClose() || !seen.startsWith("1006")) {
      assertThat(seen).startsWith("4001");
    }
    assertThat(server.errors).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("usualSetups")
  void clientsCloseCodeAndReasonReachOurServer(Setup s) throws Exception {
    PeerClient c = open(s);
    c.close(4002, "bye from the peer");
    // A client that may drop its own close frame leaves our server with none: 1006, nothing else.
    String seen = server.closesSeen.poll(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    if (alwaysAnswersClose() || !seen.equals("1006 ")) {
      assertThat(seen).isEqualTo("4002 bye from the peer");
    }
    assertThat(c.inbox().closed.get(Interop.WAIT_SECONDS, TimeUnit.SECONDS)).startsWith("4002");
    assertThat(server.errors).isEmpty();
  }
}
