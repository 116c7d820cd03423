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

  /** A frame header as the wire spells it. */
  record Header(boolean fin, int rsv, int opcode, boolean masked, long length, boolean topBitSet,
      int size, int maskKey) {
    boolean control() {
      return opcode >= 8;
    }
  }

  /** Reads the header at {@code p}, or returns null when the wire ends inside it. */
  static Header header(byte[] wire, int p) {
    if (wire.length - p < 2) {
      return null;
    }
    int b0 = wire[p] & 0xff;
    int b1 = wire[p + 1] & 0xff;
    int len7 = b1 & 0x7f;
    boolean masked = (b1 & 0x80) != 0;
    int extended = len7 == 126 ? 2 : len7 == 127 ? 8 : 0;
    int size = 2 + extended + (masked ? 4 : 0);
    if (wire.length - p < size) {
      return null;
    }
    long length = len7;
    if (extended > 0) {
      length = 0;
      for (int i = 0; i < extended; i++) {
        length = (length << 8) | (wire[p + 2 + i] & 0xff);
      }
    }
    int key = 0;
    for (int i = 0; masked && i < 4; i++) {
      key = (key << 8) | (wire[p + 2 + extended + i] & 0xff);
    }
    return new Header((b0 & 0x80) != 0, b0 & 0x70, b0 & 0x0f, masked, length,
        extended == 8 && (wire[p + 2] & 0x80) != 0, size, key);
  }

  /** The fragment sequencing of one connection (§5.4) and the rules each header must keep. */
  static final class Framing {
    private final boolean server;
    private final int allowedRsv;
    private final Limits limits;
    private boolean inMessage;
    private long fragments;

    Framing(boolean server, int allowedRsv, Limits limits) {
      this.server = server;
      this.allowedRsv = allowedRsv;
      this.limits = limits;
    }

    /** Checks the next header: 0 when it keeps every rule, else its close code. */
    int check(Header h) {
      boolean known = h.opcode() <= 2 || (h.opcode() >= 8 && h.opcode() <= 10);
      boolean continuation = h.opcode() == 0;
      boolean data = !h.control() && !continuation;
      boolean broken = h.topBitSet()
          || !known
          || h.masked() != server
          || (h.control() && (h.rsv() != 0 || !h.fin() || h.length() > 125))
          || (continuation && (!inMessage || h.rsv() != 0))
          || (data && (inMessage || (h.rsv() & ~allowedRsv) != 0));
      if (broken) {
        return 1002;
      }
      boolean tooMany = continuation && fragments + 1 > limits.maxFragments();
      if (tooMany || h.length() > limits.maxFramePayload()) {
        return 1009;
      }
      if (!h.control()) {
        fragments = continuation ? fragments + 1 : 1;
        inMessage = !h.fin();
      }
      return 0;
    }
  }

  private FrameRules() {}

  /**
   * Judges {@code wire[from, wire.length)} as read by a server (clients must mask) or a client
   * (servers must not), with {@code allowedRsv} (a mask over 0x70) owned by extensions.
   */
  static Verdict judge(byte[] wire, int from, boolean server, int allowedRsv, Limits limits) {
    Framing framing = new Framing(server, allowedRsv, limits);
    int headers = 0;
    int p = from;
    Header h;
    while ((h = header(wire, p)) != null) {
      int code = framing.check(h);
      if (code != 0) {
        return new Verdict(code, headers);
      }
      headers++;
      if (wire.length - p - h.size() < h.length()) {
        return Verdict.NONE; // the stream ends inside a payload
      }
      p += h.size() + (int) h.length();
    }
    return Verdict.NONE;
  }
}
