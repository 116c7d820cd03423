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
