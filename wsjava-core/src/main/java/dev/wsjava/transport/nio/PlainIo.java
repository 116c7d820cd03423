package dev.wsjava.transport.nio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Plain TCP: reads and writes go straight to the socket. Used while the handshake is read; an
 * open WebSocket connection uses its socket itself (see {@link NioConnection}) through the static
 * methods here, with no object of its own.
 */
final class PlainIo extends Io {

  PlainIo(SocketChannel channel) {
    super(channel);
  }

  @Override
  boolean writesFromAnyThread() {
    return true;
  }

  @Override
  boolean handshake() {
    return true;
  }

  @Override
  int read(ByteBuffer dst) throws IOException {
    return channel.read(dst);
  }

  @Override
  long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
    return write(channel, srcs, offset, length);
  }

  /** A gathering write, or a plain one for a single buffer (the JDK's cheaper path). */
  static long write(SocketChannel channel, ByteBuffer[] srcs, int offset, int length)
      throws IOException {
    return length == 1 ? channel.write(srcs[offset]) : channel.write(srcs, offset, length);
  }

  @Override
  boolean flush() {
    return true;
  }

  @Override
  boolean hasPendingOutput() {
    return false;
  }

  @Override
  boolean hasBufferedInput() {
    return false;
  }

  @Override
  int minReadBuffer() {
    return 0;
  }

  @Override
  String protocol() {
    return null;
  }

  @Override
  void close() {
    close(channel);
  }

  /** Closes the socket, ignoring an error: nothing is left to do with it. */
  static void close(SocketChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // closing: nothing left to do with the error
    }
  }
}
