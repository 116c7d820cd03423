package dev.wsjava;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A separate process holding many TCP connections that never finish the opening handshake (a
 * process may hold only 20,000 descriptors here, so 10,000 peers and the server they attack cannot
 * share one JVM). Half of the peers send part of a request line, half send nothing. Prints {@code
 * OPEN <count> <ms>} once all are connected, then {@code ENDED <count> <ms>} once the server has
 * closed them (or the deadline passed), and exits.
 *
 * <p>Usage: {@code HalfOpenPeers host port count deadlineSeconds}
 */
final class HalfOpenPeers {
  private HalfOpenPeers() {}

  public static void main(String[] args) throws IOException {
    InetSocketAddress server = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
    int count = Integer.parseInt(args[2]);
    long deadline = System.nanoTime() + Long.parseLong(args[3]) * 1_000_000_000L;
    long started = System.nanoTime();
    byte[] partial = "GET /echo HTTP/1.1\r\nHost: x".getBytes(StandardCharsets.US_ASCII);
    List<SocketChannel> peers = new ArrayList<>(count);
    try (Selector selector = Selector.open()) {
      for (int i = 0; i < count; i++) {
        SocketChannel ch = SocketChannel.open(server);
        if (i % 2 == 0) {
          ch.write(ByteBuffer.wrap(partial));
        }
        ch.configureBlocking(false);
        ch.register(selector, SelectionKey.OP_READ);
        peers.add(ch);
      }
      System.out.println("OPEN " + count + " " + millisSince(started));
      System.out.flush();
      ByteBuffer sink = ByteBuffer.allocate(4096);
      int ended = 0;
      while (ended < count && System.nanoTime() < deadline) {
        selector.select(100);
        for (SelectionKey key : selector.selectedKeys()) {
          SocketChannel ch = (SocketChannel) key.channel();
          int n;
          try {
            sink.clear();
            n = ch.read(sink);
          } catch (IOException reset) {
            n = -1; // a reset ends it too
          }
          if (n < 0) {
            key.cancel();
            ch.close();
            ended++;
          }
        }
        selector.selectedKeys().clear();
      }
      System.out.println("ENDED " + ended + " " + millisSince(started));
    } finally {
      for (SocketChannel ch : peers) {
        ch.close();
      }
    }
  }

  private static long millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }
}
