package dev.wsjava.conformance;

import static dev.wsjava.conformance.Cases.slice;
import static dev.wsjava.conformance.Cases.utf8;

import dev.wsjava.conformance.Expect.Pongs;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Group 10, fragmentation of large messages (RFC 6455 §5.4): a large message sent as many frames
 * of whatever size reassembles to the same message, with control frames between the fragments
 * and characters split across frame boundaries. The peer may echo it in fragments of its own.
 */
final class Group10AutoFragmentation {
  private Group10AutoFragmentation() {}

  static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    byte[] text = utf8(Cases.ascii(65536));
    out.add(fragmented("10.1.1", "Send a 64 KiB text message in 1300-byte frames.",
        DataMessage.text(text), 1300));
    out.add(fragmented("10.1.2", "Send a 64 KiB binary message in 1300-byte frames.",
        DataMessage.binary(Cases.pattern(65536)), 1300));
    byte[] wide = utf8("\u20ac".repeat(21846));
    out.add(fragmented("10.1.3", "Send a 64 KiB text message of three-byte characters in"
        + " 1000-byte frames, so that frames end inside characters.", DataMessage.text(wide), 1000));
    byte[] random = Cases.random(100 * 1024, 10);
    DataMessage r = DataMessage.binary(random);
    out.add(Case.of("10.1.4", "Send a 100 KiB binary message in frames of random sizes from 1 to"
        + " 5000 bytes.", Expect.echo(r), p -> {
          SplittableRandom sizes = new SplittableRandom(104);
          int off = 0;
          while (off < random.length) {
            int n = Math.min(sizes.nextInt(1, 5001), random.length - off);
            p.send(Frame.of(off == 0 ? Frame.BINARY : Frame.CONTINUATION,
                slice(random, off, off + n)).fin(off + n == random.length));
            off += n;
          }
          p.awaitMessages(1);
        }));
    byte[] quarter = utf8(Cases.ascii(256 * 1024));
    List<byte[]> pings = new ArrayList<>();
    for (int i = 0; i < 64; i += 16) {
      pings.add(utf8("after frame " + i));
    }
    DataMessage q = DataMessage.text(quarter);
    out.add(Case.of("10.1.5", "Send a 256 KiB text message in 4096-byte frames with a ping after"
            + " every sixteenth frame.",
        Expect.echo(q).pongs(Pongs.exactly(pings.toArray(byte[][]::new))), p -> {
          for (int i = 0; i < 64; i++) {
            p.send(Frame.of(i == 0 ? Frame.TEXT : Frame.CONTINUATION,
                slice(quarter, i * 4096, (i + 1) * 4096)).fin(i == 63));
            if (i % 16 == 0) {
              p.send(Frame.ping(pings.get(i / 16)));
            }
          }
          p.awaitMessages(1);
          p.awaitPong(pings.get(pings.size() - 1));
        }));
    return out;
  }

  private static Case fragmented(String id, String description, DataMessage m, int size) {
    return Case.of(id, description, Expect.echo(m), p -> {
      Cases.sendFragmented(p, m.text(), m.payload(), size);
      p.awaitMessages(1);
    });
  }
}
