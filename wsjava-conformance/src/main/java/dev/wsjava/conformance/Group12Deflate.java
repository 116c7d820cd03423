package dev.wsjava.conformance;

import static dev.wsjava.conformance.Cases.size;
import static dev.wsjava.conformance.Cases.slice;
import static dev.wsjava.conformance.Cases.utf8;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Group 12, permessage-deflate payloads (RFC 7692 §7.2): with the usual offer, messages of many
 * sizes and of every compressibility are sent compressed (RSV1 on the first frame) and must come
 * back as they were; compressed messages in fragments, uncompressed messages between compressed
 * ones, DEFLATE streams in unusual but valid shapes, and invalid compressed data.
 */
final class Group12Deflate {
  private static final int[] SIZES = {16, 64, 256, 1024, 4096, 16384, 65536, 131072};

  /** What the payloads are made of. */
  enum Kind {
    REPEATED_TEXT("text repeating one sentence", true),
    RANDOM_BINARY("random (incompressible) binary", false),
    JSON_TEXT("JSON-like text records", true),
    ZERO_BINARY("binary zeros", false),
    MULTIBYTE_TEXT("text of two- to four-byte characters", true);

    final String title;
    final boolean text;

    Kind(String title, boolean text) {
      this.title = title;
      this.text = text;
    }
  }

  private Group12Deflate() {}

  static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    int sub = 0;
    for (Kind kind : Kind.values()) {
      sub++;
      int n = 0;
      for (int size : SIZES) {
        int count = Math.max(2, Math.min(50, 256 * 1024 / size));
        List<DataMessage> messages = new ArrayList<>();
        for (int i = 0; i < count; i++) {
          messages.add(payload(kind, size, i));
        }
        out.add(deflate("12." + sub + "." + ++n, "Send " + count + " compressed messages of "
            + kind.title + ", " + size(size) + " each.", messages, 0));
      }
    }
    out.addAll(fragmented());
    out.addAll(unusual());
    return out;
  }

  /** A case that sends messages compressed (in fragments of {@code fragment}, 0 for one frame). */
  static Case deflate(String id, String description, List<DataMessage> messages, int fragment) {
    return Case.of(id, description, Expect.echo(messages), p -> {
      for (DataMessage m : messages) {
        sendCompressed(p, m, fragment);
      }
      p.awaitMessages(messages.size());
    }).withDeflate(DeflateParameters.DEFAULT);
  }

  /** Compresses a message and sends it, RSV1 on the first frame only (§6.1). */
  static void sendCompressed(Peer p, DataMessage m, int fragment) {
    byte[] c = p.deflate().compress(m.payload());
    int opcode = m.text() ? Frame.TEXT : Frame.BINARY;
    if (fragment <= 0 || c.length <= fragment) {
      p.send(Frame.of(opcode, c).rsv(4));
      return;
    }
    for (int off = 0; off < c.length; off += fragment) {
      int end = Math.min(c.length, off + fragment);
      p.send(Frame.of(off == 0 ? opcode : Frame.CONTINUATION, slice(c, off, end))
          .rsv(off == 0 ? 4 : 0).fin(end == c.length));
    }
  }

  private static List<Case> fragmented() {
    DataMessage text = payload(Kind.REPEATED_TEXT, 65536, 1);
    DataMessage random = payload(Kind.RANDOM_BINARY, 65536, 2);
    DataMessage json = payload(Kind.JSON_TEXT, 8192, 3);
    List<Case> out = new ArrayList<>();
    out.add(deflate("12.6.1", "Send a compressed 64 KiB text message in 100-byte fragments.",
        List.of(text), 100));
    out.add(deflate("12.6.2", "Send a compressed 64 KiB random binary message in 1300-byte"
        + " fragments.", List.of(random), 1300));
    out.add(deflate("12.6.3", "Send a compressed 8 KiB JSON-like message in one-byte fragments.",
        List.of(json), 1));
    out.add(Case.of("12.6.4", "Send a compressed 64 KiB text message in one frame written in"
        + " 997-byte pieces.", Expect.echo(text), p -> {
          p.send(Frame.text(p.deflate().compress(text.payload())).rsv(4), 997,
              Duration.ZERO);
          p.awaitMessages(1);
        }).withDeflate(DeflateParameters.DEFAULT));
    return out;
  }

  private static List<Case> unusual() {
    List<Case> out = new ArrayList<>();
    List<DataMessage> mixed = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      mixed.add(payload(i % 2 == 0 ? Kind.JSON_TEXT : Kind.ZERO_BINARY, 2000, i));
    }
    out.add(Case.of("12.7.1", "Send ten messages, alternately compressed and not (§6: RSV1 says"
        + " which, message by message).", Expect.echo(mixed), p -> {
          for (int i = 0; i < mixed.size(); i++) {
            DataMessage m = mixed.get(i);
            if (i % 2 == 0) {
              sendCompressed(p, m, 0);
            } else {
              p.send(Frame.of(m.text() ? Frame.TEXT : Frame.BINARY, m.payload()));
            }
          }
          p.awaitMessages(mixed.size());
        }).withDeflate(DeflateParameters.DEFAULT));
    DataMessage hello = DataMessage.text("Hello, deflate! Hello, deflate! Hello, deflate!");
    out.add(Case.of("12.7.2", "Send a compressed message that keeps its trailing 00 00 FF FF"
        + " (an extra empty block, which is still valid DEFLATE).", Expect.echo(hello), p -> {
          byte[] c = p.deflate().compress(hello.payload());
          p.send(Frame.text(Cases.concat(c, Cases.hex("00 00 ff ff"))).rsv(4));
          p.awaitMessages(1);
        }).withDeflate(DeflateParameters.DEFAULT));
    out.add(Case.of("12.7.3", "Send a message compressed as a final DEFLATE block (BFINAL set,"
        + " RFC 7692 §7.2.3.5).", Expect.echo(hello), p -> {
          p.send(Frame.text(Compression.deflateFinal(hello.payload())).rsv(4));
          p.awaitMessages(1);
        }).withDeflate(DeflateParameters.DEFAULT));
    DataMessage empty = DataMessage.text("");
    out.add(Case.of("12.7.4", "Send an empty compressed text message (payload 00).",
        Expect.echo(empty), p -> {
          p.send(Frame.text(p.deflate().compress(new byte[0])).rsv(4));
          p.awaitMessages(1);
        }).withDeflate(DeflateParameters.DEFAULT));
    out.add(Case.of("12.8.1", "Send a compressed message whose DEFLATE data uses the reserved"
            + " block type 3.", Expect.fail(new int[] {1007, 1002}),
        p -> p.send(Frame.text(Cases.hex("07 ff ff ff 00")).rsv(4)))
        .withDeflate(DeflateParameters.DEFAULT));
    out.add(Case.of("12.8.2", "Send a compressed message in two fragments with RSV1 set on the"
            + " continuation too (§6.1: only the first frame carries it).", Expect.fail(1002),
        p -> {
          byte[] c = p.deflate().compress(utf8(Cases.ascii(300)));
          p.send(Frame.text(slice(c, 0, c.length / 2)).rsv(4).fin(false));
          p.send(Frame.continuation(slice(c, c.length / 2, c.length)).rsv(4));
        }).withDeflate(DeflateParameters.DEFAULT));
    out.add(Case.of("12.8.3", "Send a ping with RSV1 set (§6.1: control frames are never"
            + " compressed).", Expect.fail(1002),
        p -> p.send(Frame.ping(utf8("compressed?")).rsv(4)))
        .withDeflate(DeflateParameters.DEFAULT));
    out.add(Case.of("12.8.4", "Send a compressed message with RSV2 set as well.",
        Expect.fail(1002), p -> p.send(Frame.text(p.deflate().compress(utf8("two bits")))
            .rsv(6))).withDeflate(DeflateParameters.DEFAULT));
    byte[] invalid = Cases.concat(utf8("valid at first, then "), Cases.hex("ed a0 80"));
    out.add(Case.of("12.8.5", "Send a compressed text message that inflates to invalid UTF-8.",
        Expect.fail(1007), p -> p.send(Frame.text(p.deflate().compress(invalid)).rsv(4)))
        .withDeflate(DeflateParameters.DEFAULT));
    int bomb = 24 << 20;
    DataMessage zeros = DataMessage.binary(new byte[bomb]);
    out.add(Case.of("12.8.6", "Send a compressed binary message of about 24 KiB that inflates to "
            + size(bomb) + " of zeros (a decompression bomb): the peer echoes it as sent, as every"
            + " compressed message is judged, or refuses it by failing the connection with 1009"
            + " (RFC 6455 §10.4 lets a receiver limit the size of a message).",
        new Expect(List.of(new Expect.Behaviour(Verdict.OK, List.of(zeros), Expect.Pongs.NONE),
            new Expect.Behaviour(Verdict.OK, List.of(), Expect.Pongs.NONE)),
            new Expect.CloseRule(null, Map.of(1009, Verdict.OK, 1000, Verdict.OK), Verdict.OK),
            false),
        p -> {
          p.send(Frame.binary(p.deflate().compress(zeros.payload())).rsv(4));
          p.awaitMessages(1);
        }).withDeflate(DeflateParameters.DEFAULT).withTimeout(Duration.ofSeconds(30)));
    return out;
  }

  /**
   * Makes message {@code seed} of a case: {@code size} bytes of the kind, different per seed.
   *
   * @param kind what it is made of
   * @param size its length in bytes
   * @param seed which message
   * @return the message
   */
  static DataMessage payload(Kind kind, int size, int seed) {
    return switch (kind) {
      case REPEATED_TEXT -> DataMessage.text(Cases.ascii(size + seed % 50).substring(seed % 50));
      case RANDOM_BINARY -> DataMessage.binary(Cases.random(size, seed));
      case ZERO_BINARY -> {
        byte[] b = new byte[size];
        b[seed % size] = (byte) seed;
        yield DataMessage.binary(b);
      }
      case JSON_TEXT -> DataMessage.text(json(size, seed));
      case MULTIBYTE_TEXT -> DataMessage.text(multibyte(size, seed));
    };
  }

  private static String json(int size, int seed) {
    SplittableRandom r = new SplittableRandom(seed);
    StringBuilder s = new StringBuilder(size + 100);
    while (s.length() < size) {
      int id = r.nextInt(100_000);
      s.append("{\"id\":").append(id).append(",\"user\":\"user-").append(id % 977)
          .append("\",\"score\":").append(r.nextInt(1000)).append('.').append(r.nextInt(10))
          .append(",\"active\":").append(r.nextBoolean()).append("},");
    }
    return s.substring(0, size);
  }

  private static byte[] multibyte(int size, int seed) {
    String[] words = {"\u03ba\u03cc\u03c3\u03bc\u03b5 ", "\u4e16\u754c ", "\ud83c\udf0d ",
        "\u043c\u0438\u0440 ", "\u00fcber ", "\u2603 ", "\ud83d\ude80 "};
    SplittableRandom r = new SplittableRandom(seed);
    ByteArrayOutputStream out = new ByteArrayOutputStream(size);
    while (true) {
      byte[] w = utf8(words[r.nextInt(words.length)]);
      if (out.size() + w.length > size) {
        break;
      }
      out.writeBytes(w);
    }
    byte[] b = Arrays.copyOf(out.toByteArray(), size);
    Arrays.fill(b, out.size(), size, (byte) '.');
    return b;
  }
}
