package dev.wsjava.interop;

/**
 * A peer library's WebSocket client connected to {@link OurServer}; what it receives goes to its
 * {@link Recorder} (messages whole, pongs, and its close as "code reason").
 */
interface PeerClient {
  Recorder inbox();

  void sendText(String text) throws Exception;

  void sendBinary(byte[] data) throws Exception;

  /** Starts the closing handshake with this code and reason. */
  void close(int code, String reason) throws Exception;

  /** The subprotocol the client says was chosen, or null for none. */
  String subprotocol();

  /**
   * Whether the client says permessage-deflate was negotiated, or null where the library does not
   * tell.
   */
  Boolean deflateNegotiated();

  /** Drops the connection (test clean-up). */
  void abort();
}
