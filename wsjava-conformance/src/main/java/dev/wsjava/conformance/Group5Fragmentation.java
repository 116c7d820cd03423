package dev.wsjava.conformance;

import static dev.wsjava.conformance.Cases.PAUSE;
import static dev.wsjava.conformance.Cases.TICK;
import static dev.wsjava.conformance.Cases.pattern;
import static dev.wsjava.conformance.Cases.utf8;

import dev.wsjava.conformance.Expect.Pongs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Group 5, fragmentation (RFC 6455 §5.4): a message may come in any number of frames; control
 * frames may come between them but may not be fragmented themselves; a continuation needs a
 * message to continue, and a new message may not start inside one.
 */
final class Group5Fragmentation {
  private static final DataMessage HELLO = DataMessage.text("fragment one, fragment two");

  private Group5Fragmentation() {}

  /** Sends HELLO in two fragments, with an optional frame between, in writes of {@code chop}. */
  private static Script twoFragments(Frame between, int chop, Duration pause) {
    return p -> {
      p.send(Frame.text("fragment one, ").fin(false), chop, TICK);
      if (between != null) {
        p.send(between, chop, TICK);
      }
      p.pause(pause);
      p.send(Frame.continuation(utf8("fragment two")), chop, TICK);
      p.awaitMessages(1);
    };
  }

  static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    out.add(Case.of("5.1", "Send a ping in two fragments (§5.5: control frames are never"
            + " fragmented).",
        Expect.fail(1002), p -> {
          p.send(Frame.ping(utf8("frag")).fin(false));
          p.send(Frame.continuation(utf8("mented")));
        }));
    out.add(Case.of("5.2", "Send a pong in two fragments.",
        Expect.fail(1002), p -> {
          p.send(Frame.pong(utf8("frag")).fin(false));
          p.send(Frame.continuation(utf8("mented")));
        }));
    out.add(Case.of("5.3", "Send a text message in two fragments.",
        Expect.echo(HELLO), twoFragments(null, 0, Duration.ZERO)));
    out.add(Case.of("5.4", "Send a text message in two fragments, written one byte at a time.",
        Expect.echo(HELLO), twoFragments(null, 1, Duration.ZERO)));
    out.add(Case.of("5.5", "Send a text message in two fragments with a pause between them.",
        Expect.echo(HELLO), twoFragments(null, 0, PAUSE)));
    byte[] ping = utf8("between fragments");
    out.add(Case.of("5.6", "Send a text message in two fragments with a ping between them.",
        Expect.echo(HELLO).pongs(Pongs.exactly(ping)),
        twoFragments(Frame.ping(ping), 0, Duration.ZERO)));
    out.add(Case.of("5.7", "As 5.6, with a pause after the ping.",
        Expect.echo(HELLO).pongs(Pongs.exactly(ping)), twoFragments(Frame.ping(ping), 0, PAUSE)));
    out.add(Case.of("5.8", "As 5.6, all frames written one byte at a time.",
        Expect.echo(HELLO).pongs(Pongs.exactly(ping)),
        twoFragments(Frame.ping(ping), 1, Duration.ZERO)));
    out.add(Case.of("5.9",
        "Send a text message in two fragments with an unsolicited pong between them.",
        Expect.echo(HELLO), twoFragments(Frame.pong(ping), 0, Duration.ZERO)));
    out.add(Case.of("5.10", "Send a final continuation frame with no message to continue.",
        Expect.fail(1002), p -> p.send(Frame.continuation(utf8("orphan")))));
    out.add(Case.of("5.11", "As 5.10, written one byte at a time.",
        Expect.fail(1002), p -> p.send(Frame.continuation(utf8("orphan")), 1, TICK)));
    out.add(Case.of("5.12",
        "Send a non-final continuation and then a final one, with no message started.",
        Expect.fail(1002), p -> {
          p.send(Frame.continuation(utf8("orphan, ")).fin(false));
          p.send(Frame.continuation(utf8("still orphan")));
        }));
    DataMessage done = DataMessage.text("a complete message");
    out.add(Case.of("5.13",
        "Send a complete text message, then a final continuation frame (nothing to continue).",
        Expect.fail(1002, done), p -> {
          p.send(Frame.text(done.payload()));
          p.send(Frame.continuation(utf8("orphan")));
        }));
    out.add(Case.of("5.14",
        "Send a text message in two fragments, then a non-final continuation and a text frame.",
        Expect.fail(1002, HELLO), p -> {
          p.send(Frame.text("fragment one, ").fin(false));
          p.send(Frame.continuation(utf8("fragment two")));
          p.send(Frame.continuation(utf8("orphan, ")).fin(false));
          p.send(Frame.text("new message"));
        }));
    out.add(Case.of("5.15",
        "Start a text message, then start another text message before the first is finished.",
        Expect.fail(1002), p -> {
          p.send(Frame.text("fragment one, ").fin(false));
          p.send(Frame.text("a new message inside"));
        }));
    out.add(Case.of("5.16",
        "Start a text message, then send a binary frame before the first is finished.",
        Expect.fail(1002), p -> {
          p.send(Frame.text("fragment one, ").fin(false));
          p.send(Frame.binary(pattern(8)));
        }));
    out.add(Case.of("5.17",
        "Start a binary message, then start a text message before it is finished.",
        Expect.fail(1002), p -> {
          p.send(Frame.binary(pattern(8)).fin(false));
          p.send(Frame.text("a new message inside").fin(false));
          p.send(Frame.continuation(utf8("end")));
        }));
    out.add(Case.of("5.18", "Send a close frame in two fragments.",
        Expect.answer(Expect.CloseRule.ok(1002), Verdict.OK), p -> {
          p.send(Frame.close(1000, "").fin(false));
          p.send(Frame.continuation(utf8("rest")));
        }));
    int n = 0;
    for (int fragments : new int[] {1, 2, 10, 100, 1000}) {
      byte[] payload = pattern(fragments * 7);
      DataMessage m = DataMessage.binary(payload);
      out.add(Case.of("5.19." + ++n,
          "Send a binary message of " + payload.length + " bytes in " + fragments
              + " fragment(s).",
          Expect.echo(m), p -> {
            Cases.sendFragmented(p, false, payload, 7);
            p.awaitMessages(1);
          }));
    }
    String text = Cases.ascii(100);
    DataMessage hundred = DataMessage.text(text);
    out.add(Case.of("5.19." + ++n, "Send a text message of 100 bytes in 100 one-byte fragments.",
        Expect.echo(hundred), p -> {
          Cases.sendFragmented(p, true, hundred.payload(), 1);
          p.awaitMessages(1);
        }));
    DataMessage withEmpty = DataMessage.text("middle");
    out.add(Case.of("5.20",
        "Send a text message whose first, third and last fragments are empty.",
        Expect.echo(withEmpty), p -> {
          p.send(Frame.text("").fin(false));
          p.send(Frame.continuation(utf8("mid")).fin(false));
          p.send(Frame.continuation(new byte[0]).fin(false));
          p.send(Frame.continuation(utf8("dle")).fin(false));
          p.send(Frame.continuation(new byte[0]));
          p.awaitMessages(1);
        }));
    out.add(pingsBetween("5.21", "Send a text message in five fragments with a ping after each"
        + " of the first four, pausing between frames.", 0));
    out.add(pingsBetween("5.22", "As 5.21, every frame written one byte at a time.", 1));
    return out;
  }

  private static Case pingsBetween(String id, String description, int chop) {
    List<byte[]> pings = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      pings.add(utf8("ping " + i));
    }
    DataMessage whole = DataMessage.text("one two three four five");
    String[] parts = {"one ", "two ", "three ", "four ", "five"};
    return Case.of(id, description,
        Expect.echo(whole).pongs(Pongs.exactly(pings.toArray(byte[][]::new))), p -> {
          for (int i = 0; i < parts.length; i++) {
            Frame f = Frame.of(i == 0 ? Frame.TEXT : Frame.CONTINUATION, utf8(parts[i]))
                .fin(i == parts.length - 1);
            p.send(f, chop, TICK);
            if (i < pings.size()) {
              p.send(Frame.ping(pings.get(i)), chop, TICK);
              p.pause(TICK);
            }
          }
          p.awaitMessages(1);
          p.awaitPong(pings.get(pings.size() - 1));
        });
  }
}
