package dev.wsjava;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One connection that writes small messages as fast as its socket takes them, with no window of
 * messages in flight, against the README's echo listener: every echo must come back whole, once,
 * in order. The server's socket keeps refusing writes in the middle of its read passes here, which
 * is what a windowless flood does and a request-response test never does (a fault in the queue's
 * gathering writes once dropped echoes this way, see {@code ./bench e2e}'s smallflood point).
 *
 * <p>Bounded in messages and in time; the reader checks each echo as it comes, so a fault is
 * reported at the first wrong byte, with the sequence number it carries.
 */
@Timeout(90)
class FloodEchoTest {
  private static final int SIZE = 300;
  private static final int FRAME_IN = 2 + 2 + 4 + SIZE; // masked, 16-bit length
  private static final int FRAME_OUT = 2 + 2 + SIZE;
  private static final int BATCH = 997;
  private static final long PAUSE_EVERY = 200_000;
  private static final long MESSAGES = 3_000_000;
  private static final long SENDING_NANOS = TimeUnit.SECONDS.toNanos(8);

  @ParameterizedTest
  @EnumSource(Transport.class)
  void everyEchoOfAWindowlessFloodComesBackInOrder(Transport transport) throws Exception {
    try (WebSocketServer server = BinaryEcho.start(transport);
        SocketChannel client =
            SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
      ByteBuffer in = ByteBuffer.allocateDirect(256 * 1024);
      BinaryEcho.upgrade(client, in);
      AtomicLong sent = new AtomicLong();
      AtomicReference<Throwable> writerFailed = new AtomicReference<>();
      Thread writer = Thread.ofPlatform().name("flood writer").start(() -> {
        try {
          write(client, sent);
        } catch (Throwable e) {
          writerFailed.set(e);
        }
      });
      long checked = read(client, in, sent);
      writer.join(TimeUnit.SECONDS.toMillis(30));
      assertNull(writerFailed.get(), "the writer failed");
      assertTrue(checked > BATCH, "too few echoes to mean anything: " + checked);
      assertEquals(sent.get() & Long.MAX_VALUE, checked, "every message sent came back");
    }
  }

  /**
   * Writes frames until the count or the time is reached, in writes of uneven sizes so that the
   * server's reads end anywhere in a frame; publishes the count of whole frames written.
   */
  private static void write(SocketChannel client, AtomicLong sent) throws IOException {
    ByteBuffer stream = ByteBuffer.allocateDirect(BATCH * FRAME_IN);
    int[] cuts = {1, 4099, 65_553, 307, 20_011, 131_071, 2};
    long deadline = System.nanoTime() + SENDING_NANOS;
    long seq = 0;
    int cut = 0;
    java.util.SplittableRandom keys = new java.util.SplittableRandom(42);
    while (seq < MESSAGES && System.nanoTime() < deadline) {
      stream.clear();
      for (int i = 0; i < BATCH; i++) {
        int key = keys.nextInt();
        stream.put((byte) 0x82).put((byte) (0x80 | 126)).putShort((short) SIZE).putInt(key);
        int at = stream.position();
        fill(stream, seq + i);
        for (int k = 0; k < SIZE; k++) { // mask (RFC 6455 §5.3)
          stream.put(at + k, (byte) (stream.get(at + k) ^ (key >>> (24 - 8 * (k & 3)))));
        }
      }
      stream.flip();
      while (stream.hasRemaining()) {
        int end = stream.limit();
        stream.limit(Math.min(end, stream.position() + cuts[cut++ % cuts.length]));
        while (stream.hasRemaining()) {
          client.write(stream);
        }
        stream.limit(end);
      }
      seq += BATCH;
      sent.set(seq);
    }
    sent.set(seq | Long.MIN_VALUE); // done: the top bit says the count is final
  }

  /** Each message: its sequence number, then bytes that depend on it and on their offset. */
  private static void fill(ByteBuffer b, long seq) {
    b.putLong(seq);
    for (int i = 8; i < SIZE; i++) {
      b.put((byte) (seq * 31 + i));
    }
  }

  /** Reads and checks echoes until every one sent came back; returns how many did. */
  private static long read(SocketChannel client, ByteBuffer in, AtomicLong sent)
      throws IOException {
    long expect = 0;
    long nextPause = PAUSE_EVERY;
    while (true) {
      long s = sent.get();
      if (s < 0 && expect == (s & Long.MAX_VALUE)) {
        return expect;
      }
      if (expect >= nextPause) {
        // Stop reading for a while, as a single-threaded client does while it writes: the
        // server's socket fills and its writes are refused in the middle of its read passes.
        nextPause = expect + PAUSE_EVERY;
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
        while ((sent.get() & Long.MAX_VALUE) < expect + PAUSE_EVERY && sent.get() >= 0
            && System.nanoTime() < until) {
          java.util.concurrent.locks.LockSupport.parkNanos(100_000); // not a core of CI's two
        }
      }
      if (client.read(in) < 0) {
        throw new IOException("the server closed the connection after " + expect + " echoes");
      }
      in.flip();
      while (in.remaining() >= FRAME_OUT) {
        int p = in.position();
        assertEquals(0x82, in.get(p) & 0xff, "echo " + expect + ": first header byte");
        assertEquals(126, in.get(p + 1) & 0xff, "echo " + expect + ": length byte");
        assertEquals(SIZE, in.getShort(p + 2) & 0xffff, "echo " + expect + ": length");
        long got = in.getLong(p + 4);
        if (got != expect) {
          throw new AssertionError("echo " + expect + " carries sequence number " + got + " ("
              + (got - expect) + " messages off)");
        }
        for (int i = 8; i < SIZE; i++) {
          if (in.get(p + 4 + i) != (byte) (expect * 31 + i)) {
            throw new AssertionError("echo " + expect + " is wrong at byte " + i);
          }
        }
        in.position(p + FRAME_OUT);
        expect++;
      }
      in.compact();
    }
  }
}
