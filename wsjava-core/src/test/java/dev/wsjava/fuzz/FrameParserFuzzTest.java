package dev.wsjava.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wsjava.protocol.FrameParser;
import dev.wsjava.protocol.Limits;
import dev.wsjava.ProtocolException;
import dev.wsjava.protocol.Role;
import java.nio.ByteBuffer;

/**
 * The frame parser fed arbitrary bytes in both roles, with small limits. Input: byte 0 picks the
 * role (bit 0) and the RSV bits an extension owns (bits 4-6), byte 1 the chunking, the rest is the
 * wire. The parser fails exactly where {@link FrameRules} says the wire first breaks a rule, with
 * its close code (1002 or 1009), and nowhere else.
 */
class FrameParserFuzzTest {
  static final Limits LIMITS = new Limits(128, 256, 4);

  @FuzzTest(maxDuration = "30s")
  void frames(byte[] data) {
    int flags = Chunks.at(data, 0);
    Role role = (flags & 1) == 0 ? Role.SERVER : Role.CLIENT;
    FrameParser parser = new FrameParser(role, LIMITS);
    parser.allowRsv(flags & 0x70);
    FrameRules.Verdict expected =
        FrameRules.judge(data, Math.min(2, data.length), role == Role.SERVER, flags & 0x70, LIMITS);
    long frameLength = -1;
    long seen = 0;
    int headers = 0;
    try {
      for (ByteBuffer in : Chunks.split(data, Math.min(2, data.length), Chunks.at(data, 1))) {
        while (true) {
          int before = in.position();
          FrameParser.Event e = parser.next(in);
          assertThat(in.position()).isBetween(before, in.limit());
          if (e == FrameParser.Event.NEED_MORE) {
            assertThat(in.hasRemaining()).as("NEED_MORE consumes all input").isFalse();
            break;
          }
          switch (e) {
            case HEADER -> {
              assertThat(frameLength).as("header inside a frame").isEqualTo(-1);
              headers++;
              frameLength = parser.payloadLength();
              seen = 0;
              assertThat(frameLength).isBetween(0L, LIMITS.maxFramePayload());
              if (parser.opcode().isControl()) {
                assertThat(frameLength).isLessThanOrEqualTo(125);
                assertThat(parser.fin()).isTrue();
              }
              assertThat(parser.rsv() & ~(flags & 0x70)).isZero();
            }
            case PAYLOAD -> {
              assertThat(frameLength).as("payload outside a frame").isNotEqualTo(-1);
              seen += parser.payload().remaining();
              assertThat(seen).isLessThanOrEqualTo(frameLength);
            }
            case FRAME_END -> {
              assertThat(seen).isEqualTo(frameLength);
              frameLength = -1;
            }
            default -> throw new AssertionError(e);
          }
        }
      }
      assertThat(expected.fails()).as("the parser took a wire that breaks a rule: " + expected).isFalse();
    } catch (ProtocolException e) {
      assertThat(expected.fails()).as("failed with " + e.getMessage() + " on a valid wire").isTrue();
      assertThat(e.closeCode()).as(e.getMessage()).isEqualTo(expected.code());
      assertThat(headers).as("frames before the failing header").isEqualTo(expected.headersBefore());
    }
  }
}
