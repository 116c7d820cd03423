package dev.wsjava;

import dev.wsjava.events.Loggers;
import dev.wsjava.events.WsEvents;
import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.internal.proxyprotocol.TrustedProxies;
import dev.wsjava.transport.Connection;
import dev.wsjava.transport.HandshakeInfo;
import dev.wsjava.transport.Verdict;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * A server's limits against abuse and their state: open WebSocket connections (server-wide and
 * per remote address), the handshake rate per address, the inbound message rate per connection.
 * Shared by every connection of the server; thread-safe.
 *
 * <p>A connection counts as open from its {@code onOpen} to its {@code onClose}, which the
 * transports report exactly once each. Upgrades decided at the same moment therefore see the same
 * count, and a burst may pass a connection limit by the handshakes in flight; the handshake rate
 * bounds that burst.
 */
final class Serving {
  /** Retry-After, in seconds, of a server or an address at its connection limit. */
  static final int FULL_RETRY_AFTER_SECONDS = 5;

  final int maxConnections;
  final int maxPerAddress;
  final RateLimit handshakeRate;
  final RateLimit messageRate;
  final LongSupplier clock;
  final TrustedProxies trustedProxies;
  /** The server these limits are of; set once at its build, before any connection. */
  ServerRef server;
  final ServerCounters counters = new ServerCounters();
  private final AtomicInteger open = new AtomicInteger();
  /**
   * The open connections, for their traffic and a drain: a list through the sockets themselves
   * ({@link WebSocketImpl#prevLive}, {@link WebSocketImpl#nextLive}), 8 bytes per connection
   * where a concurrent set's entry took 32. Guarded by {@link #liveLock}; only opens and closes
   * take it.
   */
  private WebSocketImpl liveHead;

  private final Object liveLock = new Object();
  private final ConcurrentHashMap<InetAddress, PerAddress> addresses = new ConcurrentHashMap<>();
  private final boolean tracksAddresses;
  private volatile int sweepAt = 1024;
  /** Set by a drain: upgrades that still arrive (accepted before it) are refused 503. */
  volatile boolean draining;

  /** What the server keeps per remote address: open connections and the handshake bucket. */
  private static final class PerAddress {
    int open;
    final RateLimit.Bucket handshakes = new RateLimit.Bucket();
  }

  Serving(
      int maxConnections,
      int maxPerAddress,
      RateLimit handshakeRate,
      RateLimit messageRate,
      LongSupplier clock,
      TrustedProxies trustedProxies) {
    this.trustedProxies = trustedProxies;
    this.maxConnections = maxConnections;
    this.maxPerAddress = maxPerAddress;
    this.handshakeRate = handshakeRate;
    this.messageRate = messageRate;
    this.clock = clock;
    this.tracksAddresses = maxPerAddress < Integer.MAX_VALUE || handshakeRate != null;
  }

  /**
   * The handshake as from its real client: when the connection comes from a trusted proxy, the
   * client its {@code Forwarded} or {@code X-Forwarded-For} fields name (see {@link
   * TrustedProxies#client}); else {@code info} itself.
   */
  HandshakeInfo fromClient(HandshakeInfo info) {
    if (trustedProxies.isEmpty() || !(info.remoteAddress() instanceof InetSocketAddress peer)) {
      return info;
    }
    InetSocketAddress client =
        trustedProxies.client(
            peer, info.headers().all("Forwarded"), info.headers().all("X-Forwarded-For"));
    return client == peer
        ? info
        : new HandshakeInfo(info.request(), info.subprotocol(), info.extensions(), client,
            info.localAddress(), info.tlsSession());
  }

  /**
   * Checks an upgrade against the limits; counts what it refuses.
   *
   * @return null to go on, or the refusal: 503 when the server is full, 429 when the address is
   *     (both with Retry-After)
   */
  Verdict admit(HandshakeInfo info) {
    if (draining) {
      return refuse(info, 503, FULL_RETRY_AFTER_SECONDS, "the server is draining");
    }
    if (open.get() >= maxConnections) {
      counters.rejected(ServerCounters.Reason.SERVER_FULL);
      limitHit("server-connections", info.remoteAddress());
      return refuse(info, 503, FULL_RETRY_AFTER_SECONDS, "the server holds " + maxConnections + " connections");
    }
    if (!tracksAddresses) {
      return null;
    }
    InetAddress address = address(info.remoteAddress());
    if (address == null) {
      return null;
    }
    long now = clock.getAsLong();
    PerAddress p = addresses.computeIfAbsent(address, a -> new PerAddress());
    long wait;
    synchronized (p) {
      if (p.open >= maxPerAddress) {
        counters.rejected(ServerCounters.Reason.ADDRESS_FULL);
        limitHit("address-connections", info.remoteAddress());
        return refuse(
            info,
            429,
            FULL_RETRY_AFTER_SECONDS,
            address.getHostAddress() + " holds " + maxPerAddress + " connections");
      }
      wait = handshakeRate == null ? 0 : p.handshakes.take(handshakeRate, now);
    }
    sweep(now);
    if (wait > 0) {
      counters.rejected(ServerCounters.Reason.HANDSHAKE_RATE);
      limitHit("handshake-rate", info.remoteAddress());
      int seconds = (int) Math.min(Integer.MAX_VALUE, Math.max(1, (wait + 999_999_999L) / 1_000_000_000L));
      return refuse(info, 429, seconds, address.getHostAddress() + " opens connections too fast");
    }
    return null;
  }

  private static Verdict refuse(HandshakeInfo info, int status, int retryAfterSeconds, String reason) {
    rejected(info, status, reason);
    return new Verdict.Refuse(
        ServerHandshake.reject(
            status,
            reason,
            Headers.builder().add("Retry-After", Integer.toString(retryAfterSeconds)).build()));
  }

  /** Records an upgrade refused before the 101: a Flight Recorder event and a DEBUG line. */
  static void rejected(HandshakeInfo info, int status, String reason) {
    rejected(info.remoteAddress(), info.target(), status, reason);
  }

  /**
   * Counts and records an upgrade request the transport refused by RFC 6455 §4.2 or the Origin
   * policy (its target is not known here).
   */
  void refusedByProtocol(SocketAddress remote, int status, String reason) {
    counters.rejected(
        status == 0 ? ServerCounters.Reason.PROXY_HEADER : ServerCounters.Reason.PROTOCOL);
    rejected(remote, null, status, reason);
  }

  private static void rejected(SocketAddress remote, String target, int status, String reason) {
    WsEvents.HandshakeRejected e = new WsEvents.HandshakeRejected();
    if (e.shouldCommit()) {
      e.remote = String.valueOf(remote);
      e.path = target;
      e.status = status;
      e.reason = reason;
      e.commit();
    }
    if (Loggers.SERVER.isLoggable(System.Logger.Level.DEBUG)) {
      Loggers.SERVER.log(
          System.Logger.Level.DEBUG,
          "refused " + (target == null ? "an upgrade" : target) + " from " + remote + ": " + status
              + ", " + reason);
    }
  }

  /** Records a limit hit: a Flight Recorder event and a DEBUG line. */
  void limitHit(String limit, SocketAddress remote) {
    WsEvents.LimitHit e = new WsEvents.LimitHit();
    if (e.shouldCommit()) {
      e.limit = limit;
      e.remote = String.valueOf(remote);
      e.commit();
    }
    if (Loggers.LIMITS.isLoggable(System.Logger.Level.DEBUG)) {
      Loggers.LIMITS.log(System.Logger.Level.DEBUG, limit + " limit hit by " + remote);
    }
  }

  void opened(WebSocketImpl ws, SocketAddress remote) {
    synchronized (liveLock) {
      WebSocketImpl head = liveHead;
      ws.nextLive = head;
      if (head != null) {
        head.prevLive = ws;
      }
      liveHead = ws;
    }
    open.incrementAndGet();
    counters.opened();
    if (tracksAddresses) {
      InetAddress a = address(remote);
      if (a != null) {
        addresses.compute(
            a,
            (k, p) -> {
              PerAddress q = p != null ? p : new PerAddress();
              synchronized (q) {
                q.open++;
              }
              return q;
            });
      }
    }
  }

  void closed(WebSocketImpl ws, Connection c, SocketAddress remote) {
    // Out of the open list first, then into the closed sums: a snapshot meanwhile may miss the
    // connection's traffic for a moment, never count it twice.
    boolean wasLive;
    synchronized (liveLock) {
      wasLive = ws.prevLive != null || liveHead == ws; // in the list
      if (wasLive) {
        WebSocketImpl prev = ws.prevLive;
        WebSocketImpl next = ws.nextLive;
        if (prev == null) {
          liveHead = next;
        } else {
          prev.nextLive = next;
        }
        if (next != null) {
          next.prevLive = prev;
        }
        ws.prevLive = null;
        ws.nextLive = null;
      }
    }
    if (wasLive) {
      counters.retire(c.traffic());
    }
    open.decrementAndGet();
    counters.closed();
    if (tracksAddresses) {
      InetAddress a = address(remote);
      if (a != null) {
        addresses.computeIfPresent(
            a,
            (k, p) -> {
              synchronized (p) {
                p.open--;
              }
              return p;
            });
      }
    }
  }

  int open() {
    return open.get();
  }

  /** The WebSocket connections open now, for a drain to close. */
  java.util.List<Connection> openConnections() {
    java.util.List<Connection> out = new java.util.ArrayList<>();
    synchronized (liveLock) {
      for (WebSocketImpl ws = liveHead; ws != null; ws = ws.nextLive) {
        Connection c = ws.connection();
        if (c != null) {
          out.add(c);
        }
      }
    }
    return out;
  }

  /** Returns the traffic of every connection so far: {messages in, bytes in, out, bytes out}. */
  long[] traffic() {
    // Sums the closed sums and the open list under the lock: a close meanwhile waits, so no
    // connection is counted both as closed and as open.
    synchronized (liveLock) {
      return counters.traffic(openConnections());
    }
  }

  /** A per-connection message bucket, or null when messages are not limited. */
  RateLimit.Bucket messageBucket() {
    return messageRate == null ? null : new RateLimit.Bucket();
  }

  /**
   * Forgets the addresses that hold nothing (no connection, a whole bucket) once the map has
   * doubled since the last sweep, so that many addresses passing by cannot grow it for ever.
   */
  private void sweep(long now) {
    int size = addresses.size();
    if (size < sweepAt) {
      return;
    }
    for (InetAddress a : addresses.keySet()) {
      // Atomic with opened()'s compute of the same key: a connection counted meanwhile keeps it.
      addresses.computeIfPresent(
          a,
          (k, p) -> {
            synchronized (p) {
              return p.open <= 0 && p.handshakes.idle(now) ? null : p;
            }
          });
    }
    sweepAt = Math.max(1024, addresses.size() * 2);
  }

  int trackedAddresses() {
    return addresses.size();
  }

  private static InetAddress address(SocketAddress a) {
    return a instanceof InetSocketAddress i ? i.getAddress() : null;
  }
}
