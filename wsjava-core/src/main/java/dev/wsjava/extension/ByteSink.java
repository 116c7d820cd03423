package dev.wsjava.extension;

import dev.wsjava.ProtocolException;
import java.nio.ByteBuffer;

/**
 * Where an extension writes the bytes it produces. The sink may refuse more bytes (for example
 * when a message passes its size limit) by throwing; the producer then stops at once, which is
 * what keeps a decompression bomb from allocating past the limit. A sink may also keep the chunk
 * and then throw to pause (a receiver waiting for memory): a decoder called again with the input it
 * had not read yet goes on where it stopped, so nothing is lost.
 */
@FunctionalInterface
public interface ByteSink {
  /**
   * Accepts a chunk. The buffer's remaining bytes are valid only during the call: a sink that
   * keeps them copies them.
   *
   * @param chunk bytes from position to limit
   * @throws ProtocolException when the sink refuses the bytes (the connection then fails with
   *     its code)
   */
  void accept(ByteBuffer chunk) throws ProtocolException;
}
