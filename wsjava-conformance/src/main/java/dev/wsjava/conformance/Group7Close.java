package dev.wsjava.conformance;

import static dev.wsjava.conformance.Cases.concat;
import static dev.wsjava.conformance.Cases.hex;
import static dev.wsjava.conformance.Cases.utf8;

import dev.wsjava.conformance.Expect.CloseRule;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Group 7, the closing handshake (RFC 6455 §5.5.1, §7): the peer answers the suite's close with a
 * close (echoing the code), sends and processes nothing after it, and the server closes TCP first;
 * a close frame with a one-byte payload, more than 125 bytes, a code that may not be sent, or a
 * reason that is not UTF-8 fails the connection.
 */
final class Group7Close {
  /**
   * Codes a peer may send (§7.4.1) and application codes, in the reference suite's order so that
   * 7.7.1-7.7.13 are its cases; then 1012-1014, registered with IANA after RFC 6455.
   */
  private static final int[] VALID = {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000,
      3999, 4000, 4999, 1012, 1013, 1014};
  /**
   * Codes that may not appear in a close frame, in the reference suite's order so that
   * 7.9.1-7.9.9 are its cases; then four more.
   */
  private static final int[] INVALID = {0, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999, 1, 1015,
      5000, 65535};

  private Group7Close() {}

  static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    out.addAll(afterClose());
    out.addAll(payloads());
    int n = 0;
    for (int code : VALID) {
      out.add(validCode("7.7." + ++n, code));
    }
    n = 0;
    for (int code : INVALID) {
      out.add(invalidCode("7.9." + ++n, code));
    }
    return out;
  }

  private static Expect answered1000() {
    return Expect.answer(CloseRule.ok(1000), Verdict.FAILED);
  }

  /** 7.1: what comes after a close is not processed. */
  private static List<Case> afterClose() {
    DataMessage hello = DataMessage.text("Hello, close");
    DataMessage big = DataMessage.text(Cases.ascii(256 * 1024));
    List<Case> out = new ArrayList<>();
    out.add(Case.of("7.1.1", "Send a text message, wait for its echo, then close with 1000.",
        Expect.echo(hello), p -> {
          p.send(Frame.text(hello.payload()));
          p.awaitMessages(1);
          p.send(Frame.close(1000, ""));
        }));
    out.add(Case.of("7.1.2", "Send two close frames: the peer answers the first only.",
        answered1000(), p -> {
          p.send(Frame.close(1000, ""));
          p.send(Frame.close(1000, "again"));
        }));
    out.add(Case.of("7.1.3", "Send a close frame, then a ping: the ping is not answered.",
        answered1000(), p -> {
          p.send(Frame.close(1000, ""));
          p.send(Frame.ping(utf8("after the close")));
        }));
    out.add(Case.of("7.1.4", "Send a close frame, then a text message: it is not echoed.",
        answered1000(), p -> {
          p.send(Frame.close(1000, ""));
          p.send(Frame.text("after the close"));
        }));
    out.add(Case.of("7.1.5", "Start a fragmented text message, send a close frame, then the"
        + " final fragment: the message is not echoed.", answered1000(), p -> {
          p.send(Frame.text("fragment one, ").fin(false));
          p.send(Frame.close(1000, ""));
          p.send(Frame.continuation(utf8("fragment two")));
        }));
    out.add(Case.of("7.1.6", "Send a 256 KiB text message, a close frame and a ping at once: the"
            + " message is echoed before the close answer, the ping is not answered.",
        Expect.answer(CloseRule.ok(1000), Verdict.FAILED, big)
            .or(Verdict.NON_STRICT, List.of(), Expect.Pongs.NONE), p -> {
          p.send(Frame.text(big.payload()));
          p.send(Frame.close(1000, ""));
          p.send(Frame.ping(utf8("after the close")));
        }));
    out.add(Case.of("7.1.7", "Send a close frame followed at once by bytes that are no frame:"
        + " the peer answers the close and ignores the rest.", answered1000(), p -> {
          p.send(Frame.close(1000, ""));
          p.sendRaw(Cases.random(32, 7), "garbage after the close");
        }));
    return out;
  }

  /** 7.3 and 7.5: close payloads of every shape. */
  private static List<Case> payloads() {
    List<Case> out = new ArrayList<>();
    out.add(Case.of("7.3.1", "Send a close frame without payload: the answer has no code or 1000.",
        Expect.answer(CloseRule.ok(1005, 1000), Verdict.FAILED),
        p -> p.send(Frame.close(new byte[0]))));
    out.add(Case.of("7.3.2", "Send a close frame with a one-byte payload (§5.5.1: a code is two"
            + " bytes).", Expect.answer(CloseRule.ok(1002), Verdict.OK),
        p -> p.send(Frame.close(new byte[] {0x03}))));
    out.add(Case.of("7.3.3", "Send a close frame with code 1000 and no reason.", answered1000(),
        p -> p.send(Frame.close(1000, ""))));
    out.add(Case.of("7.3.4", "Send a close frame with code 1000 and a short reason.",
        answered1000(), p -> p.send(Frame.close(1000, "that is all, thanks"))));
    out.add(Case.of("7.3.5", "Send a close frame with code 1000 and a 123-byte reason (a"
        + " 125-byte payload, the most a control frame holds).", answered1000(),
        p -> p.send(Frame.close(1000, Cases.ascii(123)))));
    out.add(Case.of("7.3.6", "Send a close frame with code 1000 and a 124-byte reason (a"
            + " 126-byte payload).", Expect.answer(CloseRule.ok(1002), Verdict.OK),
        p -> p.send(Frame.close(1000, Cases.ascii(124)))));
    out.add(Case.of("7.3.7", "Send a close frame with code 1000 and a reason of two-, three- and"
        + " four-byte characters.", answered1000(),
        p -> p.send(Frame.close(1000, "\u00e0 bient\u00f4t \u2014 \u518d\u89c1 \ud83d\udc4b"))));
    String[][] bad = {
        {"an overlong encoding", "c0 af"},
        {"a character cut short at its end", "e2 82"},
        {"an encoded surrogate", "ed a0 80"}};
    int n = 0;
    for (String[] b : bad) {
      byte[] payload = concat(code(1000), utf8("reason with "), hex(b[1]));
      out.add(Case.of("7.5." + ++n, "Send a close frame with code 1000 and a reason that is not"
              + " UTF-8: " + b[0] + " (§8.1: the connection fails).",
          Expect.answer(CloseRule.ok(1007, 1002), Verdict.OK),
          p -> p.send(Frame.close(payload))));
    }
    return out;
  }

  private static Case validCode(String id, int code) {
    Map<Integer, Verdict> answers = new LinkedHashMap<>();
    answers.put(code, Verdict.OK);
    answers.put(1000, Verdict.OK);
    String note = "";
    if (code >= 1012 && code <= 1014) {
      // Registered with IANA after RFC 6455; an older peer may refuse them.
      answers.put(1002, Verdict.NON_STRICT);
      note = " (registered with IANA after RFC 6455; refusing it is NON-STRICT)";
    }
    return Case.of(id, "Send a close frame with the valid code " + code + note
            + ": the peer answers with the same code or 1000.",
        Expect.answer(answers, Verdict.FAILED),
        p -> p.send(Frame.close(code, "code " + code)));
  }

  /**
   * As the reference suite grades 7.9: the peer fails the connection with 1002 (or drops TCP);
   * answering with any other code, the one received or 1000 included, is FAILED.
   */
  private static Case invalidCode(String id, int code) {
    String why = code < 1000 ? "below 1000, never used"
        : code <= 1006 || code == 1015 ? "reserved, never sent on the wire"
        : code < 3000 ? "reserved for future protocol revisions" : "above 4999";
    return Case.of(id, "Send a close frame with code " + code + " (" + why + "): the peer"
            + " fails the connection with 1002.",
        Expect.answer(CloseRule.ok(1002), Verdict.OK), p -> p.send(Frame.close(code(code))));
  }

  private static byte[] code(int code) {
    return ByteBuffer.allocate(2).putShort((short) code).array();
  }
}
