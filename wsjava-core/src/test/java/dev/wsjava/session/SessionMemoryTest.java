package dev.wsjava.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.extension.Extension;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.protocol.Limits;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.protocol.Role;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The receiving half on a memory budget: with no room it stops consuming and leaves the bytes as
 * they came; fed again once memory is back, it delivers exactly the message that was sent.
 */
class SessionMemoryTest {
  static final int G = MemoryBudget.GRANT;

  final Recorder events = new Recorder();
  final MemoryBudget budget = new MemoryBudget(4L * G, Duration.ofSeconds(10), System::nanoTime);

  static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new SplittableRandom(seed).nextBytes(b);
    return b;
  }

  /** The wire bytes of a message a client sends in fragments of {@code fragment} bytes. */
  static byte[] fragmented(byte[] message, int fragment, List<Extension> extensions) {
    // Frames as the caller cut them: no outbound frame size splits them further.
    Session client =
        new Session(Role.CLIENT, new SessionConfig(Limits.DEFAULTS, true, false, Integer.MAX_VALUE), extensions);
    for (int at = 0; at < message.length; at += fragment) {
      int n = Math.min(fragment, message.length - at);
      client.sendFragment(
          Opcode.BINARY, ByteBuffer.wrap(message, at, n), at + n == message.length);
    }
    return SessionRoundTripTest.drainRaw(client);
  }

  Session server(List<Extension> extensions) {
    Session s =
        new Session(
            Role.SERVER, SessionConfig.DEFAULTS.withLimits(Limits.DEFAULTS), extensions);
    s.chargeMemoryTo(budget.open());
    return s;
  }

  @Test
  void aMessageLargerThanTheFreeBudgetWaitsAndArrivesWholeOnceMemoryIsBack() {
    MemoryBudget.Account other = budget.open();
    assertThat(other.charge(3L * G)).isTrue(); // one grant left for this connection
    byte[] message = random(3 * G, 1);
    ByteBuffer wire = ByteBuffer.wrap(fragmented(message, 1000, List.of()));
    Session server = server(List.of());

    server.receive(wire, events);
    assertThat(server.stalledFor()).isPositive();
    assertThat(wire.hasRemaining()).isTrue();
    assertThat(events.events).isEmpty();
    assertThat(budget.reserved()).isLessThanOrEqualTo(budget.capacity());

    other.release(3L * G);
    server.receive(wire, events);
    assertThat(server.stalledFor()).isZero();
    assertThat(wire.hasRemaining()).isFalse();
    assertThat(events.messages).hasSize(1);
    assertThat(events.messages.get(0)).isEqualTo(message);
  }

  @Test
  void aStalledSessionResumesAtAnyByteBoundaryOfAMaskedFrame() {
    MemoryBudget.Account other = budget.open();
    byte[] message = random(2 * G + 333, 2);
    byte[] wire = fragmented(message, 7_001, List.of());
    Session server = server(List.of());
    // Feed in odd pieces; between pieces, the budget flips between spent and free.
    int at = 0;
    SplittableRandom r = new SplittableRandom(3);
    ByteBuffer pending = ByteBuffer.allocate(0);
    while (at < wire.length || pending.hasRemaining()) {
      if (!pending.hasRemaining()) {
        int n = Math.min(wire.length - at, 1 + r.nextInt(20_000));
        pending = ByteBuffer.wrap(wire, at, n);
        at += n;
      }
      boolean tight = r.nextBoolean();
      if (tight) {
        other.charge(budget.capacity() - budget.reserved());
      }
      server.receive(pending, events);
      other.releaseAll();
      if (tight && server.stalledFor() > 0) {
        server.receive(pending, events); // memory is back: the same bytes again
      }
      assertThat(server.stalledFor()).isZero();
    }
    assertThat(events.messages).hasSize(1);
    assertThat(events.messages.get(0)).isEqualTo(message);
  }

  @Test
  void aDeflateBombStallsAfterOneInflatedChunkAndResumesExactly() throws Exception {
    PerMessageDeflate deflate = PerMessageDeflate.builder().minCompressSize(0).build();
    Extension[] ext = SessionDeflateTest.negotiate(deflate);
    byte[] message = new byte[2 * G + 5]; // zeros: inflates about a thousandfold
    ByteBuffer wire = ByteBuffer.wrap(fragmented(message, message.length, List.of(ext[0])));
    Session server = server(List.of(ext[1]));
    MemoryBudget.Account other = budget.open();
    other.charge(4L * G); // the budget is spent

    int stalls = 0;
    // A stall may come with every byte consumed (inflated output still to take): feed again.
    while (wire.hasRemaining() || server.stalledFor() > 0) {
      server.receive(wire, events);
      if (server.stalledFor() > 0) {
        stalls++;
        // At most one inflated chunk (16 KiB, so one grant) past the budget.
        assertThat(budget.reserved())
            .as("stall %d", stalls)
            .isLessThanOrEqualTo(budget.capacity() + G);
        // As a transport does, feed again only once the budget has room for what it waits for.
        while (budget.capacity() - budget.reserved() < server.stalledFor() && other.used() > 0) {
          other.release(G); // the application frees memory elsewhere, a grant at a time
        }
      }
    }
    assertThat(stalls).isPositive();
    assertThat(events.failure).isNull();
    assertThat(events.messages).hasSize(1);
    assertThat(events.messages.get(0)).isEqualTo(message);
  }

  @Test
  void closingGivesTheMessagesMemoryBack() {
    byte[] message = random(3 * G, 4);
    byte[] wire = fragmented(message, 1000, List.of());
    Session server = server(List.of());
    server.receive(ByteBuffer.wrap(wire, 0, wire.length / 2), events); // half a message
    assertThat(budget.reserved()).isPositive();
    server.fail(1008, "evicted", events);
    assertThat(budget.reserved()).isZero();
    assertThat(events.events).containsExactly("failure:1008");
  }

  @Test
  void caseNine31_aMessageOf4MiBIn64ByteFragmentsIsAcceptedByDefault() {
    byte[] message = random(4 << 20, 6);
    byte[] wire = fragmented(message, 64, List.of()); // 65,536 frames
    Session server =
        new Session(Role.SERVER, SessionConfig.DEFAULTS, List.of());
    server.receive(ByteBuffer.wrap(wire), events);
    assertThat(events.failure).isNull();
    assertThat(events.messages).hasSize(1);
    assertThat(events.messages.get(0)).isEqualTo(message);
  }

  @Test
  void aFragmentCapIsAnOptIn() {
    byte[] wire = fragmented(random(1000, 7), 10, List.of()); // 100 frames
    Session server =
        new Session(
            Role.SERVER,
            SessionConfig.DEFAULTS.withLimits(Limits.DEFAULTS.withMaxFragments(99)),
            List.of());
    server.receive(ByteBuffer.wrap(wire), events);
    assertThat(events.failure).isNotNull();
    assertThat(events.failure.closeCode()).isEqualTo(1009);
    assertThat(events.failure.getMessage()).contains("fragment count").contains("100");
  }

  @Test
  void aSmallMessageInOneReadChargesNothing() {
    Session server = server(List.of());
    byte[] wire = fragmented(random(100, 5), 100, List.of());
    server.receive(ByteBuffer.wrap(wire), events);
    assertThat(budget.reserved()).isZero();
    assertThat(events.messages).hasSize(1);
  }

}
