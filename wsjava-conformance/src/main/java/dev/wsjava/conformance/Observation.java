package dev.wsjava.conformance;

import java.util.List;

/**
 * What the suite saw of the peer during one case, as the {@link Judge} needs it.
 *
 * @param messages the data messages received, reassembled and decompressed, in order
 * @param pongs the pong payloads received, in order
 * @param violations what the peer sent that breaks RFC 6455 or RFC 7692, in words
 * @param peerCloseCode the code in the peer's close frame (1005 for none), or null without one
 * @param peerCloseReason the reason in the peer's close frame, or null
 * @param peerClosedFirst whether the peer's close frame came before the suite sent one
 * @param peerDropped whether the peer closed TCP (or reset it) without sending a close frame
 * @param failedLate whether the peer failed only after the suite had sent the rest of a message
 *     it could have refused earlier
 * @param timeout what the suite waited for in vain, or null
 * @param tcpLeftOpen whether a server kept TCP open after the closing handshake (§7.1.1 asks the
 *     server to close it first)
 * @param suiteCloseCode the code of the suite's first close frame (1005 for none), or null
 */
public record Observation(
    List<DataMessage> messages,
    List<byte[]> pongs,
    List<String> violations,
    Integer peerCloseCode,
    String peerCloseReason,
    boolean peerClosedFirst,
    boolean peerDropped,
    boolean failedLate,
    String timeout,
    boolean tcpLeftOpen,
    Integer suiteCloseCode) {

  /**
   * Copies the lists.
   *
   * @param messages see the record
   * @param pongs see the record
   * @param violations see the record
   * @param peerCloseCode see the record
   * @param peerCloseReason see the record
   * @param peerClosedFirst see the record
   * @param peerDropped see the record
   * @param failedLate see the record
   * @param timeout see the record
   * @param tcpLeftOpen see the record
   * @param suiteCloseCode see the record
   */
  public Observation {
    messages = List.copyOf(messages);
    pongs = List.copyOf(pongs);
    violations = List.copyOf(violations);
  }
}
