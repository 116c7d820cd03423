package dev.wsjava.session;

import java.nio.ByteBuffer;

/**
 * Lends the buffers that large outbound frames are encoded into, and takes each back once its
 * bytes are written. A transport that writes from direct memory supplies pooled direct buffers, so
 * a large message is copied once into memory the socket can take as it is (a heap buffer is copied
 * again by the JDK on every write). Without one, a queue encodes into heap buffers.
 *
 * <p>Implementations must be thread-safe: frames are encoded on the sending thread.
 */
public interface FrameBuffers {
  /**
   * Lends a cleared buffer; every buffer lent has the same capacity, of at least 1024 bytes.
   *
   * @return a buffer the caller owns until it gives it back
   */
  ByteBuffer take();

  /**
   * Takes back a buffer lent by {@link #take()}; its contents are dropped.
   *
   * @param buffer the buffer
   */
  void give(ByteBuffer buffer);
}
