package dev.wsjava.conformance;

import static dev.wsjava.conformance.Cases.TICK;
import static dev.wsjava.conformance.Cases.pattern;
import static dev.wsjava.conformance.Cases.utf8;

import dev.wsjava.conformance.Expect.Pongs;
import java.util.ArrayList;
import java.util.List;

/**
 * Group 3, reserved bits (RFC 6455 §5.2): RSV1-3 must be 0 unless an extension defines them; no
 * extension is negotiated here, so any set bit fails the connection with 1002, whichever the frame,
 * whatever came before, and frames after it are not processed.
 */
final class Group3ReservedBits {
  private Group3ReservedBits() {}

  static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    for (int rsv = 1; rsv <= 7; rsv++) {
      int bits = rsv;
      out.add(Case.of("3.1." + rsv,
          "Send a text frame with RSV bits " + bits(bits) + " set.",
          Expect.fail(1002), p -> p.send(Frame.text("reserved bits").rsv(bits))));
    }
    DataMessage before = DataMessage.text("a valid message first");
    byte[] after = utf8("ping after the bad frame");
    out.add(Case.of("3.2.1",
        "Send a valid text message, then a text frame with RSV2 set, then a ping: the message is"
            + " echoed, the ping is not answered.",
        Expect.fail(1002, before), p -> {
          p.send(Frame.text(before.payload()));
          p.send(Frame.text("reserved bits").rsv(2));
          p.send(Frame.ping(after));
        }));
    out.add(Case.of("3.2.2",
        "As 3.2.1 with RSV1|RSV2, the bad frame written one byte at a time.",
        Expect.fail(1002, before), p -> {
          p.send(Frame.text(before.payload()));
          p.send(Frame.text("reserved bits").rsv(6), 1, TICK);
          p.send(Frame.ping(after));
        }));
    out.add(Case.of("3.2.3",
        "As 3.2.1 with RSV1|RSV3 on a binary frame, all three frames in one write.",
        Expect.fail(1002, before), p -> p.sendRaw(Cases.concat(
            p.encode(Frame.text(before.payload())),
            p.encode(Frame.binary(pattern(40)).rsv(5)),
            p.encode(Frame.ping(after))), "text, binary with RSV 5, ping")));
    out.add(Case.of("3.3.1", "Send a binary frame with RSV1 set.",
        Expect.fail(1002), p -> p.send(Frame.binary(pattern(16)).rsv(4))));
    out.add(Case.of("3.3.2", "Send a ping with RSV2|RSV3 set.",
        Expect.fail(1002), p -> p.send(Frame.ping(utf8("ping")).rsv(3))));
    out.add(Case.of("3.3.3", "Send a pong with RSV1 set.",
        Expect.fail(1002), p -> p.send(Frame.pong(utf8("pong")).rsv(4))));
    out.add(Case.of("3.3.4",
        "Send a close frame (1000) with all RSV bits set: the peer fails the connection"
            + " rather than closing normally.",
        Expect.answer(Expect.CloseRule.ok(1002), Verdict.OK),
        p -> p.send(Frame.close(1000, "").rsv(7))));
    out.add(Case.of("3.3.5",
        "Send a text message in two fragments, the continuation with RSV3 set.",
        Expect.fail(1002), p -> {
          p.send(Frame.text("fragment one, ").fin(false));
          p.send(Frame.continuation(utf8("fragment two")).rsv(1));
        }));
    byte[] first = utf8("first ping");
    out.add(Case.of("3.4.1",
        "Send a ping, a text frame with RSV1 set, and a second ping: the first ping is answered,"
            + " the second is not.",
        Expect.fail(1002).pongs(Pongs.exactly(first))
            .or(Verdict.NON_STRICT, List.of(), Pongs.NONE), p -> {
          p.send(Frame.ping(first));
          p.awaitPong(first);
          p.send(Frame.text("reserved bits").rsv(4));
          p.send(Frame.ping(after));
        }));
    return out;
  }

  private static String bits(int rsv) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      if ((rsv & (4 >> i)) != 0) {
        names.add("RSV" + (i + 1));
      }
    }
    return String.join("|", names);
  }
}
