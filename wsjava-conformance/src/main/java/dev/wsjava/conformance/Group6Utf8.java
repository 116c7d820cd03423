package dev.wsjava.conformance;

import static dev.wsjava.conformance.Cases.TICK;
import static dev.wsjava.conformance.Cases.concat;
import static dev.wsjava.conformance.Cases.hex;
import static dev.wsjava.conformance.Cases.slice;
import static dev.wsjava.conformance.Cases.utf8;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Group 6, UTF-8 (RFC 6455 §5.6, §8.1): a text message must be valid UTF-8 as a whole, however
 * it is fragmented; invalid text fails the connection with 1007. Failing as soon as the text
 * cannot become valid is the strict behaviour (OK); failing only at the end of the message is
 * NON-STRICT. Each class of vectors is sent whole and split into two fragments at every byte.
 */
final class Group6Utf8 {
  /** Vectors longer than this are sent whole only. */
  private static final int MAX_SPLIT = 12;

  private Group6Utf8() {}

  static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    out.addAll(empty());
    out.addAll(validSplit());
    out.addAll(invalidMessage());
    out.addAll(failFast());
    int sub = 5;
    for (Utf8Vectors.Family family : Utf8Vectors.FAMILIES) {
      out.addAll(family(sub++, family));
    }
    return out;
  }

  private static List<Case> empty() {
    DataMessage none = DataMessage.text("");
    DataMessage middle = DataMessage.text("middle");
    return List.of(
        Case.of("6.1.1", "Send an empty text message.", Expect.echo(none), p -> {
          p.send(Frame.text(""));
          p.awaitMessages(1);
        }),
        Case.of("6.1.2", "Send a text message of three empty fragments.", Expect.echo(none), p -> {
          p.send(Frame.text("").fin(false));
          p.send(Frame.continuation(new byte[0]).fin(false));
          p.send(Frame.continuation(new byte[0]));
          p.awaitMessages(1);
        }),
        Case.of("6.1.3", "Send a text message of an empty fragment, 'middle', and an empty"
            + " fragment.", Expect.echo(middle), p -> {
              p.send(Frame.text("").fin(false));
              p.send(Frame.continuation(middle.payload()).fin(false));
              p.send(Frame.continuation(new byte[0]));
              p.awaitMessages(1);
            }));
  }

  /** 6.2: one valid message with characters of every length, fragmented every way. */
  private static List<Case> validSplit() {
    byte[] text = utf8("Z\u00fcrich \u2192 \u6771\u4eac \ud83d\ude84!");
    DataMessage m = DataMessage.text(text);
    List<Case> out = new ArrayList<>();
    int n = 0;
    out.add(Case.of("6.2." + ++n, "Send a valid text message with characters of one to four"
        + " bytes (" + text.length + " bytes) in one frame.", Expect.echo(m), p -> {
          p.send(Frame.text(text));
          p.awaitMessages(1);
        }));
    for (int k = 1; k < text.length; k++) {
      int at = k;
      out.add(Case.of("6.2." + ++n, "Send the message of 6.2.1 in two fragments split after byte "
          + at + (Utf8Check.isValid(slice(text, 0, at)) ? " (a character boundary)."
              : " (inside a character)."), Expect.echo(m), p -> {
                p.send(Frame.text(slice(text, 0, at)).fin(false));
                p.send(Frame.continuation(slice(text, at, text.length)));
                p.awaitMessages(1);
              }));
    }
    out.add(Case.of("6.2." + ++n, "Send the message of 6.2.1 in one-byte fragments.",
        Expect.echo(m), p -> {
          Cases.sendFragmented(p, true, text, 1);
          p.awaitMessages(1);
        }));
    out.add(Case.of("6.2." + ++n, "Send the message of 6.2.1 in three-byte fragments.",
        Expect.echo(m), p -> {
          Cases.sendFragmented(p, true, text, 3);
          p.awaitMessages(1);
        }));
    out.add(Case.of("6.2." + ++n, "Send the message of 6.2.1 in one frame written one byte at a"
        + " time.", Expect.echo(m), p -> {
          p.send(Frame.text(text), 1, TICK);
          p.awaitMessages(1);
        }));
    return out;
  }

  /** 6.3: one invalid message (a surrogate in the middle of valid text), sent three ways. */
  private static List<Case> invalidMessage() {
    byte[] text = concat(utf8("valid \u00e9 text, then "), hex("ed a0 80"), utf8(" and more"));
    return List.of(
        Case.of("6.3.1", "Send a text message with an encoded surrogate (ED A0 80) in the middle,"
            + " in one frame.", Expect.fail(1007), p -> p.send(Frame.text(text))),
        Case.of("6.3.2", "Send the message of 6.3.1 in one-byte fragments.",
            Expect.fail(1007), p -> Cases.sendFragmented(p, true, text, 1)),
        Case.of("6.3.3", "Send the message of 6.3.1 in one frame written one byte at a time.",
            Expect.fail(1007), p -> p.send(Frame.text(text), 1, TICK)));
  }

  /**
   * 6.4: the peer should fail as soon as the text cannot be valid: the suite sends the text up to
   * and including the first bad byte, waits, and only then sends the rest.
   */
  private static List<Case> failFast() {
    String[][] bad = {
        {"an overlong '/' (C0 AF)", "c0 af"},
        {"a surrogate (ED A0 80)", "ed a0 80"},
        {"a code point beyond U+10FFFF (F4 90 80 80)", "f4 90 80 80"},
        {"a five-byte sequence (F8 88 80 80 80)", "f8 88 80 80 80"},
        {"a stray continuation byte (80)", "80"},
        {"byte FE", "fe"},
        {"an overlong three-byte sequence (E0 80 AF)", "e0 80 af"},
        {"a lead byte followed by a space (C2 20)", "c2 20"}};
    List<Case> out = new ArrayList<>();
    int n = 0;
    for (String[] b : bad) {
      byte[] text = concat(utf8("fail fast: caf\u00e9 "), hex(b[1]),
          utf8(Cases.ascii(200)));
      int cut = Utf8Check.firstInvalid(text) + 1;
      out.add(Case.of("6.4." + ++n, "Send a text message containing " + b[0] + " in two"
          + " fragments, the first ending just after the first invalid byte; pause; send the"
          + " rest.", Expect.fail(1007).failingFast(), p -> {
            p.send(Frame.text(slice(text, 0, cut)).fin(false));
            if (!p.checkpoint()) {
              p.send(Frame.continuation(slice(text, cut, text.length)));
            }
          }));
      out.add(Case.of("6.4." + ++n, "Send a text message containing " + b[0] + " in one frame,"
          + " written in two pieces, the first ending just after the first invalid byte; pause;"
          + " send the rest.", Expect.fail(1007).failingFast(), p -> {
            byte[] frame = p.encode(Frame.text(text));
            int split = frame.length - text.length + cut;
            p.sendRaw(slice(frame, 0, split), "text frame, first piece");
            if (!p.checkpoint()) {
              p.sendRaw(slice(frame, split, frame.length), "text frame, the rest");
            }
          }));
    }
    return out;
  }

  private static List<Case> family(int sub, Utf8Vectors.Family family) {
    List<Case> out = new ArrayList<>();
    int n = 0;
    for (Utf8Vectors.Vector v : family.vectors()) {
      out.add(Case.of("6." + sub + "." + ++n, "Send a text message of " + describe(v)
          + " in one frame.", expect(v, false), p -> {
            p.send(Frame.text(v.bytes()));
            if (v.valid()) {
              p.awaitMessages(1);
            }
          }));
    }
    for (Utf8Vectors.Vector v : family.vectors()) {
      byte[] b = v.bytes();
      if (b.length > MAX_SPLIT) {
        continue;
      }
      int bad = Utf8Check.firstInvalid(b);
      for (int k = 1; k < b.length; k++) {
        int at = k;
        boolean early = bad >= 0 && bad < at;
        out.add(Case.of("6." + sub + "." + ++n, "Send a text message of " + describe(v)
            + " in two fragments split after byte " + at + (early
                ? "; the first fragment already holds the first invalid byte, so the suite"
                    + " pauses before the second." : "."),
            expect(v, early), p -> {
              p.send(Frame.text(slice(b, 0, at)).fin(false));
              if (early && p.checkpoint()) {
                return;
              }
              p.send(Frame.continuation(slice(b, at, b.length)));
              if (v.valid()) {
                p.awaitMessages(1);
              }
            }));
      }
    }
    return out;
  }

  private static Expect expect(Utf8Vectors.Vector v, boolean failFast) {
    if (v.valid()) {
      return Expect.echo(DataMessage.text(v.bytes()));
    }
    Expect e = Expect.fail(1007);
    return failFast ? e.failingFast() : e;
  }

  private static String describe(Utf8Vectors.Vector v) {
    String hex = HexFormat.ofDelimiter(" ").withUpperCase().formatHex(v.bytes());
    return v.name() + (v.bytes().length <= MAX_SPLIT ? " (" + hex + ")" : "")
        + (v.valid() ? ", valid" : ", invalid");
  }
}
