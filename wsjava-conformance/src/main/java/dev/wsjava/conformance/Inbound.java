package dev.wsjava.conformance;

import dev.wsjava.protocol.Role;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.DataFormatException;

/**
 * RFC 6455 §5 and RFC 7692 §6 applied to what the peer sends, frame by frame: reassembles and
 * decompresses its messages, collects its pongs and its close, and notes every rule a frame
 * breaks, in words. No I/O and no threads; not thread-safe ({@link Conversation} calls it under
 * its lock).
 */
final class Inbound {
  private static final int VIOLATION_LIMIT = 8;

  private final Role role;
  private final Compression compression;
  private final long maxMessage;
  private final List<DataMessage> messages = new ArrayList<>();
  private final List<byte[]> pongs = new ArrayList<>();
  private final List<String> violations = new ArrayList<>();
  private Integer closeCode;
  private String closeReason;
  private ByteArrayOutputStream partial;
  private boolean partialText;
  private boolean partialCompressed;

  /**
   * Creates the checker for one connection.
   *
   * @param role the suite's role (the peer plays the other)
   * @param compression the agreed permessage-deflate, or null
   * @param maxMessage the largest message to reassemble
   */
  Inbound(Role role, Compression compression, long maxMessage) {
    this.role = role;
    this.compression = compression;
    this.maxMessage = maxMessage;
  }

  List<DataMessage> messages() {
    return messages;
  }

  List<byte[]> pongs() {
    return pongs;
  }

  List<String> violations() {
    return violations;
  }

  /** The code of the peer's first close frame (1005 when it had none), or null before one. */
  Integer closeCode() {
    return closeCode;
  }

  String closeReason() {
    return closeReason;
  }

  void violation(String what) {
    if (violations.size() < VIOLATION_LIMIT && !violations.contains(what)) {
      violations.add(what);
    }
  }

  /**
   * Takes one frame from the peer.
   *
   * @param f the frame
   * @return the answer §5.5 asks for (a pong for a ping; for the peer's first close, a close
   *     echoing its code, or 1002 when the close is malformed), or null
   */
  Frame accept(WireFrame f) {
    check(f);
    switch (f.opcode()) {
      case Frame.CONTINUATION, Frame.TEXT, Frame.BINARY -> data(f);
      case Frame.CLOSE -> {
        return close(f);
      }
      case Frame.PING -> {
        control(f);
        return Frame.pong(f.payload());
      }
      case Frame.PONG -> {
        control(f);
        pongs.add(f.payload());
      }
      default -> violation("a frame with reserved opcode " + f.opcode() + " (RFC 6455 §5.2)");
    }
    return null;
  }

  private void check(WireFrame f) {
    if (closeCode != null) {
      violation("a frame after its close frame (RFC 6455 §5.5.1)");
    }
    if (role == Role.CLIENT && f.masked()) {
      violation("a masked frame from the server (RFC 6455 §5.1)");
    } else if (role == Role.SERVER && !f.masked()) {
      violation("an unmasked frame from the client (RFC 6455 §5.1)");
    }
    if (!f.minimalLength()) {
      violation("a payload length not in the minimal number of bytes (RFC 6455 §5.2)");
    }
    boolean startsMessage = f.opcode() == Frame.TEXT || f.opcode() == Frame.BINARY;
    int allowed = compression != null && startsMessage ? 4 : 0;
    if ((f.rsv() & ~allowed) != 0) {
      violation(compression != null && (f.rsv() & 4) != 0 && !startsMessage
          ? "RSV1 on a frame that does not start a data message (RFC 7692 §6.1)"
          : "RSV bits " + f.rsv() + " set without an extension that defines them"
              + " (RFC 6455 §5.2)");
    }
  }

  private void control(WireFrame f) {
    if (!f.fin()) {
      violation("a fragmented control frame (RFC 6455 §5.5)");
    }
    if (f.payload().length > 125) {
      violation("a control frame with " + f.payload().length + " bytes of payload (RFC 6455"
          + " §5.5 allows 125)");
    }
  }

  private void data(WireFrame f) {
    if (f.opcode() != Frame.CONTINUATION) {
      if (partial != null) {
        violation("a new data message inside a fragmented one (RFC 6455 §5.4)");
      }
      partial = new ByteArrayOutputStream();
      partialText = f.opcode() == Frame.TEXT;
      partialCompressed = compression != null && (f.rsv() & 4) != 0;
    } else if (partial == null) {
      violation("a continuation frame with no message to continue (RFC 6455 §5.4)");
      return;
    }
    if (partial.size() + (long) f.payload().length > maxMessage) {
      violation("a message larger than the suite reads (" + maxMessage + " bytes)");
      partial = null;
      return;
    }
    partial.writeBytes(f.payload());
    if (f.fin()) {
      complete();
    }
  }

  private void complete() {
    byte[] payload = partial.toByteArray();
    boolean text = partialText;
    boolean compressed = partialCompressed;
    partial = null;
    if (compressed) {
      try {
        payload = compression.decompress(payload, maxMessage);
      } catch (DataFormatException e) {
        DeflateParameters agreed = compression.agreed();
        violation("compressed data the suite cannot inflate (RFC 7692 §7.2.2"
            + (agreed.serverNoContextTakeover() || agreed.clientNoContextTakeover()
                ? "; context is reset after each message where no_context_takeover was agreed"
                : "") + "): " + e.getMessage());
        return;
      }
    }
    if (text && !Utf8Check.isValid(payload)) {
      violation("a text message that is not valid UTF-8 (RFC 6455 §8.1)");
    }
    messages.add(new DataMessage(text, payload));
  }

  private Frame close(WireFrame f) {
    control(f);
    byte[] p = f.payload();
    int code = 1005;
    String reason = "";
    boolean valid = true;
    if (p.length == 1) {
      violation("a close frame with a one-byte payload (RFC 6455 §5.5.1)");
      valid = false;
    } else if (p.length >= 2) {
      code = (p[0] & 0xFF) << 8 | (p[1] & 0xFF);
      if (!validCode(code)) {
        violation("close code " + code + ", which may not be sent (RFC 6455 §7.4)");
        valid = false;
      }
      byte[] r = Arrays.copyOfRange(p, 2, p.length);
      if (!Utf8Check.isValid(r)) {
        violation("a close reason that is not valid UTF-8 (RFC 6455 §5.5.1)");
        valid = false;
      }
      reason = new String(r, StandardCharsets.UTF_8);
    }
    if (closeCode != null) {
      return null;
    }
    closeCode = code;
    closeReason = reason;
    return !valid ? Frame.close(1002, "") : p.length == 0 ? Frame.close(new byte[0])
        : Frame.close(code, "");
  }

  /** §7.4: the codes an endpoint may put on the wire (1012-1014 are registered with IANA). */
  static boolean validCode(int code) {
    return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014)
        || (code >= 3000 && code <= 4999);
  }
}
