package dev.wsjava.bench.e2e;

import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The raw load client's permessage-deflate (RFC 7692 §7.2): raw DEFLATE, each message ended with a
 * sync flush whose 4-byte tail {@code 00 00 ff ff} is removed on sending and put back on receiving.
 * The client offers {@code permessage-deflate; client_max_window_bits} and keeps its context unless
 * the server asks for {@code client_no_context_takeover}. Compression level 1: the client's own
 * cost stays small, and the bytes the server sends are the server's doing alone. Not thread-safe.
 */
final class ClientDeflate {
  /** What the client offers in {@code Sec-WebSocket-Extensions}. */
  static final String OFFER = "permessage-deflate; client_max_window_bits";

  private static final byte[] TAIL = {0, 0, (byte) 0xff, (byte) 0xff};

  private final Deflater deflater = new Deflater(1, true);
  private final Inflater inflater = new Inflater(true);
  private final boolean resetDeflater;
  private final boolean resetInflater;
  private byte[] buffer = new byte[1024];

  /**
   * Creates the codec for the parameters the server answered.
   *
   * @param clientNoContextTakeover the server asked the client to reset its compressor per message
   * @param serverNoContextTakeover the server resets its own (the inflater may then reset too)
   */
  ClientDeflate(boolean clientNoContextTakeover, boolean serverNoContextTakeover) {
    this.resetDeflater = clientNoContextTakeover;
    this.resetInflater = serverNoContextTakeover;
  }

  /**
   * Parses the server's {@code Sec-WebSocket-Extensions} answer.
   *
   * @param header the header's value, or {@code null}
   * @return the codec, or {@code null} when permessage-deflate was not accepted
   * @throws IllegalStateException when the answer asks for what the JDK's zlib cannot do (a client
   *     window below 15 bits) or names an extension that was not offered
   */
  static ClientDeflate fromResponse(String header) {
    if (header == null || header.isBlank()) {
      return null;
    }
    String[] parts = header.split(";");
    if (!parts[0].trim().equalsIgnoreCase("permessage-deflate") || header.contains(",")) {
      throw new IllegalStateException("unexpected extensions answered: " + header);
    }
    boolean clientReset = false;
    boolean serverReset = false;
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].trim().toLowerCase(java.util.Locale.ROOT);
      if (p.equals("client_no_context_takeover")) {
        clientReset = true;
      } else if (p.equals("server_no_context_takeover")) {
        serverReset = true;
      } else if (p.startsWith("client_max_window_bits")) {
        int eq = p.indexOf('=');
        if (eq > 0 && Integer.parseInt(p.substring(eq + 1).replace("\"", "").trim()) != 15) {
          throw new IllegalStateException("the JDK's Deflater has a 15-bit window only: " + header);
        }
      } else if (!p.startsWith("server_max_window_bits")) {
        throw new IllegalStateException("unknown permessage-deflate parameter: " + p);
      }
    }
    return new ClientDeflate(clientReset, serverReset);
  }

  /**
   * Compresses one message.
   *
   * @param message the message
   * @return the frame payload (the compressed bytes without the flush tail)
   */
  byte[] compress(byte[] message) {
    deflater.setInput(message);
    int n = 0;
    while (true) {
      n += deflater.deflate(buffer, n, buffer.length - n, Deflater.SYNC_FLUSH);
      if (n < buffer.length) {
        break;
      }
      buffer = Arrays.copyOf(buffer, buffer.length * 2);
    }
    if (resetDeflater) {
      deflater.reset();
    }
    if (n < 4 || !Arrays.equals(buffer, n - 4, n, TAIL, 0, 4)) {
      throw new IllegalStateException("sync flush did not end with 00 00 ff ff");
    }
    return Arrays.copyOf(buffer, n - 4);
  }

  /**
   * Decompresses one message.
   *
   * @param payload the compressed frame payload(s) of the message
   * @param length how many bytes of {@code payload} hold it
   * @param limit the largest message accepted
   * @return the message
   * @throws IllegalStateException when the data is not valid DEFLATE or inflates past the limit
   */
  byte[] decompress(byte[] payload, int length, int limit) {
    byte[] in = Arrays.copyOf(payload, length + 4);
    System.arraycopy(TAIL, 0, in, length, 4);
    inflater.setInput(in);
    byte[] out = new byte[Math.max(64, length * 4)];
    int n = 0;
    try {
      while (true) {
        if (n == out.length) {
          if (out.length > limit) {
            throw new IllegalStateException("message inflates past " + limit + " bytes");
          }
          out = Arrays.copyOf(out, out.length * 2);
        }
        int k = inflater.inflate(out, n, out.length - n);
        n += k;
        if (k == 0 && (inflater.needsInput() || inflater.finished())) {
          break;
        }
      }
    } catch (DataFormatException e) {
      throw new IllegalStateException("bad DEFLATE data from the server: " + e.getMessage(), e);
    }
    if (resetInflater) {
      inflater.reset();
    }
    return Arrays.copyOf(out, n);
  }

  /** Frees zlib's native memory. */
  void end() {
    deflater.end();
    inflater.end();
  }
}
