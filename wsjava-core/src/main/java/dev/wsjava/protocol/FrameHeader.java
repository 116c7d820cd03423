package dev.wsjava.protocol;

/**
 * RFC 6455 §5.2 base framing header, as a value: used by tests, tools and error messages. The hot
 * path reads the same fields from {@link FrameParser} without creating this record.
 *
 * @param fin whether this is the final frame of a message
 * @param rsv the RSV1-3 bits as they sit in the first byte (a mask over 0x70)
 * @param opcode the opcode
 * @param masked whether the payload is masked
 * @param maskKey the masking key as a big-endian int (0 when not masked)
 * @param payloadLength the payload length in bytes
 */
public record FrameHeader(
    boolean fin, int rsv, Opcode opcode, boolean masked, int maskKey, long payloadLength) {

  /**
   * Returns how many bytes this header takes on the wire.
   *
   * @return 2 to 14
   */
  public int encodedLength() {
    return FrameEncoder.headerLength(payloadLength, masked);
  }
}
