package dev.wsjava.conformance;

/**
 * One entry of a case's frame log, for the report: a frame (or raw bytes) in either direction.
 *
 * @param out true for what the suite sent, false for what the peer sent
 * @param ms milliseconds since the case started
 * @param opcode the opcode, or -1 for raw bytes that are not one frame
 * @param fin the FIN bit
 * @param rsv the RSV bits, 0-7
 * @param masked the MASK bit
 * @param length the payload length (for raw bytes, their number)
 * @param head the first payload bytes in hex, truncated for long payloads
 * @param note how it was sent (chopped, skipped...), or empty
 */
public record FrameRecord(
    boolean out, long ms, int opcode, boolean fin, int rsv, boolean masked, long length,
    String head, String note) {

  /** Payload bytes shown in {@link #head}. */
  static final int HEAD_BYTES = 24;

  static FrameRecord of(boolean out, long ms, WireFrame f, String note) {
    return new FrameRecord(out, ms, f.opcode(), f.fin(), f.rsv(), f.masked(), f.payload().length,
        DataMessage.hexHead(f.payload(), HEAD_BYTES), note);
  }

  static FrameRecord of(boolean out, long ms, Frame f, boolean masked, String note) {
    return new FrameRecord(out, ms, f.opcode(), f.fin(), f.rsv(), masked, f.payload().length,
        DataMessage.hexHead(f.payload(), HEAD_BYTES), note);
  }

  static FrameRecord raw(long ms, byte[] bytes, String note) {
    return new FrameRecord(true, ms, -1, false, 0, false, bytes.length,
        DataMessage.hexHead(bytes, HEAD_BYTES), note);
  }

  /**
   * Returns the opcode's name.
   *
   * @return for example {@code text}, {@code reserved-3} or {@code raw}
   */
  public String opcodeName() {
    return switch (opcode) {
      case -1 -> "raw";
      case 0 -> "continuation";
      case 1 -> "text";
      case 2 -> "binary";
      case 8 -> "close";
      case 9 -> "ping";
      case 10 -> "pong";
      default -> "reserved-" + opcode;
    };
  }
}
