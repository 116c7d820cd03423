package dev.wsjava;

import dev.wsjava.transport.Connection;
import java.util.concurrent.atomic.LongAdder;

/**
 * A server's running counts, bumped from every connection's thread without a lock or an
 * allocation ({@link LongAdder} spreads contended increments over cells). Read as a {@link
 * WebSocketServer.Stats} snapshot.
 *
 * <p>Nothing here is touched per message: each connection's session counts its own messages and
 * bytes in plain fields (see {@link Connection#traffic()}); a snapshot sums the open connections
 * and what the closed ones left behind. The message path of a server stays as fast with the
 * counts as without them.
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
    HANDSHAKE_RATE,
    /** RFC 6455 §4.2 or the Origin policy refused the request, before the hook or a limit. */
    PROTOCOL,
    /** A server requiring the PROXY protocol got no valid header: closed without an answer. */
    PROXY_HEADER
  }

  final LongAdder opened = new LongAdder();
  final LongAdder closed = new LongAdder();
  final LongAdder[] rejected = new LongAdder[Reason.values().length];
  final LongAdder messageRateClosed = new LongAdder();
  /** The traffic of the connections already closed: messages in, bytes in, messages out, out. */
  private final LongAdder[] retired = {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()};
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

  /** Keeps the traffic of a connection that closed (see {@link Connection#traffic()}). */
  void retire(long[] traffic) {
    for (int i = 0; i < retired.length; i++) {
      retired[i].add(traffic[i]);
    }
  }

  /**
   * Sums the traffic of the closed connections and of {@code open} ones.
   *
   * @return {messages in, bytes in, messages out, bytes out}
   */
  long[] traffic(Iterable<Connection> open) {
    long[] sum = new long[retired.length];
    for (int i = 0; i < sum.length; i++) {
      sum[i] = retired[i].sum();
    }
    for (Connection c : open) {
      long[] t = c.traffic();
      for (int i = 0; i < sum.length; i++) {
        sum[i] += t[i];
      }
    }
    return sum;
  }
}
