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
   * Lends a cleared buffer for (part of) a large frame; every one lent has the same capacity, of
   * at least 1024 bytes.
   *
   * @return a buffer the caller owns until it gives it back
   */
  ByteBuffer take();

  /**
   * Lends a cleared chunk that small frames are packed into, of at least 4096 bytes, and smaller
   * than the buffers of {@link #take()}.
   *
   * @return a buffer the caller owns until it gives it back
   */
  ByteBuffer takeChunk();

  /**
   * Takes back a buffer lent by {@link #take()} or {@link #takeChunk()}; its contents are dropped.
   *
   * @param buffer the buffer
   */
  void give(ByteBuffer buffer);
}
