package dev.wsjava.session;

import dev.wsjava.protocol.FrameEncoder;
import dev.wsjava.protocol.FrameParser;
import dev.wsjava.protocol.Limits;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.ProtocolException;
import dev.wsjava.protocol.Role;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Test helper: builds raw frames as a peer would send them, and reads what a session wrote. */
final class Wire {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private boolean masked;

  /** Frames as sent by the peer of a session with {@code sessionRole}. */
  Wire(Role sessionRole) {
    this.masked = sessionRole == Role.SERVER;
  }

  Wire frame(int firstByte, byte[] payload) {
    boolean fin = (firstByte & 0x80) != 0;
    int rsv = firstByte & 0x70;
    ByteBuffer b = ByteBuffer.allocate(14 + payload.length);
    // writeHeader needs an Opcode; reserved opcodes are written by hand.
    Opcode op = Opcode.of(firstByte & 0xF);
    FrameEncoder.writeHeader(
        b, fin, rsv, op == null ? Opcode.BINARY : op, payload.length, masked, 0x11223344);
    if (op == null) {
      b.put(0, (byte) firstByte);
    }
    int start = b.position();
    b.put(payload);
    if (masked) {
      for (int i = 0; i < payload.length; i++) {
        b.put(start + i, (byte) (payload[i] ^ new byte[] {0x11, 0x22, 0x33, 0x44}[i & 3]));
      }
    }
    out.write(b.array(), 0, b.position());
    return this;
  }

  /** Makes the following frames break the masking rule for the session's role. */
  Wire wrongMask() {
    masked = !masked;
    return this;
  }

  Wire frame(int firstByte, String utf8) {
    return frame(firstByte, utf8.getBytes(StandardCharsets.UTF_8));
  }

  Wire close(int code, String reason) {
    byte[] r = reason.getBytes(StandardCharsets.UTF_8);
    ByteBuffer p = ByteBuffer.allocate(2 + r.length).putShort((short) code).put(r);
    return frame(0x88, p.array());
  }

  byte[] bytes() {
    return out.toByteArray();
  }

  ByteBuffer buffer() {
    return ByteBuffer.wrap(bytes());
  }

  /** A frame a session wrote, as its peer parses it. */
  record Sent(boolean fin, int rsv, Opcode opcode, byte[] payload) {
    String text() {
      return new String(payload, StandardCharsets.UTF_8);
    }

    int closeCode() {
      return payload.length < 2 ? 1005 : ((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF);
    }
  }

  /** Drains a session's outbound queue and parses it as the peer would. */
  static List<Sent> drain(Session s) throws ProtocolException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    ByteBuffer[] gather = new ByteBuffer[8];
    while (s.hasOutbound()) {
      int n = s.gatherOutbound(gather, 0);
      long w = 0;
      for (int i = 0; i < n; i++) {
        w += gather[i].remaining();
        byte[] a = new byte[gather[i].remaining()];
        gather[i].get(a);
        all.writeBytes(a);
      }
      s.written(w);
    }
    FrameParser p =
        new FrameParser(s.role() == Role.CLIENT ? Role.SERVER : Role.CLIENT, Limits.DEFAULTS);
    p.allowRsv(0x70);
    ByteBuffer in = ByteBuffer.wrap(all.toByteArray());
    List<Sent> frames = new ArrayList<>();
    ByteArrayOutputStream payload = new ByteArrayOutputStream();
    boolean fin = false;
    int rsv = 0;
    Opcode op = null;
    while (true) {
      switch (p.next(in)) {
        case NEED_MORE -> {
          return frames;
        }
        case HEADER -> {
          fin = p.fin();
          rsv = p.rsv();
          op = p.opcode();
          payload.reset();
        }
        case PAYLOAD -> payload.writeBytes(Recorder.bytes(p.payload()));
        case FRAME_END -> frames.add(new Sent(fin, rsv, op, payload.toByteArray()));
      }
    }
  }
}
