package dev.wsjava.internal.deflate;

import dev.wsjava.extension.ByteSink;
import dev.wsjava.extension.Extension;
import dev.wsjava.extension.ExtensionFactory;
import dev.wsjava.extension.PerMessageDeflate;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.CloseCode;
import dev.wsjava.protocol.LimitExceededException;
import dev.wsjava.ProtocolException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DeflateExtensionTest {
  private static final HexFormat HEX = HexFormat.ofDelimiter(" ");
  private static final byte[] HELLO = "Hello".getBytes(US_ASCII);

  /** An extension as two peers of this library with default level and no minimum size get. */
  static DeflateExtension extension(boolean outboundReset, boolean inboundReset) {
    return new DeflateExtension(
        PerMessageDeflate.DEFAULT_COMPRESSION_LEVEL, 0, outboundReset, inboundReset, 15);
  }

  static byte[] hex(String s) {
    return HEX.parseHex(s);
  }

  static String hex(byte[] b) {
    return HEX.formatHex(b);
  }

  /** Collects what an extension writes, and checks that every chunk is small. */
  static final class Collector implements ByteSink {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int calls;

    @Override
    public void accept(ByteBuffer chunk) {
      assertThat(chunk.remaining()).isBetween(1, ScratchBuffers.SIZE);
      calls++;
      while (chunk.hasRemaining()) {
        bytes.write(chunk.get());
      }
    }

    byte[] take() {
      byte[] b = bytes.toByteArray();
      bytes.reset();
      return b;
    }
  }

  /** One frame as it would go on the wire: RSV bits and payload. */
  record Frame(int rsv, byte[] payload) {
    /** For comparisons: "RSV1 f2 48 ..." or "- 48 65 ..." (arrays compare by identity). */
    String wire() {
      return (rsv == Extension.RSV1 ? "RSV1" : rsv == 0 ? "-" : Integer.toHexString(rsv))
          + (payload.length == 0 ? "" : " " + hex(payload));
    }
  }

  static List<String> wire(List<Frame> frames) {
    return frames.stream().map(Frame::wire).toList();
  }

  /** Encodes one message as the given fragments, one frame each. */
  static List<Frame> send(DeflateExtension ext, byte[]... fragments) throws ProtocolException {
    List<Frame> frames = new ArrayList<>();
    Collector out = new Collector();
    for (int i = 0; i < fragments.length; i++) {
      ByteBuffer payload = ByteBuffer.wrap(fragments[i]);
      int rsv = ext.encode(i == 0, i == fragments.length - 1, payload, out);
      assertThat(payload.hasRemaining()).as("payload consumed").isFalse();
      frames.add(new Frame(rsv, out.take()));
    }
    return frames;
  }

  /** Decodes one message given as frame payloads; the first frame's RSV bits are the message's. */
  static byte[] receive(DeflateExtension ext, int rsv, byte[]... payloads)
      throws ProtocolException {
    Collector out = new Collector();
    for (int i = 0; i < payloads.length; i++) {
      ByteBuffer payload = ByteBuffer.wrap(payloads[i]);
      ext.decode(rsv, i == payloads.length - 1, payload, out);
      assertThat(payload.hasRemaining()).as("payload consumed").isFalse();
    }
    return out.take();
  }

  // RFC 7692 §7.2.3.1 - §7.2.3.2: compressing

  @Test
  void helloIsCompressedToTheRfcBytesWithRsv1() throws Exception {
    try (DeflateExtension ext = extension(false, false)) {
      List<Frame> frames = send(ext, HELLO);
      assertThat(frames).hasSize(1);
      assertThat(frames.get(0).rsv()).isEqualTo(Extension.RSV1);
      assertThat(hex(frames.get(0).payload())).isEqualTo("f2 48 cd c9 c9 07 00");
    }
  }

  @Test
  void theSecondHelloRefersToTheFirstWithContextTakeover() throws Exception {
    try (DeflateExtension ext = extension(false, false)) {
      assertThat(hex(send(ext, HELLO).get(0).payload())).isEqualTo("f2 48 cd c9 c9 07 00");
      // §7.2.3.2: one back-reference, length 5, distance 5
      assertThat(hex(send(ext, HELLO).get(0).payload())).isEqualTo("f2 00 11 00 00");
    }
  }

  @Test
  void everyHelloStandsAloneWithoutContextTakeover() throws Exception {
    try (DeflateExtension ext = extension(true, false)) {
      assertThat(hex(send(ext, HELLO).get(0).payload())).isEqualTo("f2 48 cd c9 c9 07 00");
      assertThat(hex(send(ext, HELLO).get(0).payload())).isEqualTo("f2 48 cd c9 c9 07 00");
    }
  }

  @Test
  void levelZeroGivesTheRfcStoredBlock() throws Exception {
    // §7.2.3.3: a DEFLATE block with no compression: header, LEN 5, NLEN, "Hello", flush octet
    try (DeflateExtension ext = new DeflateExtension(0, 0, false, false, 15)) {
      assertThat(hex(send(ext, HELLO).get(0).payload()))
          .isEqualTo("00 05 00 fa ff 48 65 6c 6c 6f 00");
    }
  }

  @Test
  void anEmptyMessageIsTheSingleOctetZero() throws Exception {
    // §7.2.3.6: an empty stored block with its 00 00 ff ff removed is 0x00, on a fresh stream
    // and after earlier messages alike.
    try (DeflateExtension ext = extension(false, false)) {
      assertThat(wire(send(ext, new byte[0]))).containsExactly("RSV1 00");
      send(ext, HELLO);
      assertThat(wire(send(ext, new byte[0]))).containsExactly("RSV1 00");
      assertThat(hex(send(ext, HELLO).get(0).payload())).isEqualTo("f2 00 11 00 00");
    }
  }

  @Test
  void aFragmentedMessageSetsRsv1OnItsFirstFrameOnlyAndEndsWellEvenWhenTheLastIsEmpty()
      throws Exception {
    try (DeflateExtension sender = extension(false, false);
        DeflateExtension receiver = extension(false, false)) {
      List<Frame> frames = send(sender, hex("48 65 6c"), hex("6c 6f"), new byte[0]);
      assertThat(frames).extracting(Frame::rsv).containsExactly(Extension.RSV1, 0, 0);
      // Each non-final frame is sync-flushed, so it carries all its data and its trailer.
      assertThat(hex(frames.get(0).payload())).endsWith("00 00 ff ff");
      assertThat(hex(frames.get(2).payload())).isEqualTo("00");
      byte[] got =
          receive(
              receiver,
              frames.get(0).rsv(),
              frames.get(0).payload(),
              frames.get(1).payload(),
              frames.get(2).payload());
      assertThat(got).isEqualTo(HELLO);
      // The stream is still in step for the next message.
      assertThat(receive(receiver, Extension.RSV1, send(sender, HELLO).get(0).payload()))
          .isEqualTo(HELLO);
    }
  }

  @Test
  void aShortSingleFrameMessageGoesOutUncompressed() throws Exception {
    try (DeflateExtension ext = new DeflateExtension(3, 16, false, false, 15)) {
      byte[] fifteen = "fifteen bytes!!".getBytes(US_ASCII);
      assertThat(wire(send(ext, fifteen))).containsExactly("- " + hex(fifteen));
      assertThat(ext.holdsDeflater()).as("no zlib stream for an uncompressed message").isFalse();
      byte[] sixteen = "sixteen bytes!!!".getBytes(US_ASCII);
      assertThat(send(ext, sixteen).get(0).rsv()).isEqualTo(Extension.RSV1);
      // A message sent in pieces is compressed whatever the size of its first piece.
      assertThat(send(ext, hex("01"), hex("02")).get(0).rsv()).isEqualTo(Extension.RSV1);
    }
  }

  // RFC 7692 §7.2.3: decompressing

  @Test
  void theRfcPayloadsAllDecodeToHello() throws Exception {
    String[][] payloads = {
      {"f2 48 cd c9 c9 07 00"}, // §7.2.3.1, one frame
      {"f2 48 cd", "c9 c9 07 00"}, // §7.2.3.1, two frames
      {"00 05 00 fa ff 48 65 6c 6c 6f 00"}, // §7.2.3.3, block with no compression
      {"f3 48 cd c9 c9 07 00 00"}, // §7.2.3.4, block with BFINAL set
      {"f2 48 05 00 00 00 ff ff ca c9 c9 07 00"}, // §7.2.3.5, two blocks
      {"f2 48 cd c9 c9 07 00 00 00 ff ff"}, // the flush marker left in by the sender
    };
    for (String[] frames : payloads) {
      try (DeflateExtension ext = extension(false, false)) {
        byte[][] bytes = new byte[frames.length][];
        for (int i = 0; i < frames.length; i++) {
          bytes[i] = hex(frames[i]);
        }
        assertThat(receive(ext, Extension.RSV1, bytes)).as(String.join(" | ", frames))
            .isEqualTo(HELLO);
      }
    }
  }

  @Test
  void theSecondRfcMessageNeedsTheFirstOnesWindow() throws Exception {
    try (DeflateExtension ext = extension(false, false)) {
      assertThat(receive(ext, Extension.RSV1, hex("f2 48 cd c9 c9 07 00"))).isEqualTo(HELLO);
      assertThat(receive(ext, Extension.RSV1, hex("f2 00 11 00 00"))).isEqualTo(HELLO); // §7.2.3.2
    }
  }

  @Test
  void withoutContextTakeoverTheDecompressorForgetsTheWindow() throws Exception {
    try (DeflateExtension ext = extension(false, true)) {
      assertThat(receive(ext, Extension.RSV1, hex("f2 48 cd c9 c9 07 00"))).isEqualTo(HELLO);
      assertThatThrownBy(() -> receive(ext, Extension.RSV1, hex("f2 00 11 00 00")))
          .isInstanceOf(ProtocolException.class)
          .hasMessageContaining("invalid distance too far back")
          .extracting(e -> ((ProtocolException) e).closeCode())
          .isEqualTo(CloseCode.INVALID_PAYLOAD);
    }
  }

  @Test
  void aBfinalBlockDoesNotSpoilTheNextMessage() throws Exception {
    try (DeflateExtension ext = extension(false, false)) {
      assertThat(receive(ext, Extension.RSV1, hex("f3 48 cd c9 c9 07 00 00"))).isEqualTo(HELLO);
      assertThat(receive(ext, Extension.RSV1, hex("f2 48 cd c9 c9 07 00"))).isEqualTo(HELLO);
      assertThat(receive(ext, Extension.RSV1, hex("f2 00 11 00 00"))).isEqualTo(HELLO);
    }
  }

  @Test
  void aBfinalBlockWithoutTheExtraOctetDoesNotSpoilTheNextMessage() throws Exception {
    // §7.2.3.4 asks for a 0x00 after the BFINAL block; without it the appended 00 00 ff ff is a
    // stored block header cut short, and the decompressor must not carry it into the next message.
    try (DeflateExtension ext = extension(false, false)) {
      assertThat(receive(ext, Extension.RSV1, hex("f3 48 cd c9 c9 07 00"))).isEqualTo(HELLO);
      assertThat(receive(ext, Extension.RSV1, hex("f2 48 cd c9 c9 07 00"))).isEqualTo(HELLO);
    }
  }

  @Test
  void emptyCompressedMessagesDecodeToNothing() throws Exception {
    try (DeflateExtension ext = extension(false, false)) {
      assertThat(receive(ext, Extension.RSV1, hex("00"))).isEmpty(); // §7.2.3.6
      assertThat(receive(ext, Extension.RSV1, new byte[0])).isEmpty(); // no payload at all
      assertThat(receive(ext, Extension.RSV1, new byte[0], hex("00"))).isEmpty();
      assertThat(receive(ext, Extension.RSV1, hex("f2 48 cd c9 c9 07 00"))).isEqualTo(HELLO);
    }
  }

  @Test
  void aMessageWithoutRsv1PassesThroughUntouched() throws Exception {
    try (DeflateExtension ext = extension(false, false)) {
      byte[] notDeflate = hex("ff ff ff 00 01");
      assertThat(receive(ext, 0, notDeflate, hex("02"))).isEqualTo(hex("ff ff ff 00 01 02"));
      assertThat(receive(ext, Extension.RSV2, notDeflate)).isEqualTo(notDeflate);
      assertThat(ext.holdsInflater()).isFalse();
    }
  }

  @Test
  void corruptDataFailsWith1007NamingTheZlibError() throws Exception {
    try (DeflateExtension ext = extension(false, false)) {
      // ff: BFINAL 1, BTYPE 11, which RFC 1951 reserves
      assertThatThrownBy(() -> receive(ext, Extension.RSV1, hex("ff ff ff")))
          .isInstanceOf(ProtocolException.class)
          .hasMessageContaining("invalid block type")
          .extracting(e -> ((ProtocolException) e).closeCode())
          .isEqualTo(CloseCode.INVALID_PAYLOAD);
    }
    try (DeflateExtension ext = extension(false, false)) {
      // a stored block whose NLEN is not the complement of LEN
      assertThatThrownBy(() -> receive(ext, Extension.RSV1, hex("00 05 00 00 00 48 65")))
          .isInstanceOf(ProtocolException.class)
          .hasMessageContaining("invalid stored block lengths")
          .extracting(e -> ((ProtocolException) e).closeCode())
          .isEqualTo(CloseCode.INVALID_PAYLOAD);
    }
  }

  // Decompression bombs

  /**
   * Builds a message payload that inflates to {@code 1 + 258 * copies} zero bytes: one fixed
   * Huffman block (RFC 1951 §3.2.6) holding a literal 0 and then copies of (length 258, distance
   * 1), 13 bits each, followed by the header bits of an empty stored block so that the appended
   * 00 00 ff ff completes it, as in a real permessage-deflate payload.
   */
  static byte[] zeroBomb(int copies) {
    BitWriter w = new BitWriter(copies * 13L / 8 + 16);
    w.bits(0, 1); // BFINAL 0
    w.bits(1, 2); // BTYPE 01, fixed Huffman
    w.code(0x30, 8); // literal 0
    for (int i = 0; i < copies; i++) {
      w.code(0xc5, 8); // length code 285: 258
      w.code(0, 5); // distance code 0: 1
    }
    w.code(0, 7); // end of block (256)
    w.bits(0, 3); // BFINAL 0, BTYPE 00: the stored block the trailer finishes
    return w.toBytes();
  }

  /** Writes DEFLATE's bit order: values LSB first, Huffman codes MSB first. */
  static final class BitWriter {
    private final byte[] out;
    private long bit;

    BitWriter(long capacity) {
      out = new byte[Math.toIntExact(capacity)];
    }

    void bits(int value, int count) {
      for (int i = 0; i < count; i++) {
        if (((value >>> i) & 1) != 0) {
          out[(int) (bit >>> 3)] |= (byte) (1 << (bit & 7));
        }
        bit++;
      }
    }

    void code(int code, int length) {
      for (int i = length - 1; i >= 0; i--) {
        bits((code >>> i) & 1, 1);
      }
    }

    byte[] toBytes() {
      return java.util.Arrays.copyOf(out, (int) ((bit + 7) >>> 3));
    }
  }

  @Test
  void theBombBuilderMakesValidDeflateData() throws Exception {
    byte[] bomb = zeroBomb(1000);
    Inflater inf = new Inflater(true);
    try {
      inf.setInput(ByteBuffer.wrap(concat(bomb, hex("00 00 ff ff"))));
      byte[] out = new byte[1 + 258 * 1000 + 10];
      assertThat(inf.inflate(out)).isEqualTo(1 + 258 * 1000);
      assertThat(inf.needsInput()).isTrue();
    } finally {
      inf.end();
    }
    try (DeflateExtension ext = extension(false, false)) {
      assertThat(receive(ext, Extension.RSV1, bomb)).hasSize(1 + 258 * 1000).containsOnly(0);
    }
  }

  @Test
  void aBombStopsOneChunkPastTheSinkLimitWithoutInflatingTheRest() throws Exception {
    byte[] bomb = zeroBomb((1 << 30) / 258); // about 6.5 MiB that would inflate to 1 GiB
    long limit = 64L << 20;
    long[] delivered = {0};
    int[] callsAfterRefusal = {0};
    ByteSink limited =
        chunk -> {
          if (delivered[0] > limit) {
            callsAfterRefusal[0]++;
          }
          delivered[0] += chunk.remaining();
          chunk.position(chunk.limit());
          if (delivered[0] > limit) {
            throw new LimitExceededException(
                CloseCode.MESSAGE_TOO_BIG, "message size", delivered[0], limit);
          }
        };
    try (DeflateExtension ext = extension(false, false)) {
      long before = allocatedByThisThread();
      assertThatThrownBy(() -> ext.decode(Extension.RSV1, true, ByteBuffer.wrap(bomb), limited))
          .isInstanceOf(LimitExceededException.class)
          .extracting(e -> ((ProtocolException) e).closeCode())
          .isEqualTo(CloseCode.MESSAGE_TOO_BIG);
      long allocated = allocatedByThisThread() - before;
      assertThat(delivered[0])
          .isGreaterThan(limit)
          .isLessThanOrEqualTo(limit + ScratchBuffers.SIZE);
      assertThat(callsAfterRefusal[0]).isZero();
      assertThat(allocated).as("bytes allocated while inflating 64 MiB").isLessThan(4L << 20);
    }
  }

  /**
   * HotSpot's count of bytes this thread has allocated. Reached by reflection because the test
   * classes are compiled into the module dev.wsjava, which does not read java.management.
   */
  static long allocatedByThisThread() throws ReflectiveOperationException {
    Object bean =
        Class.forName("java.lang.management.ManagementFactory")
            .getMethod("getThreadMXBean")
            .invoke(null);
    return (long)
        Class.forName("com.sun.management.ThreadMXBean")
            .getMethod("getCurrentThreadAllocatedBytes")
            .invoke(bean);
  }

  // Memory and lifecycle

  @Test
  void zlibStreamsAreCreatedOnFirstUseAndReleasedOnClose() throws Exception {
    DeflateExtension ext = extension(false, false);
    assertThat(ext.holdsDeflater()).isFalse();
    assertThat(ext.holdsInflater()).isFalse();
    send(ext, HELLO);
    assertThat(ext.holdsDeflater()).isTrue();
    assertThat(ext.holdsInflater()).isFalse();
    receive(ext, Extension.RSV1, hex("f2 48 cd c9 c9 07 00"));
    assertThat(ext.holdsInflater()).isTrue();
    ext.close();
    assertThat(ext.holdsDeflater()).isFalse();
    assertThat(ext.holdsInflater()).isFalse();
    ext.close(); // idempotent
    assertThatThrownBy(() -> send(ext, HELLO))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
    assertThatThrownBy(() -> receive(ext, Extension.RSV1, hex("00")))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void nameAndRsvBitsAreThoseOfRfc7692() {
    try (DeflateExtension ext = extension(false, false)) {
      assertThat(ext.name()).isEqualTo("permessage-deflate");
      assertThat(ext.rsvBits()).isEqualTo(Extension.RSV1);
    }
  }

  @Test
  void messagesWhoseOutputCrossesTheScratchBufferLoseExactlyTheTrailer() throws Exception {
    // For each level and kind of data, find the message length where the compressed size
    // crosses one scratch buffer, then send every length around it: the trailer falls at each
    // place against the end of the buffer, and must still be removed, and only it.
    Random random = new Random(7692);
    byte[] noise = new byte[40_000];
    random.nextBytes(noise);
    byte[] text = words(120_000, random);
    for (byte[] data : List.of(noise, text)) {
      for (int level : new int[] {0, 3, 9}) {
        try (DeflateExtension sender = new DeflateExtension(level, 0, true, false, 15).compressEverything();
            DeflateExtension receiver = extension(false, false)) {
          int lo = 0;
          int hi = data.length;
          while (lo < hi) { // first length whose payload reaches SIZE - 16 bytes
            int mid = (lo + hi) >>> 1;
            if (payloadSize(sender, data, mid) < ScratchBuffers.SIZE - 16) {
              lo = mid + 1;
            } else {
              hi = mid;
            }
          }
          int smallest = Integer.MAX_VALUE;
          int largest = 0;
          for (int n = lo; n < lo + 48 && n <= data.length; n++) {
            byte[] message = java.util.Arrays.copyOf(data, n);
            byte[] payload = send(sender, message).get(0).payload();
            smallest = Math.min(smallest, payload.length);
            largest = Math.max(largest, payload.length);
            assertThat(hex(payload))
                .as("level %d, %d bytes", level, n)
                .doesNotEndWith("00 00 ff ff");
            assertThat(receive(receiver, Extension.RSV1, payload))
                .as("level %d, %d bytes", level, n)
                .isEqualTo(message);
          }
          assertThat(smallest).isLessThan(ScratchBuffers.SIZE - 4);
          assertThat(largest).isGreaterThan(ScratchBuffers.SIZE);
        }
      }
    }
  }

  private static int payloadSize(DeflateExtension sender, byte[] data, int n) throws Exception {
    int[] size = {0};
    sender.encode(true, true, ByteBuffer.wrap(data, 0, n), chunk -> size[0] += chunk.remaining());
    return size[0];
  }

  /** Text of random words: compressible, but not so much that sizes jump. */
  private static byte[] words(int length, Random random) {
    String[] words = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"};
    StringBuilder sb = new StringBuilder(length + 16);
    while (sb.length() < length) {
      sb.append(words[random.nextInt(words.length)]).append(random.nextInt(1000)).append(' ');
    }
    return sb.substring(0, length).getBytes(US_ASCII);
  }

  @Test
  void aSinkThatCompressesAnotherMessageMidChunkDoesNotCorruptThisOne() throws Exception {
    byte[] message = new byte[100_000];
    new Random(1).nextBytes(message);
    try (DeflateExtension sender = extension(false, false).compressEverything();
        DeflateExtension receiver = extension(false, false);
        DeflateExtension bystander = extension(false, false)) {
      byte[] wire = send(sender, message).get(0).payload();
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      receiver.decode(
          Extension.RSV1,
          true,
          ByteBuffer.wrap(wire),
          chunk -> {
            byte[] copyLater = new byte[chunk.remaining()];
            int at = chunk.position();
            // borrow a scratch buffer on this thread while the chunk is still in use
            bystander.encode(true, true, ByteBuffer.wrap(message, 0, 20_000), c -> {});
            chunk.position(at);
            chunk.get(copyLater);
            got.writeBytes(copyLater);
          });
      assertThat(got.toByteArray()).isEqualTo(message);
    }
  }

  // Round trips (seeded): client and server from the factories, many messages in a row, random
  // fragmentation by the sender and random re-splitting of the wire bytes at the receiver.

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#fewer")
  void everyMessageSurvivesTheRoundTripInBothDirections(long seed) throws Exception {
    Random random = new Random(seed);
    List<byte[]> messages = conversation(random);
    boolean serverNoContextTakeover = random.nextBoolean();
    boolean clientNoContextTakeover = random.nextBoolean();
    int minCompressSize = random.nextInt(41);
    int level = random.nextInt(10);
    PerMessageDeflate config =
        PerMessageDeflate.builder()
            .compressionLevel(level)
            .minCompressSize(minCompressSize)
            .serverNoContextTakeover(serverNoContextTakeover)
            .clientNoContextTakeover(clientNoContextTakeover)
            .build();
    ExtensionFactory.Accepted accepted = config.serverAccept(config.clientOffers());
    try (DeflateExtension client = (DeflateExtension) config.clientAccept(accepted.response());
        DeflateExtension server = (DeflateExtension) accepted.extension()) {
      for (byte[] message : messages) {
        assertThat(roundTrip(client, server, message, random)).isEqualTo(message);
        assertThat(roundTrip(server, client, message, random)).isEqualTo(message);
      }
    }
  }

  private static byte[] roundTrip(
      DeflateExtension sender, DeflateExtension receiver, byte[] message, Random random)
      throws ProtocolException {
    List<Frame> frames = send(sender, split(message, random));
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    for (int i = 0; i < frames.size(); i++) {
      assertThat(frames.get(i).rsv()).as("RSV bits of frame %d", i).isIn(0, i == 0 ? 0x40 : 0);
      wire.writeBytes(frames.get(i).payload());
    }
    if (frames.get(0).rsv() != 0) {
      // §7.2.1: the sync-flush trailer never reaches the wire at the end of a message
      assertThat(hex(wire.toByteArray())).doesNotEndWith("00 00 ff ff");
    }
    return receive(receiver, frames.get(0).rsv(), split(wire.toByteArray(), random));
  }

  /** Cuts bytes into 1 to 5 pieces at random places; pieces may be empty. */
  static byte[][] split(byte[] bytes, Random random) {
    int pieces = 1 + random.nextInt(5);
    int[] cuts = new int[pieces + 1];
    cuts[pieces] = bytes.length;
    for (int i = 1; i < pieces; i++) {
      cuts[i] = random.nextInt(bytes.length + 1);
    }
    java.util.Arrays.sort(cuts);
    byte[][] out = new byte[pieces][];
    for (int i = 0; i < pieces; i++) {
      out[i] = java.util.Arrays.copyOfRange(bytes, cuts[i], cuts[i + 1]);
    }
    return out;
  }

  /** 1 to 8 messages: random noise, compressible text, JSON-like words, or runs of zeros. */
  static List<byte[]> conversation(Random r) {
    List<byte[]> messages = new java.util.ArrayList<>();
    int count = 1 + r.nextInt(8);
    String[] words = {"{\"id\":", "42,", "\"name\":\"alice\"", "}", "[", "]", "true", " "};
    String chars = "abc xyz{}\":,0123";
    for (int i = 0; i < count; i++) {
      int kind = r.nextInt(9);
      byte[] m;
      if (kind < 2) {
        m = new byte[r.nextInt(40_001)];
        r.nextBytes(m);
      } else if (kind < 4) {
        StringBuilder sb = new StringBuilder();
        for (int n = r.nextInt(50_001); n > 0; n--) {
          sb.append(chars.charAt(r.nextInt(chars.length())));
        }
        m = sb.toString().getBytes(US_ASCII);
      } else if (kind < 8) {
        StringBuilder sb = new StringBuilder();
        for (int n = r.nextInt(4_001); n > 0; n--) {
          sb.append(words[r.nextInt(words.length)]);
        }
        m = sb.toString().getBytes(US_ASCII);
      } else {
        m = new byte[r.nextInt(200_001)];
      }
      messages.add(m);
    }
    return messages;
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  // Compression that pays: a message that deflating does not shrink goes out as it is.

  @Test
  void anIncompressibleMessageGoesOutAsItIsAndTheContextStaysInStep() throws Exception {
    byte[] noise = new byte[50_000];
    new Random(38).nextBytes(noise);
    byte[] json = "{\"id\":1234,\"name\":\"a name\",\"tags\":[\"x\",\"y\"]}".repeat(300).getBytes(US_ASCII);
    try (DeflateExtension sender = extension(false, false);
        DeflateExtension receiver = extension(false, false)) {
      // With context takeover on both sides: JSON, noise, the same JSON again (which refers back
      // to the first), noise as fragments, JSON.
      for (byte[] message : List.of(json, noise, json, noise, json)) {
        List<Frame> frames = send(sender, message);
        boolean compressible = message == json;
        assertThat(frames.get(0).rsv()).isEqualTo(compressible ? Extension.RSV1 : 0);
        byte[] wire = frames.get(0).payload();
        if (compressible) {
          assertThat(wire.length).isLessThan(message.length / 4);
        } else {
          assertThat(wire).isEqualTo(message);
        }
        assertThat(receive(receiver, frames.get(0).rsv(), wire)).isEqualTo(message);
      }
    }
  }

  @Test
  void aMessageWhoseFirstPieceIsIncompressibleIsSentUncompressedInEveryFragment() throws Exception {
    byte[] noise = new byte[100_000];
    new Random(39).nextBytes(noise);
    try (DeflateExtension sender = extension(false, false)) {
      List<Frame> frames =
          send(sender, Arrays.copyOfRange(noise, 0, 30_000), Arrays.copyOfRange(noise, 30_000, 100_000));
      assertThat(frames).extracting(Frame::rsv).containsExactly(0, 0);
      assertThat(frames.get(0).payload()).isEqualTo(Arrays.copyOfRange(noise, 0, 30_000));
      assertThat(frames.get(1).payload()).isEqualTo(Arrays.copyOfRange(noise, 30_000, 100_000));
    }
  }

  @Test
  void compressEverythingCompressesNoiseToo() throws Exception {
    byte[] noise = new byte[20_000];
    new Random(40).nextBytes(noise);
    try (DeflateExtension sender = extension(false, false).compressEverything()) {
      assertThat(send(sender, noise).get(0).rsv()).isEqualTo(Extension.RSV1);
    }
  }
}
