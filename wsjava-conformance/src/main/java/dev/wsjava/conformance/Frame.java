package dev.wsjava.conformance;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * RFC 6455 §5.2: one frame a case sends, with any FIN bit, RSV bits, opcode (reserved ones
 * included) and payload, right or deliberately wrong. Whether it is masked follows the runner's
 * role unless the case forces it (§5.1: a client masks, a server does not). Immutable as long as
 * nobody changes the payload array, which is shared, not copied.
 *
 * @param fin the FIN bit
 * @param rsv the three RSV bits as a number 0-7, RSV1 being 4 (so 4 is the deflate bit)
 * @param opcode the 4-bit opcode, 0-15
 * @param payload the payload, unmasked
 * @param mask whether to mask
 */
public record Frame(boolean fin, int rsv, int opcode, byte[] payload, Mask mask) {

  /** Whether a frame is masked. */
  public enum Mask {
    /** As the role requires: masked when the suite is the client (§5.1). */
    ROLE,
    /** Always masked (wrong from a server). */
    ON,
    /** Never masked (wrong from a client). */
    OFF
  }

  /** Continuation, §5.2. */
  public static final int CONTINUATION = 0x0;
  /** Text, §5.6. */
  public static final int TEXT = 0x1;
  /** Binary, §5.6. */
  public static final int BINARY = 0x2;
  /** Close, §5.5.1. */
  public static final int CLOSE = 0x8;
  /** Ping, §5.5.2. */
  public static final int PING = 0x9;
  /** Pong, §5.5.3. */
  public static final int PONG = 0xA;

  /**
   * Checks the fields.
   *
   * @param fin the FIN bit
   * @param rsv 0-7
   * @param opcode 0-15
   * @param payload not null
   * @param mask not null
   */
  public Frame {
    if (rsv < 0 || rsv > 7) {
      throw new IllegalArgumentException("rsv must be 0-7: " + rsv);
    }
    if (opcode < 0 || opcode > 15) {
      throw new IllegalArgumentException("opcode must be 0-15: " + opcode);
    }
    Objects.requireNonNull(payload, "payload");
    Objects.requireNonNull(mask, "mask");
  }

  /**
   * A final frame with this opcode and payload, no RSV bits, masked as the role requires.
   *
   * @param opcode 0-15
   * @param payload the payload
   * @return the frame
   */
  public static Frame of(int opcode, byte[] payload) {
    return new Frame(true, 0, opcode, payload, Mask.ROLE);
  }

  /**
   * A final text frame.
   *
   * @param text the text, UTF-8 encoded
   * @return the frame
   */
  public static Frame text(String text) {
    return of(TEXT, utf8(text));
  }

  /**
   * A final text frame with raw payload bytes (valid UTF-8 or not).
   *
   * @param payload the bytes
   * @return the frame
   */
  public static Frame text(byte[] payload) {
    return of(TEXT, payload);
  }

  /**
   * A final binary frame.
   *
   * @param payload the bytes
   * @return the frame
   */
  public static Frame binary(byte[] payload) {
    return of(BINARY, payload);
  }

  /**
   * A final continuation frame.
   *
   * @param payload the bytes
   * @return the frame
   */
  public static Frame continuation(byte[] payload) {
    return of(CONTINUATION, payload);
  }

  /**
   * A ping.
   *
   * @param payload the application data
   * @return the frame
   */
  public static Frame ping(byte[] payload) {
    return of(PING, payload);
  }

  /**
   * A pong.
   *
   * @param payload the application data
   * @return the frame
   */
  public static Frame pong(byte[] payload) {
    return of(PONG, payload);
  }

  /**
   * A close frame with a status code (any 16-bit value) and a reason.
   *
   * @param code the code, written as two bytes whatever its value
   * @param reason the reason, UTF-8 encoded
   * @return the frame
   */
  public static Frame close(int code, String reason) {
    byte[] r = utf8(reason);
    return of(CLOSE, ByteBuffer.allocate(2 + r.length).putShort((short) code).put(r).array());
  }

  /**
   * A close frame with a raw payload (empty, one byte, invalid UTF-8...).
   *
   * @param payload the payload
   * @return the frame
   */
  public static Frame close(byte[] payload) {
    return of(CLOSE, payload);
  }

  /**
   * Returns this frame with another FIN bit.
   *
   * @param value the FIN bit
   * @return a copy
   */
  public Frame fin(boolean value) {
    return new Frame(value, rsv, opcode, payload, mask);
  }

  /**
   * Returns this frame with other RSV bits.
   *
   * @param value 0-7, RSV1 being 4
   * @return a copy
   */
  public Frame rsv(int value) {
    return new Frame(fin, value, opcode, payload, mask);
  }

  /**
   * Returns this frame with another masking rule.
   *
   * @param value the rule
   * @return a copy
   */
  public Frame mask(Mask value) {
    return new Frame(fin, rsv, opcode, payload, value);
  }

  /**
   * Returns this frame with another opcode.
   *
   * @param value 0-15
   * @return a copy
   */
  public Frame opcode(int value) {
    return new Frame(fin, rsv, value, payload, mask);
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
