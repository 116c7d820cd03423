package dev.wsjava.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wsjava.extension.ByteSink;
import dev.wsjava.extension.Extension;
import dev.wsjava.extension.ExtensionFactory;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.CloseCode;
import dev.wsjava.protocol.LimitExceededException;
import dev.wsjava.ProtocolException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The permessage-deflate inflate path fed arbitrary compressed frames. Input: byte 0 picks no
 * context takeover (bit 0) and, as a seed, where messages end; byte 1 the frame split; the rest is
 * the compressed payload. A sink that refuses more than {@link #LIMIT} bytes per message stands for
 * the message-size limit: its exception must come out unchanged and stop inflation at once (no
 * decompression bomb), and only {@link ProtocolException} may escape.
 */
class DeflateFuzzTest {
  static final int LIMIT = 4096;
  static final int MAX_CHUNK = 16 * 1024;

  /** Counts a message's bytes and refuses past the limit. */
  static final class LimitedSink implements ByteSink {
    long total;
    LimitExceededException thrown;

    @Override
    public void accept(ByteBuffer chunk) throws ProtocolException {
      assertThat(thrown).as("bytes written after the sink refused").isNull();
      assertThat(chunk.remaining()).isLessThanOrEqualTo(MAX_CHUNK);
      total += chunk.remaining();
      chunk.position(chunk.limit());
      if (total > LIMIT) {
        thrown = new LimitExceededException(CloseCode.MESSAGE_TOO_BIG, "message", total, LIMIT);
        throw thrown;
      }
    }
  }

  @FuzzTest(maxDuration = "30s")
  void inflate(byte[] data) throws Exception {
    int flags = Chunks.at(data, 0);
    PerMessageDeflate config =
        PerMessageDeflate.builder().clientNoContextTakeover((flags & 1) != 0).build();
    ExtensionFactory.Accepted accepted = config.serverAccept(config.clientOffers());
    Extension server = accepted.extension(); // inflates what a client sends
    SplittableRandom ends = new SplittableRandom(flags);
    List<ByteBuffer> frames = Chunks.split(data, Math.min(2, data.length), Chunks.at(data, 1));
    LimitedSink sink = new LimitedSink();
    try {
      for (int i = 0; i < frames.size(); i++) {
        boolean fin = i == frames.size() - 1 || ends.nextInt(4) == 0;
        ByteBuffer frame = frames.get(i);
        server.decode(Extension.RSV1, fin, frame, sink);
        assertThat(frame.hasRemaining()).as("decode consumes the payload").isFalse();
        assertThat(sink.total).isLessThanOrEqualTo(LIMIT);
        if (fin) {
          sink = new LimitedSink();
        }
      }
    } catch (LimitExceededException e) {
      assertThat(e).as("the sink's own exception").isSameAs(sink.thrown);
    } catch (ProtocolException e) {
      assertThat(e.closeCode()).isEqualTo(CloseCode.INVALID_PAYLOAD);
    } finally {
      server.close();
    }
  }
}
