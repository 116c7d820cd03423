package dev.wsjava.internal.deflate;

import dev.wsjava.extension.ByteSink;
import dev.wsjava.extension.Extension;
import static dev.wsjava.internal.deflate.DeflateExtensionTest.extension;
import static dev.wsjava.internal.deflate.DeflateExtensionTest.hex;
import static dev.wsjava.internal.deflate.DeflateExtensionTest.receive;
import static dev.wsjava.internal.deflate.DeflateExtensionTest.send;
import static dev.wsjava.internal.deflate.DeflateExtensionTest.split;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.wsjava.internal.deflate.DeflateExtensionTest.Frame;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RFC 7692 §7.1.2 and §7.2.1: what this end sends when the peer limited its window to 2^N bytes,
 * checked by zlib held to that window (through Python, {@link ZlibPeer}) and by our own inflater.
 */
class WindowedDeflateTest {
  private static ZlibPeer zlib;

  @BeforeAll
  static void startZlib() throws Exception {
    zlib = ZlibPeer.start();
  }

  @AfterAll
  static void stopZlib() throws Exception {
    zlib.close();
  }

  /** A sender compressing every message (no minimum size) within 2^N bytes. */
  static DeflateExtension sender(int level, int windowBits, boolean noContextTakeover) {
    // Every message compressed, so zlib held to the window checks each one (at 15 bits the
    // compressor would otherwise send incompressible ones as they are).
    return new DeflateExtension(level, 0, noContextTakeover, false, windowBits).compressEverything();
  }

  /** The payload on the wire: every frame's payload, joined. */
  static byte[] joined(List<Frame> frames) {
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    frames.forEach(f -> wire.writeBytes(f.payload()));
    return wire.toByteArray();
  }

  static byte[] zlibInflates(byte[] payload, String what) throws Exception {
    try {
      return zlib.inflate(payload);
    } catch (ZlibPeer.ZlibError e) {
      return fail("zlib held to the window refused %s: %s", what, e.getMessage());
    }
  }

  // Properties (seeded): every stream inflates with zlib at window N and round-trips.

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#fewer")
  void everyStreamInflatesWithZlibHeldToTheWindowAndRoundTrips(long seed) throws Exception {
    Random random = new Random(seed);
    int windowBits = 8 + random.nextInt(8);
    int level = random.nextInt(10);
    boolean noContextTakeover = random.nextBoolean();
    List<byte[]> messages = conversation(random, windowBits);
    zlib.startInflater(windowBits);
    try (DeflateExtension sender = sender(level, windowBits, noContextTakeover);
        DeflateExtension receiver = extension(false, noContextTakeover)) {
      for (int i = 0; i < messages.size(); i++) {
        byte[] message = messages.get(i);
        String what = "message %d of %d bytes, N=%d, level %d, %s context takeover".formatted(
            i, message.length, windowBits, level, noContextTakeover ? "no" : "with");
        List<Frame> frames = send(sender, split(message, random));
        assertThat(frames.get(0).rsv()).isEqualTo(Extension.RSV1);
        byte[] payload = joined(frames);
        // §7.2.1: frames before the last end with a sync flush, the last one without its tail
        for (Frame f : frames.subList(0, frames.size() - 1)) {
          assertThat(f.payload().length == 0 || hex(f.payload()).endsWith("00 00 ff ff"))
              .as("a frame before the last ends with 00 00 ff ff, " + what).isTrue();
        }
        assertThat(hex(payload)).as(what).doesNotEndWith("00 00 ff ff");
        assertThat(zlibInflates(payload, what)).as(what).isEqualTo(message);
        assertThat(receive(receiver, Extension.RSV1, split(payload, random)))
            .as(what).isEqualTo(message);
        if (noContextTakeover) {
          zlib.startInflater(windowBits);
        }
      }
    }
  }

  /**
   * 1 to 6 messages: noise, JSON-like words, long runs, a random block of about 2^N bytes repeated
   * (back-references right at the edge of the window), or an earlier message again (references
   * into the previous message, which only context takeover allows).
   */
  static List<byte[]> conversation(Random r, int windowBits) {
    List<byte[]> messages = new ArrayList<>();
    String[] words = {"{\"id\":", "42,", "\"name\":\"alice\"", "}", "[", "]", "true", " "};
    int count = 1 + r.nextInt(6);
    for (int i = 0; i < count; i++) {
      byte[] m;
      switch (r.nextInt(6)) {
        case 0 -> {
          m = new byte[r.nextInt(3_000)];
          r.nextBytes(m);
        }
        case 1 -> {
          StringBuilder sb = new StringBuilder();
          for (int n = r.nextInt(1_000); n > 0; n--) {
            sb.append(words[r.nextInt(words.length)]);
          }
          m = sb.toString().getBytes(US_ASCII);
        }
        case 2 -> {
          byte[] block = new byte[Math.max(1, (1 << windowBits) + r.nextInt(5) - 2)];
          r.nextBytes(block);
          ByteArrayOutputStream b = new ByteArrayOutputStream();
          for (int k = 2 + r.nextInt(2); k > 0; k--) {
            b.writeBytes(block);
            b.writeBytes(Arrays.copyOf(block, r.nextInt(3))); // 0 to 2 bytes between copies
          }
          m = b.toByteArray();
        }
        case 3 -> {
          m = new byte[r.nextInt(20_000)];
          Arrays.fill(m, (byte) r.nextInt(3));
        }
        case 4 -> m = messages.isEmpty() ? new byte[0] : messages.get(r.nextInt(messages.size()));
        default -> {
          StringBuilder sb = new StringBuilder();
          for (int n = r.nextInt(8_000); n > 0; n--) {
            sb.append("abc xyz{}\":,0123".charAt(r.nextInt(16)));
          }
          m = sb.toString().getBytes(US_ASCII);
        }
      }
      messages.add(m);
    }
    return messages;
  }

  // The window's edge

  @ParameterizedTest(name = "N = {0}")
  @ValueSource(ints = {8, 9, 10, 11, 12, 13, 14})
  void aRepeatExactly2PowNBackIsReferencedAndOneByteFartherIsNot(int windowBits)
      throws Exception {
    int window = 1 << windowBits;
    byte[] block = new byte[window];
    new Random(windowBits).nextBytes(block);
    byte[] atTheEdge = DeflateExtensionTest.concat(block, block);
    byte[] beyond = DeflateExtensionTest.concat(DeflateExtensionTest.concat(block, hex("5a")),
        block);
    for (int level : new int[] {1, 3, 6, 9}) {
      try (DeflateExtension sender = sender(level, windowBits, true)) {
        byte[] near = send(sender, atTheEdge).get(0).payload();
        byte[] far = send(sender, beyond).get(0).payload();
        // Random bytes do not compress: only the repeat at distance 2^N can make it shorter.
        assertThat(near.length).as("level %d, repeat at distance %d", level, window)
            .isLessThan(window + window / 8 + 64);
        assertThat(far.length).as("level %d, repeat at distance %d", level, window + 1)
            .isGreaterThan(2 * window);
        zlib.startInflater(windowBits);
        assertThat(zlibInflates(near, "the repeat at the edge")).isEqualTo(atTheEdge);
        zlib.startInflater(windowBits);
        assertThat(zlibInflates(far, "the repeat beyond the edge")).isEqualTo(beyond);
      }
    }
  }

  @Test
  void theStrictInflaterRefusesAReferenceOneBytePastTheWindow() throws Exception {
    // The checker checks: zlib's own stream at 15 bits refers 257 bytes back, which zlib held to
    // 8 bits must refuse, even with the whole message in one call.
    byte[] block = new byte[256];
    new Random(8).nextBytes(block);
    byte[] message = DeflateExtensionTest.concat(DeflateExtensionTest.concat(block, hex("5a")),
        block);
    zlib.startCompressor(15, 6);
    byte[] payload = zlib.compress(message);
    assertThat(payload.length).isLessThan(300);
    zlib.startInflater(15);
    assertThat(zlib.inflate(payload)).isEqualTo(message);
    zlib.startInflater(8);
    assertThatThrownBy(() -> zlib.inflate(payload))
        .isInstanceOf(ZlibPeer.ZlibError.class)
        .hasMessageContaining("invalid distance too far back");
  }

  // RFC 7692 §7.2.3: the examples, at a window of 2^8 bytes

  @Test
  void helloIsTheRfcFixedHuffmanBlockAndTheSecondHelloOneBackReference() throws Exception {
    byte[] hello = "Hello".getBytes(US_ASCII);
    try (DeflateExtension ext = sender(3, 8, false)) {
      Frame first = send(ext, hello).get(0);
      assertThat(first.wire()).isEqualTo("RSV1 f2 48 cd c9 c9 07 00"); // §7.2.3.1
      // §7.2.3.2 shares the window too, but its example spends a literal "H" first; all five
      // bytes as one reference is shorter:
      // 02    BFINAL 0, BTYPE 01 (fixed), then length code 259 (5)...
      // 13    ...distance code 4 with extra bit 0 (5), end of block...
      // 00 00 ...and the empty stored block's header, padded
      Frame second = send(ext, hello).get(0);
      assertThat(second.wire()).isEqualTo("RSV1 02 13 00 00");
      zlib.startInflater(8);
      assertThat(zlib.inflate(first.payload())).isEqualTo(hello);
      assertThat(zlib.inflate(second.payload())).isEqualTo(hello);
      assertThat(zlib.inflate(hex("f2 00 11 00 00"))).isEqualTo(hello); // the RFC's own
    }
  }

  @Test
  void levelZeroIsTheRfcStoredBlock() throws Exception {
    try (DeflateExtension ext = sender(0, 9, false)) {
      // §7.2.3.3
      assertThat(send(ext, "Hello".getBytes(US_ASCII)).get(0).wire())
          .isEqualTo("RSV1 00 05 00 fa ff 48 65 6c 6c 6f 00");
    }
  }

  @Test
  void anEmptyMessageIsTheSingleOctetZeroAndAnEmptyLastFrameEndsTheMessage() throws Exception {
    try (DeflateExtension ext = sender(6, 10, false)) {
      assertThat(DeflateExtensionTest.wire(send(ext, new byte[0]))).containsExactly("RSV1 00");
      assertThat(DeflateExtensionTest.wire(send(ext, "Hel".getBytes(US_ASCII),
          "lo".getBytes(US_ASCII), new byte[0])))
          .containsExactly("RSV1 f2 48 cd 01 00 00 00 ff ff", "- ca c9 07 00 00 00 ff ff",
              "- 00");
    }
  }

  // Negotiated window and lifecycle

  @Test
  void theExtensionSaysItsWindowAndMakesItsCompressorOnFirstUse() throws Exception {
    DeflateExtension ext = sender(3, 12, false);
    assertThat(ext.outboundWindowBits()).isEqualTo(12);
    assertThat(ext.toString()).contains("outbound window=2^12");
    assertThat(ext.holdsDeflater()).isFalse();
    send(ext, "Hello".getBytes(US_ASCII));
    assertThat(ext.holdsDeflater()).isTrue();
    ext.close();
    assertThat(ext.holdsDeflater()).isFalse();
    assertThatThrownBy(() -> send(ext, "Hello".getBytes(US_ASCII)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void theCompressorHoldsAbout7Times2PowNPlus100KiB() throws Exception {
    long before = DeflateExtensionTest.allocatedByThisThread();
    WindowedDeflater nine = new WindowedDeflater(9, 3);
    long atNine = DeflateExtensionTest.allocatedByThisThread() - before;
    before = DeflateExtensionTest.allocatedByThisThread();
    WindowedDeflater fourteen = new WindowedDeflater(14, 3);
    long atFourteen = DeflateExtensionTest.allocatedByThisThread() - before;
    assertThat(atNine).as("bytes at 2^9").isBetween(100L << 10, 110L << 10);
    assertThat(atFourteen).as("bytes at 2^14").isBetween(205L << 10, 220L << 10);
    assertThat(nine).isNotSameAs(fourteen);
  }

  @Test
  void aWindowOutsideEightToFifteenIsRefused() {
    assertThatThrownBy(() -> sender(3, 7, false)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> sender(3, 16, false)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void compressingAtASmallWindowAllocatesNothingPerMessage() throws Exception {
    byte[] json = ("{\"type\":\"quote\",\"symbol\":\"EURUSD\",\"bid\":1.08423,\"ask\":1.08431,"
        + "\"size\":250000,\"venue\":\"LD4\",\"flags\":[\"firm\",\"streaming\"],\"seq\":")
        .getBytes(US_ASCII);
    byte[] big = new byte[200_000];
    for (int i = 0; i < big.length; i++) {
      big[i] = json[(i * 7) % json.length];
    }
    ByteBuffer small = ByteBuffer.wrap(json);
    ByteBuffer large = ByteBuffer.wrap(big);
    long[] bytes = {0};
    ByteSink count = chunk -> {
      bytes[0] += chunk.remaining();
      chunk.position(chunk.limit());
    };
    for (boolean reset : new boolean[] {false, true}) {
      try (DeflateExtension ext = sender(6, 10, reset)) {
        for (int i = 0; i < 200; i++) { // warm up: first use, scratch buffers, JIT
          ext.encode(true, true, small.clear(), count);
          ext.encode(true, true, large.clear(), count);
        }
        long before = DeflateExtensionTest.allocatedByThisThread();
        for (int i = 0; i < 1_000; i++) {
          ext.encode(true, true, small.clear(), count);
        }
        for (int i = 0; i < 20; i++) {
          ext.encode(true, false, large.clear(), count);
          ext.encode(false, true, small.clear(), count);
        }
        long allocated = DeflateExtensionTest.allocatedByThisThread() - before;
        assertThat(allocated).as("bytes allocated for 1,020 messages, reset " + reset)
            .isLessThan(16 * 1024);
      }
    }
    assertThat(bytes[0]).isPositive();
  }
}
