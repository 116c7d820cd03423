package dev.wsjava.protocol;

import java.nio.ByteBuffer;
import java.util.HexFormat;

/** Test helper: hex strings with spaces and comments-free input to bytes, and back. */
public final class Hex {
  private Hex() {}

  /** Parses "81 05 48 65" (spaces ignored). */
  public static byte[] bytes(String hex) {
    return HexFormat.of().parseHex(hex.replaceAll("\\s+", ""));
  }

  /** A read-ready buffer of the given hex. */
  public static ByteBuffer buffer(String hex) {
    return ByteBuffer.wrap(bytes(hex));
  }

  /** Remaining bytes of a buffer as spaced hex, position untouched. */
  public static String of(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.duplicate().get(a);
    return HexFormat.ofDelimiter(" ").formatHex(a);
  }

  /** Bytes as spaced hex. */
  public static String of(byte[] a) {
    return HexFormat.ofDelimiter(" ").formatHex(a);
  }
}
