package dev.wsjava.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Property: for random frame sequences and random chunkings, parse(encode(frames)) == frames. */
class FrameRoundTripTest {

  record Frame(boolean fin, Opcode opcode, byte[] payload) {}

  /** A valid frame sequence: messages of 1..4 fragments with control frames between them. */
  static List<Frame> randomFrames(SplittableRandom r) {
    List<Frame> frames = new ArrayList<>();
    int messages = 1 + r.nextInt(5);
    for (int m = 0; m < messages; m++) {
      int fragments = 1 + r.nextInt(4);
      Opcode type = r.nextBoolean() ? Opcode.TEXT : Opcode.BINARY;
      for (int f = 0; f < fragments; f++) {
        frames.add(new Frame(f == fragments - 1, f == 0 ? type : Opcode.CONTINUATION, payload(r)));
        if (r.nextInt(4) == 0) {
          Opcode control = r.nextBoolean() ? Opcode.PING : Opcode.PONG;
          frames.add(new Frame(true, control, randomBytes(r, r.nextInt(126))));
        }
      }
    }
    return frames;
  }

  static byte[] payload(SplittableRandom r) {
    // Lengths around each encoding boundary, and some large ones.
    int[] interesting = {0, 1, 125, 126, 127, 65535, 65536, 70000};
    int len = r.nextInt(3) == 0 ? interesting[r.nextInt(interesting.length)] : r.nextInt(300);
    return randomBytes(r, len);
  }

  static byte[] randomBytes(SplittableRandom r, int n) {
    byte[] a = new byte[n];
    r.nextBytes(a);
    return a;
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void parseOfEncodeIsIdentityUnderAnyChunking(long seed) throws Exception {
    SplittableRandom r = new SplittableRandom(seed);
    boolean clientToServer = r.nextBoolean();
    List<Frame> frames = randomFrames(r);
    int total = 0;
    for (Frame f : frames) {
      total += FrameEncoder.headerLength(f.payload().length, clientToServer) + f.payload().length;
    }
    ByteBuffer wire = ByteBuffer.allocate(total);
    for (Frame f : frames) {
      if (r.nextBoolean()) {
        FrameEncoder.encode(
            wire, f.fin(), 0, f.opcode(), ByteBuffer.wrap(f.payload()), clientToServer, r.nextInt());
      } else {
        FrameEncoder.encode(
            wire, f.fin(), 0, f.opcode(), f.payload(), 0, f.payload().length, clientToServer,
            r.nextInt());
      }
    }
    assertThat(wire.hasRemaining()).as("headerLength predicts the encoded size").isFalse();
    byte[] bytes = wire.array();

    FrameParser parser =
        new FrameParser(clientToServer ? Role.SERVER : Role.CLIENT, Limits.DEFAULTS);
    int step = switch (r.nextInt(4)) {
      case 0 -> 1;
      case 1 -> 1 + r.nextInt(16);
      case 2 -> 1 + r.nextInt(4096);
      default -> bytes.length;
    };
    List<FrameParserTest.Parsed> parsed = FrameParserTest.parseAll(parser, bytes, step);
    assertThat(parsed).hasSameSizeAs(frames);
    for (int i = 0; i < frames.size(); i++) {
      Frame want = frames.get(i);
      FrameHeader got = parsed.get(i).header();
      assertThat(got.fin()).isEqualTo(want.fin());
      assertThat(got.opcode()).isEqualTo(want.opcode());
      assertThat(got.masked()).isEqualTo(clientToServer);
      assertThat(got.rsv()).isZero();
      assertThat(parsed.get(i).payload()).isEqualTo(want.payload());
    }
  }
}
