package dev.wsjava.fuzz;

import dev.wsjava.protocol.Limits;
import java.io.ByteArrayOutputStream;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * What a session must do with a byte stream, written from RFC 6455 §5-§8 and RFC 7692 §7.2 apart
 * from the session it judges: the codes it may fail with, or none. Frames are walked with {@link
 * FrameRules}; then a close frame must have no 1-byte payload and a code allowed on the wire (else
 * 1002) and a UTF-8 reason (else 1007), and ends the stream; a message's bytes, inflated when its
 * first frame has RSV1 and deflate was negotiated, must stay within the message limit (else 1009),
 * inflate (else 1007), and for text be UTF-8 (RFC 3629, checked here byte by byte) that ends on a
 * whole code point (else 1007).
 *
 * <p>Where one frame holds two faults of different codes, the session may report either, as the
 * order it sees them in depends on how the bytes were split into reads (and inflated in 16 KiB
 * pieces): a UTF-8 fault before the byte past the limit allows 1007 or 1009, a corrupt DEFLATE
 * stream allows 1007 beside whatever else, and 1009 too when its output came near the limit.
 * Otherwise the code is exact.
 */
final class SessionRules {
  private static final byte[] TRAILER = {0, 0, (byte) 0xff, (byte) 0xff};
  /** How far past the limit inflating goes on looking for a corrupt stream. */
  private static final int LOOK_PAST_LIMIT = 32 * 1024;
  /** How much more output than this model zlib may give before a fault (a match and a little). */
  private static final int NEAR_THE_LIMIT = 300;

  private SessionRules() {}

  /** The codes the session may fail with; empty when it must not fail. */
  static Set<Integer> judge(byte[] wire, int from, boolean server, boolean deflate,
      boolean noContextTakeover, Limits limits) {
    FrameRules.Framing framing = new FrameRules.Framing(server, deflate ? 0x40 : 0, limits);
    Inflater inflater = new Inflater(true);
    try {
      boolean text = false;
      boolean compressed = false;
      boolean hadBytes = false;
      boolean streamEnded = false;
      long size = 0;
      Utf8Steps utf8 = new Utf8Steps();
      int p = from;
      FrameRules.Header h;
      while ((h = FrameRules.header(wire, p)) != null) {
        int code = framing.check(h);
        if (code != 0) {
          return Set.of(code);
        }
        int start = p + h.size();
        int available = (int) Math.min(h.length(), wire.length - start);
        byte[] payload = new byte[available];
        for (int i = 0; i < available; i++) {
          payload[i] = (byte) (wire[start + i] ^ (h.masked() ? h.maskKey() >>> (24 - 8 * (i & 3)) : 0));
        }
        boolean whole = available == h.length();
        if (h.control()) {
          if (!whole) {
            return Set.of();
          }
          if (h.opcode() == 8) {
            int close = closeVerdict(payload);
            return close == 0 ? Set.of() : Set.of(close);
          }
          p = start + available;
          continue;
        }
        if (h.opcode() != 0) {
          text = h.opcode() == 1;
          compressed = (h.rsv() & 0x40) != 0;
          hadBytes = false;
          streamEnded = false;
          size = 0;
          utf8 = new Utf8Steps();
        }
        byte[] out = payload;
        boolean corrupt = false;
        if (compressed) {
          hadBytes |= available > 0;
          Inflated inflated = inflate(inflater, payload, limits.maxMessageSize() - size);
          if (!inflated.corrupt && whole && h.fin() && hadBytes) {
            Inflated tail = inflate(inflater, TRAILER, limits.maxMessageSize() - size);
            inflated = inflated.then(tail);
          }
          out = inflated.bytes;
          corrupt = inflated.corrupt;
          streamEnded |= inflated.streamEnded;
        }
        long firstBadUtf8 = -1;
        long pastLimit = -1;
        for (int i = 0; i < out.length; i++) {
          if (pastLimit < 0 && size + i + 1 > limits.maxMessageSize()) {
            pastLimit = i;
          }
          if (text && firstBadUtf8 < 0 && !utf8.next(out[i])) {
            firstBadUtf8 = i;
          }
        }
        Set<Integer> codes = new TreeSet<>();
        if (firstBadUtf8 >= 0 && (pastLimit < 0 || firstBadUtf8 < pastLimit)) {
          codes.add(1007);
        }
        if (pastLimit >= 0) {
          codes.add(1009);
        }
        if (corrupt) {
          codes.add(1007);
          // How much zlib writes before it notices the fault depends on how the input and the
          // output space were split (up to one match, 258 bytes): near the limit, 1009 may come
          // first.
          if (size + out.length + NEAR_THE_LIMIT > limits.maxMessageSize()) {
            codes.add(1009);
          }
        }
        if (!codes.isEmpty()) {
          return codes;
        }
        size += out.length;
        if (!whole) {
          return Set.of(); // the stream ends inside this frame
        }
        if (h.fin()) {
          if (text && !utf8.complete()) {
            return Set.of(1007);
          }
          if (compressed && (noContextTakeover || streamEnded)) {
            inflater.reset();
          }
        }
        p = start + available;
      }
      return Set.of();
    } finally {
      inflater.end();
    }
  }

  /** RFC 6455 §5.5.1 and §7.4: 0 for a valid close payload, else the code to fail with. */
  static int closeVerdict(byte[] payload) {
    if (payload.length == 0) {
      return 0;
    }
    if (payload.length == 1) {
      return 1002;
    }
    int code = (payload[0] & 0xff) << 8 | (payload[1] & 0xff);
    boolean allowed = (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014)
        || (code >= 3000 && code <= 4999);
    if (!allowed) {
      return 1002;
    }
    Utf8Steps reason = new Utf8Steps();
    for (int i = 2; i < payload.length; i++) {
      if (!reason.next(payload[i])) {
        return 1007;
      }
    }
    return reason.complete() ? 0 : 1007;
  }

  /** What inflating some input gave: the bytes, and whether the stream was corrupt or ended. */
  record Inflated(byte[] bytes, boolean corrupt, boolean streamEnded) {
    Inflated then(Inflated next) {
      byte[] joined = new byte[bytes.length + next.bytes.length];
      System.arraycopy(bytes, 0, joined, 0, bytes.length);
      System.arraycopy(next.bytes, 0, joined, bytes.length, next.bytes.length);
      return new Inflated(joined, next.corrupt, streamEnded || next.streamEnded);
    }
  }

  /**
   * Inflates raw DEFLATE (§7.2.2); a final block ends one stream and the next starts afresh
   * (§7.2.3.4). Stops once well past {@code room} bytes, the room left in the message.
   */
  static Inflated inflate(Inflater inf, byte[] input, long room) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[64];
    boolean ended = false;
    inf.setInput(input);
    try {
      while (out.size() <= room + LOOK_PAST_LIMIT) {
        int n = inf.inflate(buf);
        out.write(buf, 0, n);
        if (inf.finished()) {
          int rest = inf.getRemaining();
          inf.reset();
          inf.setInput(input, input.length - rest, rest);
          ended = true;
        } else if (inf.needsInput()) {
          if (n < buf.length) {
            break; // input used up and output drained (a full buffer may have more behind it)
          }
        } else if (n == 0) {
          return new Inflated(out.toByteArray(), true, ended); // asks for a dictionary
        }
      }
    } catch (DataFormatException e) {
      return new Inflated(out.toByteArray(), true, ended);
    }
    return new Inflated(out.toByteArray(), false, ended);
  }

  /** RFC 3629 §4, one byte at a time. */
  static final class Utf8Steps {
    private int needed;
    private int lo = 0x80;
    private int hi = 0xbf;

    /** Takes the next byte; false when no valid text has it here. */
    boolean next(byte value) {
      int b = value & 0xff;
      if (needed > 0) {
        if (b < lo || b > hi) {
          return false;
        }
        needed--;
        lo = 0x80;
        hi = 0xbf;
        return true;
      }
      if (b <= 0x7f) {
        return true;
      }
      if (b >= 0xc2 && b <= 0xdf) {
        needed = 1;
      } else if (b >= 0xe0 && b <= 0xef) {
        needed = 2;
        lo = b == 0xe0 ? 0xa0 : 0x80;
        hi = b == 0xed ? 0x9f : 0xbf;
      } else if (b >= 0xf0 && b <= 0xf4) {
        needed = 3;
        lo = b == 0xf0 ? 0x90 : 0x80;
        hi = b == 0xf4 ? 0x8f : 0xbf;
      } else {
        return false;
      }
      return true;
    }

    boolean complete() {
      return needed == 0;
    }
  }
}
