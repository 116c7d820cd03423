package dev.wsjava.interop;

/** Our client against a Netty 4.2 WebSocket server. */
class OurClientAgainstNettyTest extends OurClientAgainstPeerServer {
  @Override
  PeerServer startPeer(boolean deflate, SelfSigned certOrNull) throws Exception {
    return NettyPeer.start(deflate, certOrNull);
  }
}
