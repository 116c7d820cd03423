package dev.wsjava.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * RFC 6455 §5.2 round trip: any valid sequence of frames (messages of one to four fragments, RSV
 * bits on first frames, pings and pongs between fragments, payloads around each length encoding's
 * boundary), encoded with any masks and parsed from any chunking of the wire, comes back frame by
 * frame: FIN, RSV, opcode, mask key and payload.
 */
class FrameRoundTripTest {

  record Frame(boolean fin, int rsv, Opcode opcode, byte[] payload, int maskKey) {}

  @Property(tries = 300)
  void parseOfEncodeGivesEveryFrameBackUnderAnyChunking(
      @ForAll("frameSequences") List<Frame> frames,
      @ForAll boolean clientToServer,
      @ForAll @Size(min = 1, max = 8) List<@IntRange(min = 1, max = 5000) Integer> chunkSizes) {
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    for (Frame f : frames) {
      int length = f.payload().length;
      ByteBuffer out = ByteBuffer.allocate(FrameEncoder.headerLength(length, clientToServer) + length);
      FrameEncoder.encode(out, f.fin(), f.rsv(), f.opcode(), ByteBuffer.wrap(f.payload()),
          clientToServer, f.maskKey());
      assertThat(out.hasRemaining()).as("headerLength predicts the encoded size").isFalse();
      wire.writeBytes(out.array());
    }
    FrameParser parser = new FrameParser(clientToServer ? Role.SERVER : Role.CLIENT, Limits.DEFAULTS);
    parser.allowRsv(0x70);
    List<Frame> parsed = new ArrayList<>();
    ByteArrayOutputStream payload = new ByteArrayOutputStream();
    FrameHeader header = null;
    byte[] bytes = wire.toByteArray();
    int at = 0;
    for (int i = 0; at < bytes.length; i++) {
      int n = Math.min(bytes.length - at, chunkSizes.get(i % chunkSizes.size()));
      // Each chunk in an array of its own, at an offset, as a socket read might leave it.
      byte[] chunk = new byte[n + 7];
      System.arraycopy(bytes, at, chunk, 3, n);
      ByteBuffer in = ByteBuffer.wrap(chunk, 3, n);
      at += n;
      FrameParser.Event e;
      while ((e = next(parser, in)) != FrameParser.Event.NEED_MORE) {
        switch (e) {
          case HEADER -> {
            header = parser.header();
            payload.reset();
          }
          case PAYLOAD -> {
            ByteBuffer p = parser.payload();
            payload.write(p.array(), p.arrayOffset() + p.position(), p.remaining());
          }
          case FRAME_END -> parsed.add(new Frame(header.fin(), header.rsv(), header.opcode(),
              payload.toByteArray(), header.masked() ? header.maskKey() : 0));
          default -> throw new AssertionError(e);
        }
      }
    }
    assertThat(parsed).hasSameSizeAs(frames);
    for (int i = 0; i < frames.size(); i++) {
      Frame want = frames.get(i);
      Frame got = parsed.get(i);
      assertThat(got.fin()).as("FIN of frame " + i).isEqualTo(want.fin());
      assertThat(got.rsv()).as("RSV of frame " + i).isEqualTo(want.rsv());
      assertThat(got.opcode()).as("opcode of frame " + i).isEqualTo(want.opcode());
      assertThat(got.maskKey()).as("mask key of frame " + i)
          .isEqualTo(clientToServer ? want.maskKey() : 0);
      assertThat(got.payload()).as("payload of frame " + i).isEqualTo(want.payload());
    }
  }

  private static FrameParser.Event next(FrameParser parser, ByteBuffer in) {
    try {
      return parser.next(in);
    } catch (ProtocolException e) {
      throw new AssertionError("a valid frame sequence was refused", e);
    }
  }

  @Provide
  Arbitrary<List<Frame>> frameSequences() {
    return message().list().ofMinSize(1).ofMaxSize(4)
        .map(messages -> messages.stream().flatMap(List::stream).toList());
  }

  /** One data message in one to four fragments, each fragment possibly followed by a control. */
  private Arbitrary<List<Frame>> message() {
    Arbitrary<Opcode> type = Arbitraries.of(Opcode.TEXT, Opcode.BINARY);
    Arbitrary<Integer> rsv = Arbitraries.of(0, 0x10, 0x20, 0x40, 0x70);
    Arbitrary<List<byte[]>> fragments = payload(70_000).list().ofMinSize(1).ofMaxSize(4);
    Arbitrary<List<Frame>> controls = control().list().ofSize(4);
    Arbitrary<List<Integer>> keys = Arbitraries.integers().list().ofSize(8);
    return Combinators.combine(type, rsv, fragments, controls, keys)
        .as((t, r, parts, ctl, k) -> {
          List<Frame> out = new ArrayList<>();
          for (int i = 0; i < parts.size(); i++) {
            boolean first = i == 0;
            out.add(new Frame(i == parts.size() - 1, first ? r : 0,
                first ? t : Opcode.CONTINUATION, parts.get(i), k.get(i)));
            Frame c = ctl.get(i);
            if (c != null) {
              out.add(new Frame(true, 0, c.opcode(), c.payload(), k.get(4 + i)));
            }
          }
          return out;
        });
  }

  /** A ping or pong of 0-125 bytes, or (as often) none. */
  private Arbitrary<Frame> control() {
    return Combinators.combine(Arbitraries.of(Opcode.PING, Opcode.PONG), payload(125))
        .as((op, p) -> p.length > 125 ? null : new Frame(true, 0, op, p, 0))
        .injectNull(0.5);
  }

  /** Payloads of any length up to {@code max}, often at an edge of a length encoding (§5.2). */
  static Arbitrary<byte[]> payload(int max) {
    Arbitrary<Integer> edges = Arbitraries.of(0, 1, 125, 126, 127, 65535, 65536)
        .filter(n -> n <= max);
    Arbitrary<Integer> lengths = Arbitraries.frequencyOf(
        Tuple.of(2, edges),
        Tuple.of(3, Arbitraries.integers().between(0, Math.min(max, 300))),
        Tuple.of(1, Arbitraries.integers().between(0, max)));
    return Combinators.combine(lengths, Arbitraries.longs()).as((n, seed) -> {
      byte[] a = new byte[n];
      new SplittableRandom(seed).nextBytes(a);
      return a;
    });
  }
}
