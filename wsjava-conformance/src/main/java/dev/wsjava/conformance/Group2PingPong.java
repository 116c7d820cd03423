package dev.wsjava.conformance;

import static dev.wsjava.conformance.Cases.PAUSE;
import static dev.wsjava.conformance.Cases.TICK;
import static dev.wsjava.conformance.Cases.hex;
import static dev.wsjava.conformance.Cases.pattern;
import static dev.wsjava.conformance.Cases.utf8;

import dev.wsjava.conformance.Expect.Pongs;
import java.util.ArrayList;
import java.util.List;

/**
 * Group 2, pings and pongs (RFC 6455 §5.5.2, §5.5.3): a ping is answered by a pong with the same
 * application data; a pong nobody asked for is ignored; a control frame carries at most 125 bytes.
 */
final class Group2PingPong {
  private Group2PingPong() {}

  static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    out.add(ping("2.1", "Send a ping without payload.", new byte[0], 0));
    out.add(ping("2.2", "Send a ping with a short text payload.", utf8("Hello, ping"), 0));
    out.add(ping("2.3", "Send a ping with a binary payload (zero bytes, high bytes).",
        hex("00 ff fe 00 01 80 7f c0 00"), 0));
    out.add(ping("2.4", "Send a ping with the largest payload allowed, 125 bytes.", pattern(125), 0));
    out.add(Case.of("2.5", "Send a ping with 126 bytes of payload (§5.5 allows 125).",
        Expect.fail(1002), p -> p.send(Frame.ping(pattern(126)))));
    out.add(ping("2.6", "Send a ping with 125 bytes of payload, written one byte at a time.",
        pattern(125), 1));
    DataMessage alive = DataMessage.text("still there?");
    out.add(Case.of("2.7",
        "Send an unsolicited pong without payload, then a text message: the pong is ignored.",
        Expect.echo(alive), p -> {
          p.send(Frame.pong(new byte[0]));
          p.send(Frame.text(alive.payload()));
          p.awaitMessages(1);
        }));
    out.add(Case.of("2.8",
        "Send an unsolicited pong with a payload, then a text message: the pong is ignored.",
        Expect.echo(alive), p -> {
          p.send(Frame.pong(utf8("a heartbeat nobody asked for")));
          p.send(Frame.text(alive.payload()));
          p.awaitMessages(1);
        }));
    byte[] after = utf8("ping after an unsolicited pong");
    out.add(Case.of("2.9",
        "Send an unsolicited pong, then a ping: only the ping is answered.",
        Expect.echo().pongs(Pongs.exactly(after)), p -> {
          p.send(Frame.pong(utf8("unsolicited")));
          p.send(Frame.ping(after));
          p.awaitPong(after);
        }));
    out.add(pings("2.10", "Send ten pings in a row, then a text message.", 0));
    out.add(pings("2.11",
        "Send ten pings in a row, each written one byte at a time, then a text message.", 1));
    DataMessage whole = DataMessage.text("Hello, fragmented world");
    byte[] middle = utf8("in the middle");
    out.add(Case.of("2.12",
        "Send a text message in two fragments with a ping between them: the pong may come"
            + " before the message is complete (§5.4: control frames may be injected).",
        Expect.echo(whole).pongs(Pongs.exactly(middle)), p -> {
          p.send(Frame.text("Hello, fragmented ").fin(false));
          p.send(Frame.ping(middle));
          p.pause(PAUSE);
          p.send(Frame.continuation(utf8("world")));
          p.awaitMessages(1);
          p.awaitPong(middle);
        }));
    out.add(Case.of("2.13", "Send a pong with 126 bytes of payload (§5.5 allows 125).",
        Expect.fail(1002), p -> p.send(Frame.pong(pattern(126)))));
    return out;
  }

  private static Case ping(String id, String description, byte[] payload, int chop) {
    return Case.of(id, description, Expect.echo().pongs(Pongs.exactly(payload)), p -> {
      p.send(Frame.ping(payload), chop, TICK);
      p.awaitPong(payload);
    });
  }

  private static Case pings(String id, String description, int chop) {
    List<byte[]> payloads = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      payloads.add(utf8("ping " + i));
    }
    DataMessage after = DataMessage.text("after ten pings");
    // §5.5.3 would let a peer answer only the most recent ping; the reference suite checks for
    // a pong per ping all the same, and so does this case.
    return Case.of(id, description + " Every ping is answered, in order.",
        Expect.echo(after).pongs(Pongs.exactly(payloads.toArray(byte[][]::new))), p -> {
          for (byte[] payload : payloads) {
            p.send(Frame.ping(payload), chop, TICK);
          }
          p.send(Frame.text(after.payload()));
          p.awaitMessages(1);
          p.awaitPongs(payloads.size());
        });
  }
}
