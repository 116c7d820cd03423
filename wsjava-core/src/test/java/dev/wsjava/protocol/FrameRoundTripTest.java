package dev.wsjava.protocol;

import dev.wsjava.ProtocolException;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * RFC 6455 §5.2 round trip: any valid sequence of frames (messages of one to four fragments, RSV
 * bits on first frames, pings and pongs between fragments, payloads around each length encoding's
 * boundary), encoded with any masks and parsed from any chunking of the wire, comes back frame by
 * frame: FIN, RSV, opcode, mask key and payload. Seeded: each case is drawn from its seed, which is
 * in the case's name ({@code -Dwsjava.seed=S} reruns one); a failing case is shrunk to the fewest
 * of its frames that still make a valid stream and still fail.
 */
class FrameRoundTripTest {

  record Frame(boolean fin, int rsv, Opcode opcode, byte[] payload, int maskKey) {
    @Override
    public String toString() {
      return opcode + (fin ? "" : " (not FIN)") + (rsv != 0 ? " rsv " + Integer.toHexString(rsv)
          : "") + " " + payload.length + " B key " + String.format("%08x", maskKey);
    }
  }

  /** Lengths at the edges of the 7-bit, 16-bit and 64-bit length encodings. */
  private static final int[] EDGE_LENGTHS = {0, 1, 125, 126, 127, 65535, 65536};

  private static final int[] EDGE_KEYS = {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE};

  private static final int[] RSV = {0, 0x10, 0x20, 0x40, 0x70};

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void parseOfEncodeGivesEveryFrameBackUnderAnyChunking(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Frame> frames = new ArrayList<>();
    for (int n = 1 + r.nextInt(4); n > 0; n--) {
      frames.addAll(message(r));
    }
    boolean clientToServer = r.nextBoolean();
    int[] chunkSizes = new int[1 + r.nextInt(8)];
    for (int i = 0; i < chunkSizes.length; i++) {
      chunkSizes[i] = switch (r.nextInt(4)) {
        case 0 -> 1 + r.nextInt(3); // splits headers, extended lengths and mask keys
        case 1 -> 1 + r.nextInt(16);
        default -> 1 + r.nextInt(5000);
      };
    }
    Shrink.check(seed, frames, FrameRoundTripTest::validSequence,
        f -> String.format("%s, wire read in chunks of %s bytes, frames: %s",
            clientToServer ? "client to server" : "server to client",
            Arrays.toString(chunkSizes), f),
        f -> roundTrip(f, clientToServer, chunkSizes));
  }

  /**
   * Whether the frames are a valid stream so far (RFC 6455 §5.4): a continuation exactly when a
   * message is open; controls anywhere. A message may still be open at the end.
   */
  static boolean validSequence(List<Frame> frames) {
    boolean inMessage = false;
    for (Frame f : frames) {
      if (!f.opcode().isControl()) {
        if (inMessage != (f.opcode() == Opcode.CONTINUATION)) {
          return false;
        }
        inMessage = !f.fin();
      }
    }
    return true;
  }

  private static void roundTrip(List<Frame> frames, boolean clientToServer, int[] chunkSizes) {
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    for (Frame f : frames) {
      int length = f.payload().length;
      ByteBuffer out = ByteBuffer.allocate(FrameEncoder.headerLength(length, clientToServer) + length);
      FrameEncoder.encode(out, f.fin(), f.rsv(), f.opcode(), ByteBuffer.wrap(f.payload()),
          clientToServer, f.maskKey());
      assertThat(out.hasRemaining()).as("headerLength predicts the encoded size of " + f).isFalse();
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
      int n = Math.min(bytes.length - at, chunkSizes[i % chunkSizes.length]);
      // Each chunk in an array of its own, at an offset, as a socket read might leave it.
      byte[] chunk = new byte[n + 7];
      System.arraycopy(bytes, at, chunk, 3, n);
      ByteBuffer in = ByteBuffer.wrap(chunk, 3, n);
      at += n;
      FrameParser.Event e;
      while ((e = next(parser, in, at)) != FrameParser.Event.NEED_MORE) {
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
    assertThat(parsed).as("frames parsed").hasSameSizeAs(frames);
    for (int i = 0; i < frames.size(); i++) {
      Frame want = frames.get(i);
      Frame got = parsed.get(i);
      assertThat(got.fin()).as("FIN of frame " + i).isEqualTo(want.fin());
      assertThat(got.rsv()).as("RSV of frame " + i).isEqualTo(want.rsv());
      assertThat(got.opcode()).as("opcode of frame " + i).isEqualTo(want.opcode());
      assertThat(got.maskKey()).as("mask key of frame " + i)
          .isEqualTo(clientToServer ? want.maskKey() : 0);
      assertThat(got.payload().length).as("payload length of frame " + i)
          .isEqualTo(want.payload().length);
      assertThat(Arrays.mismatch(got.payload(), want.payload()))
          .as("first payload byte of frame " + i + " that differs").isEqualTo(-1);
    }
  }

  private static FrameParser.Event next(FrameParser parser, ByteBuffer in, int readSoFar) {
    try {
      return parser.next(in);
    } catch (ProtocolException e) {
      throw new AssertionError(
          "a valid frame sequence was refused, " + readSoFar + " bytes into the wire", e);
    }
  }

  /** One data message in one to four fragments, each fragment followed by a control or (as often) not. */
  private static List<Frame> message(SplittableRandom r) {
    Opcode type = r.nextBoolean() ? Opcode.TEXT : Opcode.BINARY;
    int rsv = RSV[r.nextInt(RSV.length)];
    int fragments = 1 + r.nextInt(4);
    List<Frame> out = new ArrayList<>();
    for (int i = 0; i < fragments; i++) {
      boolean first = i == 0;
      out.add(new Frame(i == fragments - 1, first ? rsv : 0, first ? type : Opcode.CONTINUATION,
          payload(r, 70_000), maskKey(r)));
      if (r.nextBoolean()) {
        out.add(new Frame(true, 0, r.nextBoolean() ? Opcode.PING : Opcode.PONG, payload(r, 125),
            maskKey(r)));
      }
    }
    return out;
  }

  private static int maskKey(SplittableRandom r) {
    return r.nextInt(8) == 0 ? EDGE_KEYS[r.nextInt(EDGE_KEYS.length)] : r.nextInt();
  }

  /** A payload of any length up to {@code max}, often at an edge of a length encoding (§5.2). */
  static byte[] payload(SplittableRandom r, int max) {
    int n;
    do {
      n = switch (r.nextInt(6)) {
        case 0, 1 -> EDGE_LENGTHS[r.nextInt(EDGE_LENGTHS.length)];
        case 2, 3, 4 -> r.nextInt(Math.min(max, 300) + 1);
        default -> r.nextInt(max + 1);
      };
    } while (n > max);
    byte[] a = new byte[n];
    r.nextBytes(a);
    return a;
  }
}
