package dev.wsjava.fuzz;

import dev.wsjava.protocol.Limits;

/**
 * RFC 6455 §5 framing rules written out plainly, apart from the parser they judge: walks whole
 * frames over the wire bytes and says at which header the stream first breaks a rule, and with
 * which close code. A broken framing rule is 1002 (§5.2, §5.4, §5.5, §7.4.1); a frame or message
 * over a configured limit is 1009 (§7.4.1); a header that breaks both gets 1002, since its frame is
 * not one the limit could apply to.
 */
final class FrameRules {
  /** Where the stream first breaks a rule: the code, or 0 if it never does. */
  record Verdict(int code, int headersBefore) {
    static final Verdict NONE = new Verdict(0, -1);

    boolean fails() {
      return code != 0;
    }
  }

  private FrameRules() {}

  /**
   * Judges {@code wire[from, wire.length)} as read by a server (clients must mask) or a client
   * (servers must not), with {@code allowedRsv} (a mask over 0x70) owned by extensions.
   */
  static Verdict judge(byte[] wire, int from, boolean server, int allowedRsv, Limits limits) {
    boolean inMessage = false;
    long fragments = 0;
    int headers = 0;
    int p = from;
    while (wire.length - p >= 2) {
      int b0 = wire[p] & 0xff;
      int b1 = wire[p + 1] & 0xff;
      int len7 = b1 & 0x7f;
      boolean masked = (b1 & 0x80) != 0;
      int extended = len7 == 126 ? 2 : len7 == 127 ? 8 : 0;
      int headerLength = 2 + extended + (masked ? 4 : 0);
      if (wire.length - p < headerLength) {
        return Verdict.NONE; // the stream ends inside a header
      }
      long length = len7;
      boolean topBitSet = false;
      if (extended > 0) {
        length = 0;
        for (int i = 0; i < extended; i++) {
          length = (length << 8) | (wire[p + 2 + i] & 0xff);
        }
        topBitSet = extended == 8 && (wire[p + 2] & 0x80) != 0;
      }
      boolean fin = (b0 & 0x80) != 0;
      int rsv = b0 & 0x70;
      int opcode = b0 & 0x0f;
      boolean control = opcode >= 8;
      boolean known = opcode <= 2 || (opcode >= 8 && opcode <= 10);
      boolean continuation = opcode == 0;

      boolean broken = topBitSet
          || !known
          || masked != server
          || (control && (rsv != 0 || !fin || length > 125))
          || (continuation && (!inMessage || rsv != 0))
          || (!control && !continuation && (inMessage || (rsv & ~allowedRsv) != 0));
      if (broken) {
        return new Verdict(1002, headers);
      }
      boolean tooMany = continuation && fragments + 1 > limits.maxFragments();
      if (tooMany || length > limits.maxFramePayload()) {
        return new Verdict(1009, headers);
      }
      if (!control) {
        fragments = continuation ? fragments + 1 : 1;
        inMessage = !fin;
      }
      headers++;
      if (wire.length - p - headerLength < length) {
        return Verdict.NONE; // the stream ends inside a payload
      }
      p += headerLength + (int) length;
    }
    return Verdict.NONE;
  }
}
