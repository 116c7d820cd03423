package dev.wsjava.transport;

import dev.wsjava.session.MemoryBudget;
import dev.wsjava.session.SessionConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Objects;

/**
 * How a transport runs a connection: the session's rules plus queue bounds and timeouts.
 * Immutable.
 *
 * @param session limits, auto-pong and message delivery of the protocol session
 * @param maxQueuedBytes most bytes waiting to be written before sends fail fast
 * @param handshakeTimeout longest time from TCP accept or connect to a completed handshake
 * @param idleTimeout longest time without any byte received before the connection is closed
 *     (1001); {@link Duration#ZERO} for none
 * @param pingInterval how often to ping an otherwise quiet peer; {@link Duration#ZERO} for none
 * @param closeTimeout longest wait for the peer's close frame or TCP close after this end closed
 * @param readBufferSize bytes read from the socket at once
 * @param pongTimeout how long after a ping the peer has to send anything (its pong, or any frame)
 *     before it is taken as dead: the connection is then closed at once, reported as 1006, with no
 *     closing handshake (a dead peer cannot answer one); {@link Duration#ZERO} for the ping
 *     interval (see {@link #deadPeerTimeout()})
 * @param socket the TCP options of each connection's socket
 * @param memory the memory budget the connections of one server (or one client) share; one
 *     instance per server, not per connection
 * @param progress the slow-trickle rule: how much a peer must send while a message is incomplete
 */
public record ConnectionConfig(
    SessionConfig session,
    long maxQueuedBytes,
    Duration handshakeTimeout,
    Duration idleTimeout,
    Duration pingInterval,
    Duration closeTimeout,
    int readBufferSize,
    Duration pongTimeout,
    SocketOptions socket,
    MemoryBudget memory,
    Progress progress) {

  /** 16 MiB: one maximal message may always be queued, and no slow reader can grow more. */
  public static final long DEFAULT_MAX_QUEUED_BYTES = 16L << 20;
  /**
   * 10 s: generous for a TLS handshake over a slow link, short for a slowloris. Its twin after the
   * handshake is {@link Progress}: a peer inside a message must keep sending.
   */
  public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
  /** None by default: long-lived quiet connections are normal for WebSocket; pings detect death. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ZERO;
  /** None by default; servers behind proxies usually want 30 s. */
  public static final Duration DEFAULT_PING_INTERVAL = Duration.ZERO;
  /** 5 s: a live peer answers a close at once; a dead one must not hold the socket. */
  public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(5);
  /** 64 KiB: large reads save system calls; borrowed only while data flows. */
  public static final int DEFAULT_READ_BUFFER_SIZE = 64 * 1024;
  /** Zero, the ping interval: a peer gets as long to answer a ping as the interval between pings. */
  public static final Duration DEFAULT_PONG_TIMEOUT = Duration.ZERO;

  /** The defaults above. */
  public static final ConnectionConfig DEFAULTS =
      new ConnectionConfig(
          SessionConfig.DEFAULTS,
          DEFAULT_MAX_QUEUED_BYTES,
          DEFAULT_HANDSHAKE_TIMEOUT,
          DEFAULT_IDLE_TIMEOUT,
          DEFAULT_PING_INTERVAL,
          DEFAULT_CLOSE_TIMEOUT,
          DEFAULT_READ_BUFFER_SIZE,
          DEFAULT_PONG_TIMEOUT,
          SocketOptions.DEFAULTS,
          MemoryBudget.of(0, MemoryBudget.DEFAULT_STALL_TIMEOUT),
          Progress.DEFAULTS);

  /**
   * Checks the configuration.
   *
   * @param session the session rules, not null
   * @param maxQueuedBytes at least 1
   * @param handshakeTimeout positive
   * @param idleTimeout zero or positive
   * @param pingInterval zero or positive
   * @param closeTimeout positive
   * @param readBufferSize at least 1024
   * @param pongTimeout zero (the ping interval) or positive
   * @param socket not null
   * @param memory not null
   * @param progress not null
   */
  public ConnectionConfig {
    Objects.requireNonNull(session, "session");
    if (maxQueuedBytes < 1) {
      throw new IllegalArgumentException("maxQueuedBytes must be positive: " + maxQueuedBytes);
    }
    positive("handshakeTimeout", handshakeTimeout);
    notNegative("idleTimeout", idleTimeout);
    notNegative("pingInterval", pingInterval);
    positive("closeTimeout", closeTimeout);
    if (readBufferSize < 1024) {
      throw new IllegalArgumentException("readBufferSize must be at least 1024: " + readBufferSize);
    }
    notNegative("pongTimeout", pongTimeout);
    Objects.requireNonNull(socket, "socket");
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(progress, "progress");
  }

  /**
   * Checks a configuration with a memory budget of its own, of the default size.
   *
   * @param session the session rules, not null
   * @param maxQueuedBytes at least 1
   * @param handshakeTimeout positive
   * @param idleTimeout zero or positive
   * @param pingInterval zero or positive
   * @param closeTimeout positive
   * @param readBufferSize at least 1024
   * @param pongTimeout zero (the ping interval) or positive
   * @param socket not null
   */
  public ConnectionConfig(
      SessionConfig session,
      long maxQueuedBytes,
      Duration handshakeTimeout,
      Duration idleTimeout,
      Duration pingInterval,
      Duration closeTimeout,
      int readBufferSize,
      Duration pongTimeout,
      SocketOptions socket) {
    this(
        session, maxQueuedBytes, handshakeTimeout, idleTimeout, pingInterval, closeTimeout,
        readBufferSize, pongTimeout, socket, MemoryBudget.of(0, MemoryBudget.DEFAULT_STALL_TIMEOUT),
        Progress.DEFAULTS);
  }

  /**
   * Returns a copy with another memory budget.
   *
   * @param budget the budget the connections share
   * @return a new config
   */
  public ConnectionConfig withMemory(MemoryBudget budget) {
    return new ConnectionConfig(
        session, maxQueuedBytes, handshakeTimeout, idleTimeout, pingInterval, closeTimeout,
        readBufferSize, pongTimeout, socket, budget, progress);
  }

  /**
   * The slow-trickle rule, beside the handshake timeout: while a frame or a message is
   * incomplete, the peer must send at least {@code minBytes} in every {@code window}, or the
   * connection is closed with 1008. Between messages nothing is required (see the idle timeout),
   * and time while this end does not read is not held against the peer.
   *
   * @param window the window; positive
   * @param minBytes bytes per window; 0 to turn the rule off
   */
  public record Progress(Duration window, long minBytes) {
    /**
     * 30 s: long enough for any link that can carry a WebSocket at all to show progress, short
     * enough that a peer opening a 16 MiB frame and sending a byte now and then is gone soon.
     */
    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(30);

    /**
     * 30 KiB per 30 s, 1 KiB/s on average: a 2G mobile link does ten times that.
     */
    public static final long DEFAULT_MIN_BYTES = 30 * 1024;

    /** The defaults above. */
    public static final Progress DEFAULTS = new Progress(DEFAULT_WINDOW, DEFAULT_MIN_BYTES);

    /**
     * Checks the rule.
     *
     * @param window positive
     * @param minBytes zero or positive
     */
    public Progress {
      positive("progress window", window);
      if (minBytes < 0) {
        throw new IllegalArgumentException("minimum progress must not be negative: " + minBytes);
      }
    }
  }

  /**
   * Checks a configuration with the default pong timeout (the ping interval) and socket options.
   *
   * @param session the session rules, not null
   * @param maxQueuedBytes at least 1
   * @param handshakeTimeout positive
   * @param idleTimeout zero or positive
   * @param pingInterval zero or positive
   * @param closeTimeout positive
   * @param readBufferSize at least 1024
   */
  public ConnectionConfig(
      SessionConfig session,
      long maxQueuedBytes,
      Duration handshakeTimeout,
      Duration idleTimeout,
      Duration pingInterval,
      Duration closeTimeout,
      int readBufferSize) {
    this(
        session, maxQueuedBytes, handshakeTimeout, idleTimeout, pingInterval, closeTimeout,
        readBufferSize, DEFAULT_PONG_TIMEOUT, SocketOptions.DEFAULTS);
  }

  /**
   * Returns how long a pinged peer has to send something before it is taken as dead.
   *
   * @return {@link #pongTimeout()}, or the ping interval when that is zero
   */
  public Duration deadPeerTimeout() {
    return pongTimeout.isZero() ? pingInterval : pongTimeout;
  }

  /**
   * Describes the failure of a pinged peer that stayed silent, for both transports alike.
   *
   * @return a timeout that names the wait
   */
  public java.util.concurrent.TimeoutException deadPeer() {
    return new java.util.concurrent.TimeoutException(
        "keepalive: nothing received within "
            + deadPeerTimeout().toMillis()
            + " ms of a ping; the peer is taken as dead and the connection dropped");
  }

  private static void positive(String name, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive: " + d);
    }
  }

  private static void notNegative(String name, Duration d) {
    if (d == null || d.isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative: " + d);
    }
  }

  /**
   * TCP options of a connection's socket, for both transports, client and server.
   *
   * @param sendBuffer {@code SO_SNDBUF} in bytes; 0 for the operating system's default (which
   *     usually tunes itself)
   * @param receiveBuffer {@code SO_RCVBUF} in bytes; 0 for the operating system's default. A
   *     server sets it on its listening socket too, before binding, so that windows over 64 KiB
   *     can be negotiated
   * @param tcpNoDelay {@code TCP_NODELAY}: send small frames at once instead of waiting to
   *     coalesce them (Nagle's algorithm); on by default, as a message protocol wants
   */
  public record SocketOptions(int sendBuffer, int receiveBuffer, boolean tcpNoDelay) {
    /** OS buffer sizes, {@code TCP_NODELAY} on. */
    public static final SocketOptions DEFAULTS = new SocketOptions(0, 0, true);

    /**
     * Checks the options.
     *
     * @param sendBuffer zero or positive
     * @param receiveBuffer zero or positive
     * @param tcpNoDelay whether Nagle's algorithm is off
     */
    public SocketOptions {
      if (sendBuffer < 0 || receiveBuffer < 0) {
        throw new IllegalArgumentException(
            "socket buffer sizes must not be negative (0 is the OS default): send "
                + sendBuffer
                + ", receive "
                + receiveBuffer);
      }
    }

    /**
     * Sets the options on a connection's socket, before it connects.
     *
     * @param socket a client socket, or one a server accepted
     * @throws IOException when the OS refuses an option
     */
    public void applyTo(Socket socket) throws IOException {
      socket.setTcpNoDelay(tcpNoDelay);
      if (sendBuffer > 0) {
        socket.setSendBufferSize(sendBuffer);
      }
      if (receiveBuffer > 0) {
        socket.setReceiveBufferSize(receiveBuffer);
      }
    }

    /**
     * Sets the options on a connection's channel, before it connects.
     *
     * @param channel a client channel, or one a server accepted
     * @throws IOException when the OS refuses an option
     */
    public void applyTo(SocketChannel channel) throws IOException {
      channel.setOption(StandardSocketOptions.TCP_NODELAY, tcpNoDelay);
      if (sendBuffer > 0) {
        channel.setOption(StandardSocketOptions.SO_SNDBUF, sendBuffer);
      }
      if (receiveBuffer > 0) {
        channel.setOption(StandardSocketOptions.SO_RCVBUF, receiveBuffer);
      }
    }

    /**
     * Sets the receive buffer on a listening socket, before it binds; accepted sockets inherit it.
     *
     * @param listener the server socket
     * @throws IOException when the OS refuses it
     */
    public void applyToListener(ServerSocket listener) throws IOException {
      if (receiveBuffer > 0) {
        listener.setReceiveBufferSize(receiveBuffer);
      }
    }

    /**
     * Sets the receive buffer on a listening channel, before it binds; accepted channels inherit
     * it.
     *
     * @param listener the server channel
     * @throws IOException when the OS refuses it
     */
    public void applyToListener(ServerSocketChannel listener) throws IOException {
      if (receiveBuffer > 0) {
        listener.setOption(StandardSocketOptions.SO_RCVBUF, receiveBuffer);
      }
    }
  }
}
