package dev.wsjava;

import java.util.concurrent.atomic.LongAdder;

/**
 * A server's running counts, bumped from every connection's thread without a lock or an
 * allocation ({@link LongAdder} spreads contended increments over cells). Read as a {@link
 * WebSocketServer.Stats} snapshot.
 */
final class ServerCounters {
  /** Why an upgrade was refused, for the count of each. */
  enum Reason {
    /** The handshake hook rejected it. */
    APPLICATION,
    /** The server held its maximum of connections. */
    SERVER_FULL,
    /** The remote address held its maximum of connections. */
    ADDRESS_FULL,
    /** The remote address opened connections faster than allowed. */
    HANDSHAKE_RATE
  }

  final LongAdder opened = new LongAdder();
  final LongAdder closed = new LongAdder();
  final LongAdder[] rejected = new LongAdder[Reason.values().length];
  final LongAdder messageRateClosed = new LongAdder();
  final LongAdder messagesIn = new LongAdder();
  final LongAdder messagesOut = new LongAdder();
  final LongAdder bytesIn = new LongAdder();
  final LongAdder bytesOut = new LongAdder();
  final LongAdder sendQueueFull = new LongAdder();

  ServerCounters() {
    for (int i = 0; i < rejected.length; i++) {
      rejected[i] = new LongAdder();
    }
  }

  void rejected(Reason reason) {
    rejected[reason.ordinal()].increment();
  }

  long rejectedCount(Reason reason) {
    return rejected[reason.ordinal()].sum();
  }

  void opened() {
    opened.increment();
  }

  void closed() {
    closed.increment();
  }

  void received(int bytes) {
    messagesIn.increment();
    bytesIn.add(bytes);
  }

  void sent(int bytes) {
    messagesOut.increment();
    bytesOut.add(bytes);
  }
}
