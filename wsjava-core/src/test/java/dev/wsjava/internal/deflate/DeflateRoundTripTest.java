package dev.wsjava.internal.deflate;

import dev.wsjava.extension.ByteSink;
import dev.wsjava.extension.Extension;
import dev.wsjava.extension.ExtensionFactory;
import dev.wsjava.extension.PerMessageDeflate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.protocol.Shrink;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * RFC 7692 §7.2 round trip: messages of any size and compressibility, compressed by one end in
 * frames of any sizes and inflated by the other, come back byte for byte, message after message,
 * with or without context takeover in either direction, whichever end sends. Seeded: each case is
 * drawn from its seed, which is in the case's name ({@code -Dwsjava.seed=S} reruns one); a failing
 * case is shrunk to the fewest of its messages that still fail.
 */
class DeflateRoundTripTest {

  private static final String[] KINDS = {"random", "text", "zeros", "repeats"};

  /** A message: its kind and size, and the seed of its bytes. */
  record Message(String kind, int size, long seed) {
    byte[] bytes() {
      return message(size, kind, seed);
    }

    @Override
    public String toString() {
      return kind + " " + size + " B";
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#seeds")
  void whatOneEndCompressesTheOtherInflatesToTheSameBytes(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Message> messages = new ArrayList<>();
    for (int n = 1 + r.nextInt(4); n > 0; n--) {
      int size = switch (r.nextInt(7)) {
        case 0, 1, 2, 3 -> r.nextInt(201);
        case 4, 5 -> r.nextInt(20_001);
        default -> r.nextInt(150_001);
      };
      messages.add(new Message(KINDS[r.nextInt(KINDS.length)], size, r.nextLong()));
    }
    int[] frameSizes = new int[1 + r.nextInt(4)];
    for (int i = 0; i < frameSizes.length; i++) {
      frameSizes[i] = r.nextInt(4) == 0 ? 1 + r.nextInt(16) : 1 + r.nextInt(40_000);
    }
    boolean serverSends = r.nextBoolean();
    boolean serverNoContextTakeover = r.nextBoolean();
    boolean clientNoContextTakeover = r.nextBoolean();
    Shrink.check(seed, messages,
        m -> String.format("%s sends in frames of %s bytes, server %s, client %s; messages: %s",
            serverSends ? "server" : "client", Arrays.toString(frameSizes),
            serverNoContextTakeover ? "no_context_takeover" : "takes over",
            clientNoContextTakeover ? "no_context_takeover" : "takes over",
            m.stream().map(Message::toString).collect(Collectors.joining(", "))),
        m -> roundTrip(m, frameSizes, serverSends, serverNoContextTakeover,
            clientNoContextTakeover));
  }

  private static void roundTrip(List<Message> messages, int[] frameSizes, boolean serverSends,
      boolean serverNoContextTakeover, boolean clientNoContextTakeover) throws Exception {
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
      for (int m = 0; m < messages.size(); m++) {
        byte[] message = messages.get(m).bytes();
        // Send in frames of the chosen sizes; each frame's compressed payload is one frame.
        List<byte[]> frames = new ArrayList<>();
        int rsv = 0;
        int at = 0;
        do {
          int n = Math.min(message.length - at, frameSizes[sizeAt++ % frameSizes.length]);
          boolean fin = at + n == message.length;
          ByteArrayOutputStream frame = new ByteArrayOutputStream();
          int bits = sender.encode(at == 0, fin, ByteBuffer.wrap(message, at, n), collect(frame));
          if (at == 0) {
            rsv = bits;
          } else {
            assertThat(bits).as("RSV1 on the first frame only (message %d)", m).isZero();
          }
          frames.add(frame.toByteArray());
          at += n;
        } while (at < message.length);
        if (rsv != Extension.RSV1) {
          // Compressing did not pay: the message went out as it is, RSV1 clear (RFC 7692 §6),
          // and the context of both ends must survive it.
          ByteArrayOutputStream raw = new ByteArrayOutputStream();
          frames.forEach(raw::writeBytes);
          assertThat(raw.toByteArray()).as("uncompressed as it is (message %d)", m).isEqualTo(message);
        }
        ByteArrayOutputStream inflated = new ByteArrayOutputStream();
        for (int i = 0; i < frames.size(); i++) {
          receiver.decode(rsv, i == frames.size() - 1, ByteBuffer.wrap(frames.get(i)),
              collect(inflated));
        }
        byte[] got = inflated.toByteArray();
        assertThat(got.length).as("length inflated (message %d)", m).isEqualTo(message.length);
        assertThat(Arrays.mismatch(got, message))
            .as("first byte that differs (message %d)", m).isEqualTo(-1);
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
