package dev.wsjava.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wsjava.internal.deflate.DeflateExtension;
import dev.wsjava.extension.Extension;
import dev.wsjava.extension.ExtensionFactory;
import dev.wsjava.extension.PerMessageDeflate;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The compressor for windows below 15 bits fed arbitrary messages. Input: byte 0 picks the window
 * (8 + b % 7 bits), byte 1 the level, byte 2 context takeover (bit 0) and how many times the data
 * repeats (the rest: 1 to 128, so that slides of the window buffer happen), byte 3 the frame
 * split; the rest is the message, sent twice. Every message must come back whole through the
 * JDK's inflater, the last frame without the flush's {@code 00 00 ff ff}.
 */
class WindowedDeflateFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void compressAndInflate(byte[] data) throws Exception {
    int windowBits = 8 + Chunks.at(data, 0) % 7;
    int level = Chunks.at(data, 1) % 10;
    int flags = Chunks.at(data, 2);
    boolean reset = (flags & 1) != 0;
    int repeat = 1 + (flags >>> 1);
    ByteArrayOutputStream m = new ByteArrayOutputStream();
    for (int i = 0; i < repeat; i++) {
      m.write(data, Math.min(4, data.length), Math.max(0, data.length - 4));
    }
    byte[] message = m.toByteArray();
    PerMessageDeflate client = PerMessageDeflate.builder()
        .serverMaxWindowBits(windowBits)
        .serverNoContextTakeover(reset)
        .build();
    PerMessageDeflate server = PerMessageDeflate.builder()
        .compressionLevel(level)
        .minCompressSize(0)
        .build();
    ExtensionFactory.Accepted accepted = server.serverAccept(client.clientOffers());
    try (DeflateExtension sender = (DeflateExtension) accepted.extension();
        Extension receiver = client.clientAccept(accepted.response())) {
      assertThat(sender.outboundWindowBits()).isEqualTo(windowBits);
      for (int round = 0; round < 2; round++) {
        List<ByteBuffer> frames = Chunks.split(message, 0, Chunks.at(data, 3));
        if (frames.isEmpty()) {
          frames = List.of(ByteBuffer.allocate(0));
        }
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        ByteArrayOutputStream last = new ByteArrayOutputStream();
        for (int i = 0; i < frames.size(); i++) {
          ByteArrayOutputStream frame = i == frames.size() - 1 ? last : wire;
          int rsv = sender.encode(i == 0, i == frames.size() - 1, frames.get(i), c -> {
            byte[] b = new byte[c.remaining()];
            c.get(b);
            frame.writeBytes(b);
          });
          assertThat(rsv).isEqualTo(i == 0 ? Extension.RSV1 : 0);
          assertThat(frames.get(i).hasRemaining()).isFalse();
        }
        byte[] tail = last.toByteArray();
        assertThat(tail.length).isPositive();
        assertThat(tail[tail.length - 1]).as("the last octet holds the empty block's header")
            .isNotEqualTo((byte) 0xff);
        wire.writeBytes(tail);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        receiver.decode(Extension.RSV1, true, ByteBuffer.wrap(wire.toByteArray()), c -> {
          byte[] b = new byte[c.remaining()];
          c.get(b);
          got.writeBytes(b);
        });
        assertThat(got.toByteArray()).isEqualTo(message);
      }
    }
  }
}
