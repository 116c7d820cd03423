package dev.wsjava.conformance;

import dev.wsjava.protocol.Role;
import java.time.Duration;

/**
 * The endpoint under test, as a case script sees it: a socket to write raw bytes and frames to,
 * and a record of what came back. Frames with {@link Frame.Mask#ROLE} are masked when the suite is
 * the client and not when it is the server, so one script serves both runners.
 *
 * <p>Sends never throw: once the peer has closed, or a write failed, further sends are skipped
 * (and noted in the frame log), since the judge looks at what the peer did, not at what the suite
 * could still write. Waits are bounded by the case's deadline. Used by one script thread.
 */
public interface Peer {

  /**
   * Returns the suite's role on this connection.
   *
   * @return CLIENT when the suite tests a server
   */
  Role role();

  /**
   * Returns the permessage-deflate agreed in the handshake.
   *
   * @return the codec, or {@code null} when none was agreed
   */
  Compression deflate();

  /**
   * Sends a frame in one write.
   *
   * @param frame the frame
   */
  void send(Frame frame);

  /**
   * Sends a frame in pieces of {@code chop} bytes, pausing between them.
   *
   * @param frame the frame
   * @param chop bytes per write, at least 1
   * @param pause the pause between writes (zero for none)
   */
  void send(Frame frame, int chop, Duration pause);

  /**
   * Returns the bytes {@link #send(Frame)} would write, with a fresh masking key when masked.
   *
   * @param frame the frame
   * @return the wire bytes
   */
  byte[] encode(Frame frame);

  /**
   * Writes raw bytes in one write.
   *
   * @param bytes the bytes
   * @param what what they are, for the frame log
   */
  void sendRaw(byte[] bytes, String what);

  /**
   * Writes raw bytes in pieces, pausing between them.
   *
   * @param bytes the bytes
   * @param chop bytes per write
   * @param pause the pause between writes
   * @param what what they are, for the frame log
   */
  void sendRaw(byte[] bytes, int chop, Duration pause, String what);

  /**
   * Waits until the peer has sent {@code count} data messages in all, or has closed, or the
   * deadline passed.
   *
   * @param count the number of messages
   * @return true when that many arrived
   * @throws InterruptedException when interrupted
   */
  boolean awaitMessages(int count) throws InterruptedException;

  /**
   * Waits until the peer has sent {@code count} pongs in all, or has closed, or the deadline
   * passed.
   *
   * @param count the number of pongs
   * @return true when that many arrived
   * @throws InterruptedException when interrupted
   */
  boolean awaitPongs(int count) throws InterruptedException;

  /**
   * Waits until the peer has sent a pong with this payload, or has closed, or the deadline passed.
   *
   * @param payload the ping's payload
   * @return true when that pong arrived
   * @throws InterruptedException when interrupted
   */
  boolean awaitPong(byte[] payload) throws InterruptedException;

  /**
   * Gives a strict peer time to fail the connection: waits up to the suite's fail-fast wait.
   * When the peer has not failed by then, notes that the rest of the message goes out now, so
   * that failing later is judged NON-STRICT for a case that {@link Expect#failingFast() fails fast}.
   *
   * @return true when the peer has failed (closed or dropped) and the script may stop
   * @throws InterruptedException when interrupted
   */
  boolean checkpoint() throws InterruptedException;

  /**
   * Pauses the script.
   *
   * @param d how long
   * @throws InterruptedException when interrupted
   */
  void pause(Duration d) throws InterruptedException;

  /**
   * Returns whether the peer has sent a close frame or closed TCP.
   *
   * @return true once it has
   */
  boolean closed();
}
