package dev.wsjava.conformance;

/**
 * RFC 6455 §5.2: one frame as the {@link FrameReader} saw it on the wire, whatever it breaks.
 *
 * @param fin the FIN bit
 * @param rsv the RSV bits as 0-7, RSV1 being 4
 * @param opcode the opcode, 0-15
 * @param masked the MASK bit
 * @param lengthBytes the size of the extended length field used: 0, 2 or 8
 * @param payload the payload, unmasked
 */
public record WireFrame(
    boolean fin, int rsv, int opcode, boolean masked, int lengthBytes, byte[] payload) {

  /**
   * Returns whether the opcode is a control opcode (§5.5: high bit of the nibble set).
   *
   * @return true for 8-15
   */
  public boolean isControl() {
    return (opcode & 0x8) != 0;
  }

  /**
   * Returns whether the length was written with the fewest bytes (§5.2 requires it).
   *
   * @return true when minimal
   */
  public boolean minimalLength() {
    return switch (lengthBytes) {
      case 0 -> true;
      case 2 -> payload.length > 125;
      default -> payload.length > 0xFFFF;
    };
  }
}
