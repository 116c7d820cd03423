package dev.wsjava.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * Test helper: a TCP server on the loopback address that serves each connection on a virtual
 * thread of its own, for peers written by hand. Every socket it accepts times out reads after
 * 10 s, so no connection outlives a test for long.
 */
final class LoopbackServer implements AutoCloseable {
  /** Serves one accepted connection; the socket is closed afterwards. */
  @FunctionalInterface
  interface Handler {
    void serve(Socket socket) throws IOException;
  }

  private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
  private final Handler handler;

  LoopbackServer(Handler handler) throws IOException {
    this.handler = handler;
    Thread.ofVirtual().name("loopback-accept").start(this::acceptLoop);
  }

  int port() {
    return listener.getLocalPort();
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      Socket s;
      try {
        s = listener.accept();
      } catch (IOException closed) {
        return;
      }
      Thread.ofVirtual().name("loopback-connection").start(() -> {
        try (s) {
          s.setSoTimeout(10_000);
          handler.serve(s);
        } catch (IOException e) {
          // the peer went away, or timed out: the test sees what it needs from the peer's side
        }
      });
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
  }
}
