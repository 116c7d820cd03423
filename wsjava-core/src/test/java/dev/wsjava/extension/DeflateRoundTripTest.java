package dev.wsjava.extension;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * RFC 7692 §7.2 round trip: messages of any size and compressibility, compressed by one end in
 * frames of any sizes and inflated by the other, come back byte for byte, message after message,
 * with or without context takeover in either direction, whichever end sends.
 */
class DeflateRoundTripTest {

  @Property(tries = 150)
  void whatOneEndCompressesTheOtherInflatesToTheSameBytes(
      @ForAll("messages") List<byte[]> messages,
      @ForAll @Size(min = 1, max = 4) List<@IntRange(min = 1, max = 40_000) Integer> frameSizes,
      @ForAll boolean serverSends,
      @ForAll boolean serverNoContextTakeover,
      @ForAll boolean clientNoContextTakeover) throws Exception {
    PerMessageDeflate config = PerMessageDeflate.builder()
        .minCompressSize(0)
        .serverNoContextTakeover(serverNoContextTakeover)
        .clientNoContextTakeover(clientNoContextTakeover)
        .build();
    ExtensionFactory.Accepted accepted = config.serverAccept(config.clientOffers());
    Extension server = accepted.extension();
    Extension client = config.clientAccept(accepted.response());
    Extension sender = serverSends ? server : client;
    Extension receiver = serverSends ? client : server;
    try {
      int sizeAt = 0;
      for (byte[] message : messages) {
        // Send in frames of the chosen sizes; each frame's compressed payload is one frame.
        List<byte[]> frames = new ArrayList<>();
        int rsv = 0;
        int at = 0;
        do {
          int n = Math.min(message.length - at, frameSizes.get(sizeAt++ % frameSizes.size()));
          boolean fin = at + n == message.length;
          ByteArrayOutputStream frame = new ByteArrayOutputStream();
          int bits = sender.encode(at == 0, fin, ByteBuffer.wrap(message, at, n), collect(frame));
          if (at == 0) {
            rsv = bits;
          } else {
            assertThat(bits).as("RSV1 on the first frame only").isZero();
          }
          frames.add(frame.toByteArray());
          at += n;
        } while (at < message.length);
        assertThat(rsv).as("compressed (RSV1)").isEqualTo(Extension.RSV1);
        ByteArrayOutputStream inflated = new ByteArrayOutputStream();
        for (int i = 0; i < frames.size(); i++) {
          receiver.decode(rsv, i == frames.size() - 1, ByteBuffer.wrap(frames.get(i)),
              collect(inflated));
        }
        assertThat(inflated.toByteArray()).isEqualTo(message);
      }
    } finally {
      server.close();
      client.close();
    }
  }

  private static ByteSink collect(ByteArrayOutputStream out) {
    return chunk -> {
      byte[] b = new byte[chunk.remaining()];
      chunk.get(b);
      out.writeBytes(b);
    };
  }

  @Provide
  Arbitrary<List<byte[]>> messages() {
    Arbitrary<Integer> sizes = Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.integers().between(0, 200)),
        Tuple.of(2, Arbitraries.integers().between(0, 20_000)),
        Tuple.of(1, Arbitraries.integers().between(0, 150_000)));
    Arbitrary<String> kinds = Arbitraries.of("random", "text", "zeros", "repeats");
    return Combinators.combine(sizes, kinds, Arbitraries.longs())
        .as(DeflateRoundTripTest::message)
        .list().ofMinSize(1).ofMaxSize(4);
  }

  /** A message of {@code size} bytes: incompressible, text-like, zeros, or with long repeats. */
  static byte[] message(int size, String kind, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[] a = new byte[size];
    switch (kind) {
      case "random" -> r.nextBytes(a);
      case "text" -> {
        for (int i = 0; i < size; i++) {
          a[i] = (byte) (r.nextInt(5) == 0 ? ' ' : 'a' + r.nextInt(6));
        }
      }
      case "repeats" -> {
        byte[] unit = new byte[1 + r.nextInt(300)];
        r.nextBytes(unit);
        for (int i = 0; i < size; i++) {
          a[i] = unit[i % unit.length];
        }
      }
      default -> { } // zeros
    }
    return a;
  }
}
