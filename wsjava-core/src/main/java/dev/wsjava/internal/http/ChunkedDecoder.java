package dev.wsjava.internal.http;

import dev.wsjava.handshake.HttpStatus;
import java.nio.ByteBuffer;

/**
 * Decodes a chunked request body incrementally (RFC 9112 §7.1): {@code chunk-size [chunk-ext] CRLF
 * chunk-data CRLF}, repeated, then {@code 0 CRLF}, a trailer section and CRLF. Fed bytes in pieces
 * of any size; it consumes exactly the chunked body, so a pipelined request after it stays in the
 * caller's buffer.
 *
 * <p>As strict as the head parser: lines end in CRLF only, chunk extensions are skipped (§7.1.1)
 * but may hold no control other than HTAB and are bounded, and the trailer section is discarded
 * (§7.1.2 allows it) after its bytes are counted against a limit. A chunk that would take the body
 * past its limit is refused from its size line, before its data arrives. Not thread-safe.
 */
final class ChunkedDecoder {
  /** The longest chunk-size line with its extensions; real clients send a few bytes. */
  static final int MAX_SIZE_LINE = 1024;

  private enum State {
    SIZE,
    EXTENSION,
    SIZE_LF,
    DATA,
    DATA_CR,
    DATA_LF,
    TRAILER,
    TRAILER_LF,
    DONE
  }

  private final int maxTrailerBytes;
  private State state = State.SIZE;
  private long chunkSize;
  private int lineLength;
  private int trailerBytes;

  /**
   * Starts decoding one body.
   *
   * @param maxTrailerBytes the most bytes the trailer section may take
   */
  ChunkedDecoder(int maxTrailerBytes) {
    this.maxTrailerBytes = maxTrailerBytes;
  }

  /**
   * Consumes chunked bytes from {@code in}, moving the chunk data into {@code body}.
   *
   * @return true when the body ended; {@code in} is then positioned just past it. False with
   *     bytes left in {@code in} when the body waits for memory ({@link BodyBuffer#wanted()})
   * @throws RequestException 400 for malformed chunks, 413 when the body passes the body's room,
   *     431 when the trailer section passes its limit
   */
  boolean decode(ByteBuffer in, BodyBuffer body) throws RequestException {
    while (state != State.DONE && in.hasRemaining()) {
      if (state == State.DATA) {
        int n = (int) Math.min(chunkSize, in.remaining());
        int taken = body.take(in, n);
        chunkSize -= taken;
        if (chunkSize == 0) {
          state = State.DATA_CR;
        }
        if (taken < n) {
          return false; // the body waits for memory: the rest stays in `in`
        }
        continue;
      }
      byte b = in.get();
      switch (state) {
        case SIZE -> size(b, body);
        case EXTENSION -> extension(b);
        case SIZE_LF -> {
          expect(b, '\n', "chunk-size line");
          state = chunkSize == 0 ? State.TRAILER : State.DATA;
          lineLength = 0;
        }
        case DATA_CR -> {
          expect(b, '\r', "chunk-data");
          state = State.DATA_LF;
        }
        case DATA_LF -> {
          expect(b, '\n', "chunk-data");
          state = State.SIZE;
          chunkSize = 0;
          lineLength = 0;
        }
        case TRAILER -> trailer(b);
        case TRAILER_LF -> {
          expect(b, '\n', "trailer field line");
          state = lineLength == 0 ? State.DONE : State.TRAILER;
          lineLength = 0;
        }
        default -> throw new AssertionError(state);
      }
    }
    return state == State.DONE;
  }

  private void size(byte b, BodyBuffer body) throws RequestException {
    int digit = Character.digit(b, 16);
    if (digit >= 0) {
      if (++lineLength > MAX_SIZE_LINE) {
        throw bad("chunk-size line longer than " + MAX_SIZE_LINE + " bytes");
      }
      chunkSize = chunkSize * 16 + digit;
      if (chunkSize > body.room()) {
        throw new RequestException(
            413,
            "a chunk takes the body past its limit of "
                + (body.length() + body.room())
                + " bytes (RFC 9110 §15.5.14)");
      }
      return;
    }
    if (lineLength == 0) {
      throw bad("chunk-size must start with a hex digit, found " + describe(b));
    }
    if (b == '\r') {
      state = State.SIZE_LF;
    } else if (b == '\n') {
      throw bad("chunk-size line must end with CRLF, found a bare LF");
    } else if (b == ';' || b == ' ' || b == '\t') {
      state = State.EXTENSION;
      lineLength++;
    } else {
      throw bad("chunk-size holds " + describe(b) + ", which is not a hex digit");
    }
  }

  private void extension(byte b) throws RequestException {
    if (b == '\r') {
      state = State.SIZE_LF;
      return;
    }
    if (isControl(b)) {
      throw bad("chunk extension holds " + describe(b));
    }
    if (++lineLength > MAX_SIZE_LINE) {
      throw bad("chunk-size line longer than " + MAX_SIZE_LINE + " bytes");
    }
  }

  private void trailer(byte b) throws RequestException {
    if (b == '\r') {
      state = State.TRAILER_LF;
      return;
    }
    if (isControl(b)) {
      throw bad("trailer section holds " + describe(b));
    }
    lineLength++;
    if (++trailerBytes > maxTrailerBytes) {
      throw new RequestException(
          HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
          "trailer section larger than " + maxTrailerBytes + " bytes (RFC 9112 §7.1.2)");
    }
  }

  private static void expect(byte b, char wanted, String after) throws RequestException {
    if (b != wanted) {
      throw bad(after + " must end with CRLF, found " + describe(b));
    }
  }

  /** Controls other than HTAB, so also a bare LF: lines end in CRLF only. */
  private static boolean isControl(byte b) {
    return (b >= 0 && b < 0x20 && b != '\t') || b == 0x7F;
  }

  private static RequestException bad(String rule) {
    return new RequestException(HttpStatus.BAD_REQUEST, rule + " (RFC 9112 §7.1)");
  }

  private static String describe(byte b) {
    int u = b & 0xFF;
    return u > 0x20 && u < 0x7F ? "'" + (char) u + "'" : String.format("0x%02X", u);
  }
}
