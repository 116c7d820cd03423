package dev.wsjava.transport.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FramePoolTest {
  @Test
  void buffersComeBackClearedAndAreReusedBySize() {
    FramePool pool = new FramePool();
    ByteBuffer chunk = pool.takeChunk();
    ByteBuffer large = pool.take();
    assertThat(chunk.isDirect()).isTrue();
    assertThat(chunk.capacity()).isEqualTo(FramePool.CHUNK);
    assertThat(large.capacity()).isEqualTo(FramePool.SIZE);
    chunk.put((byte) 1);
    pool.give(chunk);
    pool.give(large);
    assertThat(pool.kept()).isEqualTo(2);
    ByteBuffer again = pool.takeChunk();
    assertThat(again).isSameAs(chunk);
    assertThat(again.position()).isZero();
    assertThat(again.remaining()).isEqualTo(FramePool.CHUNK);
    assertThat(pool.take()).isSameAs(large);
    assertThat(pool.kept()).isZero();
  }

  @Test
  void aBurstKeepsOnlyTheBoundedNumberOfFreeBuffers() {
    FramePool pool = new FramePool();
    List<ByteBuffer> lent = new ArrayList<>();
    for (int i = 0; i < FramePool.MAX_KEPT_CHUNKS + 10; i++) {
      lent.add(pool.takeChunk());
    }
    for (int i = 0; i < FramePool.MAX_KEPT + 10; i++) {
      lent.add(pool.take());
    }
    lent.forEach(pool::give);
    assertThat(pool.kept()).isEqualTo(FramePool.MAX_KEPT_CHUNKS + FramePool.MAX_KEPT);
  }

  @Test
  void aFrameOfTheDefaultOutboundSizeFillsOneBufferHeaderIncluded() {
    // A masked frame (a client's) has the largest header of a 64 KiB payload: 2 + 8 + 4 bytes.
    // Were it to spill those into a second buffer, every frame of a large send would take two.
    int payload = dev.wsjava.session.SessionConfig.DEFAULT_MAX_OUTBOUND_FRAME;
    int header = dev.wsjava.protocol.FrameEncoder.headerLength(payload, true);
    assertThat(header).isEqualTo(14);
    assertThat(FramePool.SIZE).isGreaterThanOrEqualTo(payload + header);
  }
}
