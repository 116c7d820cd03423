package dev.wsjava.cli.balancer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

/** Free loopback ports, and waiting for a started program to listen. Stateless. */
final class Loopback {
  private Loopback() {}

  /** A port free on {@code host} now (a program told to use it binds it a moment later). */
  static int freePort(String host) {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(host))) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits until {@code host:port} accepts a TCP connection. */
  static void awaitListening(String host, int port, Duration max, Process process, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (true) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(host, port), 500);
        return;
      } catch (IOException notYet) {
        if (!process.isAlive() || System.nanoTime() - deadline > 0) {
          throw new IllegalStateException(what + " does not listen on " + host + ":" + port
              + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")"));
        }
        Thread.sleep(50);
      }
    }
  }
}
