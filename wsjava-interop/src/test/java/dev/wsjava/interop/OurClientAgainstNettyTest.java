package dev.wsjava.interop;

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
}
