package dev.wsjava.transport.nio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.extension.Extension;
import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.handshake.ServerHandshakeConfig;
import dev.wsjava.protocol.Opcode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class HandshakeFrontTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  static HandshakeFront front(long now) {
    return new HandshakeFront(ServerHandshakeConfig.defaults(), TIMEOUT, now);
  }

  static String drain(UpgradeFront f) {
    StringBuilder sb = new StringBuilder();
    ByteBuffer[] g = new ByteBuffer[4];
    while (f.hasOutbound()) {
      int n = f.gatherOutbound(g, 0);
      long total = 0;
      for (int i = 0; i < n; i++) {
        byte[] b = new byte[g[i].remaining()];
        g[i].get(b);
        total += b.length;
        sb.append(new String(b, StandardCharsets.ISO_8859_1));
      }
      f.written(total);
    }
    return sb.toString();
  }

  /** The request, then one masked text frame "early": 81 85 12345678 | masked "early". */
  static byte[] requestAndFrame() {
    byte[] request = RawPeer.upgradeRequest("/x");
    byte[] frame = RawPeer.encode(true, Opcode.TEXT, "early".getBytes(StandardCharsets.UTF_8));
    byte[] all = new byte[request.length + frame.length];
    System.arraycopy(request, 0, all, 0, request.length);
    System.arraycopy(frame, 0, all, request.length, frame.length);
    return all;
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void bytesAfterTheRequestHeadReachTheUpgradeWhateverTheChunking(long seed) throws Exception {
    byte[] all = requestAndFrame();
    int headLength = RawPeer.upgradeRequest("/x").length;
    SplittableRandom r = new SplittableRandom(seed);
    HandshakeFront f = front(0);
    UpgradeFront.Upgrade upgrade = null;
    int at = 0;
    ByteBuffer early = ByteBuffer.allocate(all.length);
    while (at < all.length) {
      int n = 1 + r.nextInt(Math.min(64, all.length - at));
      ByteBuffer chunk = ByteBuffer.wrap(all, at, n);
      at += n;
      if (upgrade == null) {
        upgrade = f.receive(chunk, 0);
        assertThat(chunk.hasRemaining()).as("every byte is consumed").isFalse();
        if (upgrade != null) {
          early.put(upgrade.received());
        }
      } else {
        early.put(chunk); // later reads go to the session directly
      }
    }
    assertThat(upgrade).isNotNull();
    assertThat(upgrade.accepted().request().target()).isEqualTo("/x");
    assertThat(early.flip().remaining()).isEqualTo(all.length - headLength);
    assertThat(early).isEqualTo(ByteBuffer.wrap(all, headLength, all.length - headLength));
    assertThat(drain(f)).startsWith("HTTP/1.1 101 Switching Protocols\r\n");
    assertThat(f.shouldClose()).isFalse();
    assertThat(f.deadlineNanos()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void aBadRequestIsAnsweredAndClosed() {
    HandshakeFront f = front(0);
    ByteBuffer in =
        ByteBuffer.wrap("GET / HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    assertThat(f.receive(in, 0)).isNull();
    assertThat(f.shouldClose()).isTrue();
    assertThat(drain(f)).startsWith("HTTP/1.1 426 ");
  }

  @Test
  void theDeadlineIsTheHandshakeTimeoutFromTheStart() {
    long start = 1_000_000;
    HandshakeFront f = front(start);
    assertThat(f.deadlineNanos()).isEqualTo(start + TIMEOUT.toNanos());
    f.onTimeout(start + TIMEOUT.toNanos() - 1);
    assertThat(f.shouldClose()).as("not before the deadline").isFalse();
    f.onTimeout(start + TIMEOUT.toNanos());
    assertThat(f.shouldClose()).isTrue();
    assertThat(f.hasOutbound()).as("closed without an answer").isFalse();
  }

  @Test
  void aRefusedUpgradeAnswersTheStatusInsteadOfThe101() throws Exception {
    HandshakeFront f = front(0);
    UpgradeFront.Upgrade u = f.receive(ByteBuffer.wrap(requestAndFrame()), 0);
    assertThat(u).isNotNull();
    f.answer(u, ServerHandshake.reject(404, "no route").response(), true);
    assertThat(f.shouldClose()).isTrue();
    assertThat(drain(f)).startsWith("HTTP/1.1 404 ").doesNotContain("101");
    u.extensions().forEach(Extension::close);
  }
}
