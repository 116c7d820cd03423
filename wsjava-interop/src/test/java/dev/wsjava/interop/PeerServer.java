package dev.wsjava.interop;

import java.net.URI;
import java.util.concurrent.BlockingQueue;

/**
 * A peer library's WebSocket server, started in a test on a free loopback port, serving {@code
 * /echo}: it echoes every text and binary message whole, except text commands that start with
 * {@code !} (our random texts never do):
 *
 * <ul>
 *   <li>{@code !close CODE REASON}: the peer starts the closing handshake with that code and reason;
 *   <li>{@code !frag A|B|C}: the peer sends the text {@code ABC} as three fragments;
 *   <li>{@code !ping DATA}: the peer pings with DATA and, when the pong comes, sends the text
 *       {@code !pong DATA} (the pong's payload, as it arrived).
 * </ul>
 *
 * Every close frame the peer receives is recorded as {@code "code reason"}.
 */
interface PeerServer {
  /** How the peer's server does permessage-deflate. */
  enum Deflate {
    /** No extension in its responses. */
    OFF,
    /** The library's defaults (server_no_context_takeover granted when asked). */
    ON,
    /** Its response demands client_no_context_takeover, and its inflater then resets per message. */
    DEMAND_CLIENT_NO_CONTEXT_TAKEOVER,
    /**
     * Windows below 15 bits (RFC 7692 §7.1.2): it limits the client to 2^9 bytes when the offer
     * allows, and compresses within the window the client asks for. Netty only (through JZlib).
     */
    SMALL_WINDOWS
  }

  int port();

  boolean tls();

  /** "code reason" of each close frame the peer's endpoint received, in order. */
  BlockingQueue<String> closesSeen();

  default URI echoUri() {
    return URI.create((tls() ? "wss" : "ws") + "://localhost:" + port() + "/echo");
  }

  /** Stops the server and its threads. */
  void stop() throws Exception;
}
