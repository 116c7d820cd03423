package dev.wsjava.transport.nio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The byte stream of one socket as the connection sees it: plain TCP, or TLS over it. Reads give
 * application bytes, writes take application bytes. Used on the owning loop's thread only.
 */
abstract class Io {
  final SocketChannel channel;

  Io(SocketChannel channel) {
    this.channel = channel;
  }

  /**
   * Drives the TLS handshake as far as the socket allows; plain TCP has none.
   *
   * @return true once the handshake is complete
   * @throws IOException when it fails or the peer hangs up
   */
  abstract boolean handshake() throws IOException;

  /**
   * Reads application bytes into {@code dst}.
   *
   * @param dst at least {@link #minReadBuffer()} bytes free
   * @return bytes read, 0 when none are available now, -1 at the end of the stream
   * @throws IOException on a socket or TLS error
   */
  abstract int read(ByteBuffer dst) throws IOException;

  /**
   * Writes application bytes, gathering from several buffers; advances their positions.
   *
   * @param srcs the buffers
   * @param offset the first to use
   * @param length how many to use
   * @return application bytes taken (for TLS: encrypted, possibly still pending in {@link
   *     #hasPendingOutput()})
   * @throws IOException on a socket or TLS error
   */
  abstract long write(ByteBuffer[] srcs, int offset, int length) throws IOException;

  /**
   * Writes bytes that the TLS layer holds (handshake records, encrypted data).
   *
   * @return true when nothing is left pending
   * @throws IOException on a socket error
   */
  abstract boolean flush() throws IOException;

  /**
   * Returns whether {@link #write} may be called from any thread (one at a time, under the
   * connection's lock) while the loop thread reads: true for plain TCP, whose channel allows it;
   * false for TLS, whose engine state belongs to the loop.
   *
   * @return true when senders may write their own bytes
   */
  boolean writesFromAnyThread() {
    return false;
  }

  /**
   * Returns whether bytes wait for the socket to take them.
   *
   * @return true while output is pending
   */
  abstract boolean hasPendingOutput();

  /**
   * Returns whether bytes already read from the socket wait to be returned by {@link #read}, so
   * that the caller must read again without waiting for the selector.
   *
   * @return true while input is buffered
   */
  abstract boolean hasBufferedInput();

  /**
   * Returns the least free space {@link #read} needs in its buffer.
   *
   * @return bytes; 0 for plain TCP
   */
  abstract int minReadBuffer();

  /**
   * Returns the negotiated TLS protocol.
   *
   * @return for example {@code TLSv1.3}; null for plain TCP
   */
  abstract String protocol();

  /**
   * Returns the TLS session, for the application to see the peer's certificates and the server name
   * it asked for.
   *
   * @return the session, or null without TLS
   */
  javax.net.ssl.SSLSession session() {
    return null;
  }

  /**
   * Closes the socket; TLS first sends close_notify if the socket takes it at once. Idempotent;
   * gives back every pooled buffer.
   */
  abstract void close();
}
