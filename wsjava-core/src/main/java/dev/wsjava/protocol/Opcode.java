package dev.wsjava.protocol;

/**
 * RFC 6455 §5.2 frame opcodes. Reserved opcodes (3-7, 11-15) have no constant: a frame carrying
 * one fails the connection with 1002.
 */
public enum Opcode {
  /** %x0, a continuation frame of a fragmented data message. */
  CONTINUATION(0x0),
  /** %x1, the first frame of a text message (UTF-8). */
  TEXT(0x1),
  /** %x2, the first frame of a binary message. */
  BINARY(0x2),
  /** %x8, a close frame. */
  CLOSE(0x8),
  /** %x9, a ping. */
  PING(0x9),
  /** %xA, a pong. */
  PONG(0xA);

  private static final Opcode[] BY_CODE = new Opcode[16];

  static {
    for (Opcode op : values()) {
      BY_CODE[op.code] = op;
    }
  }

  private final int code;

  Opcode(int code) {
    this.code = code;
  }

  /**
   * Returns the 4-bit wire value.
   *
   * @return the opcode as it appears in the low nibble of the first header byte
   */
  public int code() {
    return code;
  }

  /**
   * Returns whether this is a control opcode (close, ping, pong): §5.5.
   *
   * @return true for opcodes with the high bit of the nibble set
   */
  public boolean isControl() {
    return (code & 0x8) != 0;
  }

  /**
   * Looks up an opcode by its wire value.
   *
   * @param code the low nibble of the first header byte
   * @return the opcode, or {@code null} when the value is reserved
   */
  public static Opcode of(int code) {
    return BY_CODE[code & 0xF];
  }
}
