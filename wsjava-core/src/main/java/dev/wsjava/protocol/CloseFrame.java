package dev.wsjava.protocol;

import dev.wsjava.CloseCode;
import dev.wsjava.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * RFC 6455 §5.5.1 close frame payload: an optional two-byte status code followed by an optional
 * UTF-8 reason, at most 125 bytes in all.
 *
 * @param code the status code, or {@link CloseCode#NO_STATUS} when the payload was empty
 * @param reason the reason, possibly empty
 */
public record CloseFrame(int code, String reason) {

  /** The longest reason, in UTF-8 bytes, that fits a control frame beside the code. */
  public static final int MAX_REASON_BYTES = 123;

  /**
   * Parses and checks a received close payload.
   *
   * @param payload the unmasked payload, position to limit; not consumed
   * @return the code and reason; code 1005 for an empty payload
   * @throws ProtocolException 1002 for a 1-byte payload or a code that may not be on the wire
   *     (§7.4), 1007 for a reason that is not valid UTF-8
   */
  public static CloseFrame parse(ByteBuffer payload) throws ProtocolException {
    int n = payload.remaining();
    if (n == 0) {
      return new CloseFrame(CloseCode.NO_STATUS, "");
    }
    if (n == 1) {
      throw new ProtocolException(
          CloseCode.PROTOCOL_ERROR, "close frame payload of 1 byte (RFC 6455 §5.5.1)");
    }
    int p = payload.position();
    int code = ((payload.get(p) & 0xFF) << 8) | (payload.get(p + 1) & 0xFF);
    if (!CloseCode.isValidOnWire(code)) {
      throw new ProtocolException(
          CloseCode.PROTOCOL_ERROR, "invalid close code " + code + " (RFC 6455 §7.4)");
    }
    ByteBuffer reasonBytes = payload.slice(p + 2, n - 2);
    if (!Utf8Validator.isValid(reasonBytes)) {
      throw new ProtocolException(
          CloseCode.INVALID_PAYLOAD, "close reason is not valid UTF-8 (RFC 6455 §5.5.1)");
    }
    return new CloseFrame(code, StandardCharsets.UTF_8.decode(reasonBytes).toString());
  }

  /**
   * Encodes the payload of a close frame to send.
   *
   * @param code a sendable code ({@link CloseCode#checkSendable}), or {@link CloseCode#NO_STATUS}
   *     for an empty payload
   * @param reason the reason; truncated at a character boundary to {@value #MAX_REASON_BYTES}
   *     bytes when longer
   * @return the payload, ready to read
   */
  public static ByteBuffer encodePayload(int code, String reason) {
    if (code == CloseCode.NO_STATUS) {
      return ByteBuffer.allocate(0);
    }
    CloseCode.checkSendable(code);
    byte[] utf8 = truncate(reason == null ? "" : reason);
    ByteBuffer b = ByteBuffer.allocate(2 + utf8.length);
    b.put((byte) (code >>> 8)).put((byte) code).put(utf8);
    return b.flip();
  }

  private static byte[] truncate(String reason) {
    byte[] utf8 = reason.getBytes(StandardCharsets.UTF_8);
    if (utf8.length <= MAX_REASON_BYTES) {
      return utf8;
    }
    int end = MAX_REASON_BYTES;
    while ((utf8[end] & 0xC0) == 0x80) { // do not cut a character in two
      end--;
    }
    return java.util.Arrays.copyOf(utf8, end);
  }
}
