package dev.wsjava.interop;

/** Our client against a Jetty 12.1 WebSocket server. */
class OurClientAgainstJettyTest extends OurClientAgainstPeerServer {
  @Override
  PeerServer startPeer(PeerServer.Deflate deflate, SelfSigned certOrNull) throws Exception {
    return JettyPeer.start(deflate, certOrNull);
  }
}
