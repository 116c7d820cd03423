package dev.wsjava.conformance;

import static dev.wsjava.conformance.Cases.TICK;
import static dev.wsjava.conformance.Cases.ascii;
import static dev.wsjava.conformance.Cases.concat;
import static dev.wsjava.conformance.Cases.pattern;

import dev.wsjava.protocol.Role;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Group 1, framing (RFC 6455 §5.2): text and binary messages at each payload-length boundary
 * (7-bit, 16-bit and 64-bit length fields), sent whole and chopped into tiny writes; then frames
 * whose header is wrong or unusual.
 */
final class Group1Framing {
  private static final int[] SIZES = {0, 125, 126, 127, 128, 65535, 65536, 131072};
  private static final int RAW_KEY = 0x37FA213D;

  private Group1Framing() {}

  static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    for (int sub = 1; sub <= 2; sub++) {
      boolean text = sub == 1;
      String kind = text ? "text" : "binary";
      int n = 0;
      for (int size : SIZES) {
        DataMessage m = message(text, size);
        out.add(Case.of("1." + sub + "." + ++n,
            "Send a " + kind + " message of " + size + " bytes (" + lengthField(size)
                + " length field) in one frame.",
            Expect.echo(m), p -> {
              p.send(Frame.of(opcode(text), m.payload()));
              p.awaitMessages(1);
            }));
      }
      DataMessage big = message(text, 65536);
      out.add(Case.of("1." + sub + "." + ++n,
          "Send a " + kind + " message of 65536 bytes in one frame, written in 997-byte pieces.",
          Expect.echo(big), p -> {
            p.send(Frame.of(opcode(text), big.payload()), 997, Duration.ZERO);
            p.awaitMessages(1);
          }));
      DataMessage small = message(text, 130);
      out.add(Case.of("1." + sub + "." + ++n,
          "Send a " + kind + " message of 130 bytes in one frame, written one byte at a time.",
          Expect.echo(small), p -> {
            p.send(Frame.of(opcode(text), small.payload()), 1, TICK);
            p.awaitMessages(1);
          }));
    }
    out.addAll(headers());
    return out;
  }

  private static List<Case> headers() {
    List<Case> out = new ArrayList<>();
    out.add(Case.of("1.3.1",
        "Send a text frame masked the wrong way for its direction: unmasked from a client,"
            + " masked from a server (RFC 6455 §5.1: the receiver must fail the connection).",
        Expect.fail(1002), p -> p.send(Frame.text("Hello, mask")
            .mask(p.role() == Role.CLIENT ? Frame.Mask.OFF : Frame.Mask.ON))));
    DataMessage five = DataMessage.text("12345");
    out.add(Case.of("1.3.2",
        "Send a 5-byte text frame whose length is written in the 16-bit field (§5.2 asks"
            + " senders for the minimal encoding; what a receiver does is not specified).",
        informational(), p -> {
          p.sendRaw(frame(p, Frame.TEXT, five.payload(), 2), "text frame, 5 bytes, 16-bit length");
          p.awaitMessages(1);
        }));
    DataMessage mid = DataMessage.text(ascii(200));
    out.add(Case.of("1.3.3",
        "Send a 200-byte text frame whose length is written in the 64-bit field (not minimal;"
            + " what a receiver does is not specified).",
        informational(), p -> {
          p.sendRaw(frame(p, Frame.TEXT, mid.payload(), 8), "text frame, 200 bytes, 64-bit length");
          p.awaitMessages(1);
        }));
    out.add(Case.of("1.3.4",
        "Send a text frame whose 64-bit length has the most significant bit set (§5.2: it must"
            + " be 0).",
        Expect.fail(new int[] {1002, 1009}), p -> p.sendRaw(concat(
            Frames.header(true, 0, Frame.TEXT, 0x8000_0000_0000_0010L, 8, masks(p), RAW_KEY),
            masked(p, pattern(16))), "text frame header claiming 2^63 + 16 bytes")));
    out.add(Case.of("1.3.5",
        "Send a binary frame header claiming 2^63 - 1 bytes, then a few bytes of it: a receiver"
            + " must not wait for (or allocate) them.",
        Expect.fail(new int[] {1009, 1002}), p -> p.sendRaw(concat(
            Frames.header(true, 0, Frame.BINARY, Long.MAX_VALUE, 8, masks(p), RAW_KEY),
            masked(p, pattern(64))), "binary frame header claiming 2^63 - 1 bytes")));
    DataMessage a = DataMessage.text("first");
    DataMessage b = DataMessage.binary(pattern(300));
    out.add(Case.of("1.3.6",
        "Send two messages and a ping in one write (frames that arrive together).",
        Expect.echo(a, b).pongs(Expect.Pongs.exactly(Frame.utf8("together"))), p -> {
          p.sendRaw(concat(p.encode(Frame.text("first")), p.encode(Frame.binary(b.payload())),
              p.encode(Frame.ping(Frame.utf8("together")))), "text, binary and ping frames");
          p.awaitMessages(2);
          p.awaitPongs(1);
        }));
    DataMessage wide = DataMessage.binary(pattern(70000));
    out.add(Case.of("1.3.7",
        "Send a 70000-byte binary frame whose header (with its 64-bit length) goes out one byte"
            + " at a time, then the payload in one write.",
        Expect.echo(wide), p -> {
          byte[] bytes = p.encode(Frame.binary(wide.payload()));
          int header = bytes.length - wide.payload().length;
          p.sendRaw(Cases.slice(bytes, 0, header), 1, TICK, "binary frame header");
          p.sendRaw(Cases.slice(bytes, header, bytes.length), "its payload");
          p.awaitMessages(1);
        }));
    return out;
  }

  /** Any behaviour is acceptable: the report only shows what the peer did. */
  static Expect informational() {
    return new Expect(
        List.of(new Expect.Behaviour(Verdict.INFORMATIONAL, null, Expect.Pongs.ANY)),
        new Expect.CloseRule(null, null, Verdict.INFORMATIONAL), false);
  }

  private static boolean masks(Peer p) {
    return p.role().masksOutbound();
  }

  private static byte[] masked(Peer p, byte[] payload) {
    byte[] copy = payload.clone();
    if (masks(p)) {
      Frames.xor(copy, RAW_KEY);
    }
    return copy;
  }

  /** A whole frame with the length in the given field, masked as the role requires. */
  private static byte[] frame(Peer p, int opcode, byte[] payload, int lengthBytes) {
    return concat(Frames.header(true, 0, opcode, payload.length, lengthBytes, masks(p), RAW_KEY),
        masked(p, payload));
  }

  private static DataMessage message(boolean text, int size) {
    return text ? DataMessage.text(ascii(size)) : DataMessage.binary(pattern(size));
  }

  private static int opcode(boolean text) {
    return text ? Frame.TEXT : Frame.BINARY;
  }

  private static String lengthField(int size) {
    return size <= 125 ? "7-bit" : size <= 65535 ? "16-bit" : "64-bit";
  }
}
