package dev.wsjava.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Transport;
import dev.wsjava.WebSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Our client against a Netty 4.2 WebSocket server. */
class OurClientAgainstNettyTest extends OurClientAgainstPeerServer {
  @Override
  PeerServer startPeer(PeerServer.Deflate deflate, SelfSigned certOrNull) throws Exception {
    return NettyPeer.start(deflate, certOrNull);
  }

  /**
   * Netty's default handshaker (WebSocketServerCompressionHandler) is built with
   * allowServerNoContext=false, so it declines an offer carrying server_no_context_takeover; the
   * demanding configuration allows it.
   */
  @Override
  boolean peerDeclines(OurOffer ours, PeerServer.Deflate peers) {
    return ours == OurOffer.SERVER_NO_CONTEXT_TAKEOVER && peers == PeerServer.Deflate.ON;
  }

  record Windows(Transport transport, OurOffer ours, String answer) {
    @Override
    public String toString() {
      return transport + " we offer " + ours + ", Netty answers " + answer;
    }
  }

  static Stream<Windows> windows() {
    List<Windows> out = new ArrayList<>();
    for (Transport t : Interop.TRANSPORTS) {
      out.add(new Windows(t, OurOffer.DEFAULTS, "permessage-deflate;client_max_window_bits=9"));
      out.add(new Windows(t, OurOffer.SERVER_MAX_WINDOW_BITS_10,
          "permessage-deflate;client_max_window_bits=9;server_max_window_bits=10"));
    }
    return out.stream();
  }

  /**
   * RFC 7692 §7.1.2 with a real peer: Netty limits our client's window to 2^9 bytes (our offer
   * allows it with a bare client_max_window_bits) and, asked for it, compresses within 2^10
   * itself through JZlib. Repeated messages, whose back-references reach into earlier ones, must
   * arrive intact both ways.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("windows")
  void windowsBelowFifteenBitsCarryEveryMessageBothWays(Windows w) throws Exception {
    Recorder rec = new Recorder();
    WebSocket ws = connect(w.transport(), false, w.ours().config, PeerServer.Deflate.SMALL_WINDOWS,
        rec);
    assertThat(ws.extensions()).containsExactly("permessage-deflate");
    assertThat(((NettyPeer) peer).extensionsAnswered())
        .map(a -> a.replace(" ", ""))
        .containsExactly(w.answer());
    echoRepeatedMessagesAndClose(ws, rec);
  }
}
