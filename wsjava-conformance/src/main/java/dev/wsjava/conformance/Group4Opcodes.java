package dev.wsjava.conformance;

import static dev.wsjava.conformance.Cases.utf8;

import java.util.ArrayList;
import java.util.List;

/**
 * Group 4, opcodes (RFC 6455 §5.2): %x3-7 are reserved for further data frames and %xB-F for
 * further control frames; receiving one fails the connection with 1002, whether it is empty or
 * carries a payload, and whatever came before.
 */
final class Group4Opcodes {
  private Group4Opcodes() {}

  static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    int[][] ranges = {{3, 7}, {11, 15}};
    for (int r = 0; r < 2; r++) {
      int n = 0;
      for (int op = ranges[r][0]; op <= ranges[r][1]; op++) {
        int opcode = op;
        out.add(Case.of("4." + (r + 1) + "." + ++n,
            "Send an empty frame with the reserved " + kind(r) + " opcode " + opcode + ".",
            Expect.fail(1002), p -> p.send(Frame.of(opcode, new byte[0]))));
      }
    }
    DataMessage before = DataMessage.text("a valid message first");
    for (int r = 0; r < 2; r++) {
      int n = 0;
      for (int op = ranges[r][0]; op <= ranges[r][1]; op++) {
        int opcode = op;
        out.add(Case.of("4." + (r + 3) + "." + ++n,
            "Send a valid text message, then a frame with the reserved " + kind(r) + " opcode "
                + opcode + " and a payload, then a ping (which is not answered).",
            Expect.fail(1002, before), p -> {
              p.send(Frame.text(before.payload()));
              p.send(Frame.of(opcode, utf8("reserved opcode payload")));
              p.send(Frame.ping(utf8("after the bad frame")));
            }));
      }
    }
    out.add(Case.of("4.5.1",
        "Send a text message in two fragments with a frame of reserved opcode 5 between them.",
        Expect.fail(1002), p -> {
          p.send(Frame.text("fragment one").fin(false));
          p.send(Frame.of(5, utf8("reserved")).fin(false));
          p.send(Frame.continuation(utf8(", fragment two")));
        }));
    return out;
  }

  private static String kind(int range) {
    return range == 0 ? "data" : "control";
  }
}
