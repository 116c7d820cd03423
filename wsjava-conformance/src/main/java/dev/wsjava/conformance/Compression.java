package dev.wsjava.conformance;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * RFC 7692 §7.2: the suite's own permessage-deflate, on {@code java.util.zip} directly (not
 * wsjava's extension, which it judges). One per connection; not thread-safe (the script
 * compresses, the reader thread decompresses, each with its own half).
 *
 * <p>The compressor keeps to the agreed window: {@code Deflater} always uses 32 KiB, so for a
 * smaller window it cuts the message into pieces of the window's size and ends each with a full
 * flush, after which no back-reference reaches across. The decompressor resets after every
 * message when the peer agreed not to take over its context, so a peer that does anyway is caught
 * (its next message refers to bytes the suite no longer has).
 */
public final class Compression {
  private static final byte[] TAIL = {0, 0, (byte) 0xFF, (byte) 0xFF};

  private final DeflateParameters agreed;
  private final boolean compressNoContext;
  private final int compressWindowBits;
  private final boolean inflateReset;
  private final Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
  private final Inflater inflater = new Inflater(true);

  Compression(
      DeflateParameters agreed, boolean compressNoContext, int compressWindowBits,
      boolean inflateReset) {
    this.agreed = agreed;
    this.compressNoContext = compressNoContext;
    this.compressWindowBits = compressWindowBits;
    this.inflateReset = inflateReset;
  }

  /**
   * The compression the suite uses as client after a server accepted its offer.
   *
   * @param offer the suite's offer
   * @param response the server's response
   * @return the codec
   */
  static Compression asClient(DeflateParameters offer, DeflateParameters response) {
    int window = Math.min(
        offer.clientMaxWindowBits() > 0 ? offer.clientMaxWindowBits() : 15,
        response.clientMaxWindowBits() > 0 ? response.clientMaxWindowBits() : 15);
    return new Compression(response,
        response.clientNoContextTakeover() || offer.clientNoContextTakeover(), window,
        response.serverNoContextTakeover());
  }

  /**
   * The compression the suite uses as server after answering a client's offer.
   *
   * @param response the suite's response
   * @return the codec
   */
  static Compression asServer(DeflateParameters response) {
    return new Compression(response, response.serverNoContextTakeover(),
        response.serverMaxWindowBits() > 0 ? response.serverMaxWindowBits() : 15,
        response.clientNoContextTakeover());
  }

  /**
   * Returns the parameters agreed in the handshake.
   *
   * @return the response's parameters
   */
  public DeflateParameters agreed() {
    return agreed;
  }

  /**
   * Compresses one message (§7.2.1): DEFLATE, flushed, with the final {@code 00 00 FF FF} removed.
   * Advances the context unless no context takeover was agreed.
   *
   * @param message the message payload
   * @return the frame payload to send with RSV1 set
   */
  public byte[] compress(byte[] message) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(message.length / 2 + 16);
    if (compressWindowBits >= 15) {
      deflate(message, 0, message.length, Deflater.SYNC_FLUSH, out);
    } else {
      int piece = 1 << compressWindowBits;
      int off = 0;
      do {
        int n = Math.min(piece, message.length - off);
        deflate(message, off, n, Deflater.FULL_FLUSH, out);
        off += n;
      } while (off < message.length);
    }
    if (compressNoContext) {
      deflater.reset();
    }
    byte[] b = out.toByteArray();
    return Arrays.copyOf(b, b.length - TAIL.length);
  }

  private void deflate(byte[] data, int off, int len, int flush, ByteArrayOutputStream out) {
    deflater.setInput(data, off, len);
    byte[] buf = new byte[8192];
    int n;
    do {
      n = deflater.deflate(buf, 0, buf.length, flush);
      out.write(buf, 0, n);
    } while (n == buf.length);
  }

  /**
   * Decompresses one message (§7.2.2): appends {@code 00 00 FF FF} and inflates.
   *
   * @param payload the message's frame payloads, joined
   * @param max the most bytes to inflate to
   * @return the message
   * @throws DataFormatException when the data is not valid DEFLATE, or inflates past {@code max}
   */
  byte[] decompress(byte[] payload, long max) throws DataFormatException {
    byte[] in = Arrays.copyOf(payload, payload.length + TAIL.length);
    System.arraycopy(TAIL, 0, in, payload.length, TAIL.length);
    inflater.setInput(in);
    ByteArrayOutputStream out = new ByteArrayOutputStream(payload.length * 2 + 16);
    byte[] buf = new byte[16384];
    while (!inflater.finished()) {
      int n = inflater.inflate(buf);
      if (n == 0) {
        if (inflater.needsDictionary()) {
          throw new DataFormatException("the data asks for a preset dictionary");
        }
        break;
      }
      out.write(buf, 0, n);
      if (out.size() > max) {
        throw new DataFormatException("the message inflates past " + max + " bytes");
      }
    }
    if (inflater.finished() || inflateReset) {
      // A final block (BFINAL) ends the stream; no context takeover starts afresh.
      inflater.reset();
    }
    return out.toByteArray();
  }

  /**
   * Compresses with a fresh deflater and a final block (BFINAL set), as §7.2.3.5 allows.
   *
   * @param message the message
   * @return the complete DEFLATE stream, nothing removed
   */
  static byte[] deflateFinal(byte[] message) {
    Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    try {
      d.setInput(message);
      d.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buf = new byte[8192];
      while (!d.finished()) {
        out.write(buf, 0, d.deflate(buf));
      }
      return out.toByteArray();
    } finally {
      d.end();
    }
  }
}
