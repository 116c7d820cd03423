package dev.wsjava.transport.nio;

import java.time.Duration;
import java.util.Objects;

/**
 * The event-loop settings the NIO server's and client's builders share, written once: a shared
 * group, or the size and spin of a group of their own.
 */
final class LoopOptions {
  private int eventLoops;
  private Duration spin = EventLoopGroup.DEFAULT_SPIN;
  private EventLoopGroup group;

  void group(EventLoopGroup value) {
    group = Objects.requireNonNull(value, "group");
  }

  void eventLoops(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("eventLoops must be at least 1: " + count);
    }
    eventLoops = count;
  }

  void spin(Duration value) {
    spin = EventLoopGroup.checkSpin(value);
  }

  /** Whether the server or client makes (and so shuts down) a group of its own. */
  boolean ownsGroup() {
    return group == null;
  }

  /** The shared group, or a new one of the configured size and spin. */
  EventLoopGroup open() {
    return group == null ? EventLoopGroup.own(eventLoops, spin) : group;
  }
}
