package dev.wsjava.conformance;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * RFC 6455 §5.2, read leniently: returns every frame as it is on the wire (any opcode, RSV bits,
 * masked or not, non-minimal lengths), so that the judge sees what a peer really sent, including
 * what wsjava's own parser would refuse. Only a length the suite will not hold in memory stops it.
 * Unmasks with a loop of its own. Not thread-safe: one reader thread per connection.
 */
public final class FrameReader {
  private final InputStream in;
  private final long maxPayload;

  /** A frame announced a payload larger than the reader holds. */
  public static final class OversizeException extends IOException {
    private static final long serialVersionUID = 1L;

    OversizeException(long length, long max) {
      super("the peer announced a frame of " + Long.toUnsignedString(length)
          + " bytes; the suite reads at most " + max);
    }
  }

  /**
   * Creates a reader.
   *
   * @param in the bytes after the opening handshake
   * @param maxPayload the largest payload to read into memory
   */
  public FrameReader(InputStream in, long maxPayload) {
    this.in = in;
    this.maxPayload = maxPayload;
  }

  /**
   * Reads the next frame.
   *
   * @return the frame, or {@code null} when the stream ended cleanly between frames
   * @throws EOFException when the stream ended inside a frame
   * @throws OversizeException when the length is larger than the reader holds
   * @throws IOException when reading fails
   */
  public WireFrame next() throws IOException {
    int b0 = in.read();
    if (b0 < 0) {
      return null;
    }
    int b1 = readByte();
    boolean masked = (b1 & 0x80) != 0;
    long length = b1 & 0x7F;
    int lengthBytes = 0;
    if (length == 126) {
      lengthBytes = 2;
      length = readNumber(2);
    } else if (length == 127) {
      lengthBytes = 8;
      length = readNumber(8);
    }
    if (length < 0 || length > maxPayload) {
      throw new OversizeException(length, maxPayload);
    }
    int key = masked ? (int) readNumber(4) : 0;
    byte[] payload = in.readNBytes((int) length);
    if (payload.length < length) {
      throw new EOFException(
          "the stream ended inside a frame: " + payload.length + " of " + length + " bytes");
    }
    if (masked) {
      Frames.xor(payload, key);
    }
    return new WireFrame((b0 & 0x80) != 0, (b0 >>> 4) & 7, b0 & 0xF, masked, lengthBytes, payload);
  }

  private int readByte() throws IOException {
    int b = in.read();
    if (b < 0) {
      throw new EOFException("the stream ended inside a frame header");
    }
    return b;
  }

  private long readNumber(int bytes) throws IOException {
    long n = 0;
    for (int i = 0; i < bytes; i++) {
      n = (n << 8) | readByte();
    }
    return n;
  }
}
