package dev.wsjava;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import org.junit.jupiter.api.Test;

/**
 * The NIO server's echo path allocates no garbage per message beyond the send's future (issue
 * 39): a regression guard for {@code ./bench alloc}, which measures the same path exactly. The
 * server's loop thread's allocated bytes are read with {@code ThreadMXBean} over batches of
 * pipelined binary echoes, after a warm-up that lets the JIT compile the path.
 */
class EchoAllocationTest {
  private static final int BATCH = 64;

  @Test
  void aBinaryEchoAllocatesLittleMoreThanItsFuture() throws Exception {
    // 32 bytes are the future sendBinary returns; before issue 39 it was 173.
    double perMessage = echoAllocation(false, new WebSocketListener() {
      @Override
      public void onBinary(WebSocket ws, ByteBuffer data) {
        ws.sendBinary(data);
      }
    });
    assertTrue(perMessage < 64, perMessage + " bytes per message");
  }

  /**
   * Streamed messages too, each sent as a 300 B fragment and an empty final frame, so that each
   * ends with an empty last piece (as compressed messages do): the listener gathers the pieces into
   * its own buffer and echoes the whole.
   */
  @Test
  void aStreamedEchoAllocatesLittleMoreThanItsFuture() throws Exception {
    double perMessage = echoAllocation(true, new WebSocketListener() {
      private final ByteBuffer message = ByteBuffer.allocate(1024);
      private ByteBuffer seen; // the piece escapes, as through a listener the JIT cannot inline

      @Override
      public void onMessagePart(WebSocket ws, boolean text, ByteBuffer part, boolean last) {
        seen = part;
        message.put(part);
        if (last) {
          ws.sendBinary(message.flip());
          message.clear();
        }
      }
    });
    // Before the end piece was reused, a fresh empty buffer per message made it 88.
    assertTrue(perMessage < 64, perMessage + " bytes per message");
  }

  /**
   * The bytes the server's loop allocates per pipelined 300 B binary echo, once warm; {@code
   * streamed}: the server streams messages, and each comes in two frames, the second empty.
   */
  private static double echoAllocation(boolean streamed, WebSocketListener echo) throws Exception {
    WebSocketConfig config = WebSocketConfig.builder().transport(Transport.NIO).eventLoops(1)
        .deflate(null).streamMessages(streamed).build();
    try (WebSocketServer server =
            WebSocketServer.builder().bind("127.0.0.1", 0).config(config).websocket("/echo", echo)
                .start();
        SocketChannel client =
            SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
      ByteBuffer in = ByteBuffer.allocateDirect(64 * 1024);
      BinaryEcho.upgrade(client, in);
      ByteBuffer batch = ByteBuffer.allocateDirect(BATCH * 320);
      for (int i = 0; i < BATCH; i++) {
        batch.put((byte) (streamed ? 0x02 : 0x82)).put((byte) (0x80 | 126)).putShort((short) 300)
            .putInt(0x37fa213d);
        batch.put(new byte[300]);
        if (streamed) {
          batch.put((byte) 0x80).put((byte) 0x80).putInt(0x37fa213d); // empty final continuation
        }
      }
      batch.flip();
      for (int i = 0; i < 2000; i++) { // warm-up: 128 k messages
        echo(client, batch, in);
      }
      // The server's loop is the loop thread that allocates the most (other tests' loops in this
      // JVM, if any still run, echo nothing).
      Thread[] loops =
          Thread.getAllStackTraces().keySet().stream()
              .filter(t -> t.getName().startsWith("wsjava-nio-"))
              .toArray(Thread[]::new);
      long[] before = new long[loops.length];
      for (int i = 0; i < loops.length; i++) {
        before[i] = allocated(loops[i]);
      }
      int batches = 500;
      for (int i = 0; i < batches; i++) {
        echo(client, batch, in);
      }
      long most = 0;
      for (int i = 0; i < loops.length; i++) {
        most = Math.max(most, allocated(loops[i]) - before[i]);
      }
      return most / (double) (batches * BATCH);
    }
  }

  /** Writes the batch and reads its echoes: 64 frames of 4 + 300 bytes. */
  private static void echo(SocketChannel client, ByteBuffer batch, ByteBuffer in)
      throws IOException {
    batch.rewind();
    while (batch.hasRemaining()) {
      client.write(batch);
    }
    int want = BATCH * 304;
    while (in.position() < want) {
      if (client.read(in) < 0) {
        throw new IOException("the server closed");
      }
    }
    assertEquals(want, in.position(), "echoed bytes");
    assertEquals((byte) 0x82, in.get(0));
    in.clear();
  }

  private static long allocated(Thread t) {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getThreadAllocatedBytes(t.threadId());
  }
}
