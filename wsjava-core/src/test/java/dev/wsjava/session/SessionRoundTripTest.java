package dev.wsjava.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.extension.Extension;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.protocol.Role;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Property: messages sent by one session, whole or in fragments, arrive at its peer session
 * unchanged, whatever the chunking of the bytes between them.
 */
class SessionRoundTripTest {

  record Message(Opcode type, byte[] payload) {}

  static Message randomMessage(SplittableRandom r) {
    int[] sizes = {0, 1, 125, 126, 65535, 65536, 200_000};
    int len = r.nextInt(4) == 0 ? sizes[r.nextInt(sizes.length)] : r.nextInt(2000);
    if (r.nextBoolean()) {
      StringBuilder sb = new StringBuilder();
      String alphabet = "abc xyz{}\":,0123 é€😀ß";
      while (sb.length() < len) {
        sb.appendCodePoint(alphabet.codePointAt(alphabet.offsetByCodePoints(0, r.nextInt(alphabet.codePointCount(0, alphabet.length())))));
      }
      return new Message(Opcode.TEXT, sb.toString().getBytes(StandardCharsets.UTF_8));
    }
    byte[] b = new byte[len];
    r.nextBytes(b);
    return new Message(Opcode.BINARY, b);
  }

  /** Sends random messages from {@code from} and checks {@code to} receives them all. */
  static void check(SplittableRandom r, Session from, Session to) throws Exception {
    List<Message> sent = new ArrayList<>();
    int count = 1 + r.nextInt(8);
    for (int i = 0; i < count; i++) {
      Message m = randomMessage(r);
      sent.add(m);
      if (r.nextBoolean() || m.payload().length < 2) {
        from.sendMessage(m.type(), ByteBuffer.wrap(m.payload()));
      } else {
        // Fragment at random points; the first fragment may even be empty.
        int at = 0;
        int n = m.payload().length;
        while (true) {
          int next = Math.min(n, at + r.nextInt(1 + n / 2));
          boolean fin = next == n;
          from.sendFragment(m.type(), ByteBuffer.wrap(m.payload(), at, next - at), fin);
          if (r.nextInt(5) == 0 && !fin) {
            from.sendPing(ByteBuffer.wrap(new byte[] {1, 2, 3}));
          }
          at = next;
          if (fin) {
            break;
          }
        }
      }
    }
    byte[] wire = drainRaw(from);
    Recorder events = new Recorder();
    int step = r.nextInt(3) == 0 ? 1 + r.nextInt(7) : 1 + r.nextInt(70_000);
    for (int off = 0; off < wire.length; off += step) {
      to.receive(ByteBuffer.wrap(wire, off, Math.min(step, wire.length - off)).slice(), events);
    }
    assertThat(events.failure).as("no failure").isNull();
    assertThat(events.messages).hasSameSizeAs(sent);
    for (int i = 0; i < sent.size(); i++) {
      assertThat(events.messages.get(i)).as("message " + i).isEqualTo(sent.get(i).payload());
    }
  }

  static byte[] drainRaw(Session s) {
    java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
    ByteBuffer[] gather = new ByteBuffer[3];
    while (s.hasOutbound()) {
      int n = s.gatherOutbound(gather, 0);
      long w = 0;
      for (int i = 0; i < n; i++) {
        byte[] a = Recorder.bytes(gather[i]);
        all.writeBytes(a);
        gather[i].position(gather[i].limit());
        w += a.length;
      }
      s.written(w);
    }
    return all.toByteArray();
  }

  static Session session(Role role, Supplier<List<Extension>> extensions) {
    return new Session(role, SessionConfig.DEFAULTS, extensions.get());
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void messagesArriveUnchangedBothWays(long seed) throws Exception {
    SplittableRandom r = new SplittableRandom(seed);
    check(r, session(Role.CLIENT, List::of), session(Role.SERVER, List::of));
    check(r, session(Role.SERVER, List::of), session(Role.CLIENT, List::of));
  }
}
