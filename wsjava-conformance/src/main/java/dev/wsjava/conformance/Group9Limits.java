package dev.wsjava.conformance;

import static dev.wsjava.conformance.Cases.size;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Group 9, limits and throughput: large messages whole, in many fragments and chopped into small
 * writes, and many small messages one round trip after the other. Nothing here is a protocol
 * corner; each case's duration, in the report, is the figure of interest. The reduced size set
 * (up to 1 MiB) runs by default, the full one (up to 16 MiB) on request.
 */
final class Group9Limits {
  private static final int KIB = 1024;
  private static final int MIB = 1024 * 1024;

  private Group9Limits() {}

  static List<Case> cases(boolean full) {
    List<Case> out = new ArrayList<>();
    int[] whole = full ? new int[] {64 * KIB, 256 * KIB, MIB, 4 * MIB, 8 * MIB, 16 * MIB}
        : new int[] {64 * KIB, 256 * KIB, MIB};
    int fragmented = full ? 4 * MIB : MIB;
    int[] fragments = {64, 256, KIB, 4 * KIB, 16 * KIB, 64 * KIB, 256 * KIB, MIB, 4 * MIB};
    int chopped = full ? MIB : 256 * KIB;
    int[] chops = {64, 128, 256, 512, KIB, 2 * KIB};
    int roundTrips = full ? 1000 : 100;
    int[] small = {0, 16, 64, 256, KIB, 4 * KIB};
    for (int sub = 0; sub < 2; sub++) {
      boolean text = sub == 0;
      int n = 0;
      for (int s : whole) {
        DataMessage m = message(text, s);
        out.add(big("9." + (1 + sub) + "." + ++n, "Send a " + kind(text) + " message of "
            + size(s) + " in one frame.", m, p -> {
              p.send(Frame.of(m.text() ? Frame.TEXT : Frame.BINARY, m.payload()));
              p.awaitMessages(1);
            }));
      }
    }
    for (int sub = 0; sub < 2; sub++) {
      boolean text = sub == 0;
      int n = 0;
      DataMessage m = message(text, fragmented);
      for (int f : fragments) {
        if (f > fragmented) {
          continue;
        }
        out.add(big("9." + (3 + sub) + "." + ++n, "Send a " + kind(text) + " message of "
            + size(fragmented) + " in fragments of " + size(f) + ".", m, p -> {
              Cases.sendFragmented(p, text, m.payload(), f);
              p.awaitMessages(1);
            }));
      }
    }
    for (int sub = 0; sub < 2; sub++) {
      boolean text = sub == 0;
      int n = 0;
      DataMessage c = message(text, chopped);
      for (int chop : chops) {
        out.add(big("9." + (5 + sub) + "." + ++n, "Send a " + kind(text) + " message of "
            + size(chopped) + " in one frame, written in pieces of " + size(chop) + ".", c,
            p -> {
              p.send(Frame.of(text ? Frame.TEXT : Frame.BINARY, c.payload()), chop,
                  Duration.ZERO);
              p.awaitMessages(1);
            }));
      }
    }
    for (int sub = 0; sub < 2; sub++) {
      boolean text = sub == 0;
      int n = 0;
      for (int s : small) {
        DataMessage one = message(text, s);
        List<DataMessage> all = Collections.nCopies(roundTrips, one);
        out.add(Case.of("9." + (7 + sub) + "." + ++n, "Send " + roundTrips + " " + kind(text)
            + " messages of " + size(s) + ", each after the echo of the one before (round"
            + " trips).", Expect.echo(all), p -> {
              for (int i = 1; i <= roundTrips; i++) {
                p.send(Frame.of(text ? Frame.TEXT : Frame.BINARY, one.payload()));
                if (!p.awaitMessages(i)) {
                  return;
                }
              }
            }).withTimeout(Duration.ofSeconds(30)));
      }
    }
    return out;
  }

  /** A one-message echo case with a timeout that grows with the size. */
  private static Case big(String id, String description, DataMessage m, Script script) {
    Duration timeout = Case.DEFAULT_TIMEOUT.plusSeconds(3L * m.payload().length / MIB);
    return Case.of(id, description, Expect.echo(m), script).withTimeout(timeout);
  }

  private static String kind(boolean text) {
    return text ? "text" : "binary";
  }

  private static DataMessage message(boolean text, int size) {
    return text ? DataMessage.text(Cases.ascii(size)) : DataMessage.binary(Cases.pattern(size));
  }
}
