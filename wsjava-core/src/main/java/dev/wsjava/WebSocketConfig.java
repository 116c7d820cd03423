package dev.wsjava;

import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.protocol.Limits;
import dev.wsjava.session.MemoryBudget;
import dev.wsjava.session.SessionConfig;
import dev.wsjava.transport.ConnectionConfig;
import dev.wsjava.transport.nio.EventLoopGroup;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Everything a client or server may tune, with safe defaults. Immutable; change it with {@link
 * #toBuilder()}.
 *
 * @param transport the I/O model
 * @param limits frame, message and fragment limits (1009 when a peer passes one)
 * @param deflate permessage-deflate settings, or {@code null} to neither offer nor accept it
 * @param subprotocols a client's offered subprotocols, in order of preference; a server's
 *     supported ones (the first the client offered that is in this list is chosen)
 * @param maxQueuedBytes the outbound queue bound per connection; sends past it fail fast
 * @param handshakeTimeout longest time to complete the opening handshake (and TLS)
 * @param idleTimeout close (1001) a connection that received nothing this long; zero for never
 * @param pingInterval ping a quiet peer this often (clients and servers alike); zero for never
 * @param closeTimeout longest wait for the peer's answer to a close
 * @param readBufferSize bytes read from a socket at once; 0 for the transport's default ({@link
 *     #DEFAULT_READ_BUFFER_SIZE}, or {@link #NIO_CLIENT_READ_BUFFER_SIZE} for an NIO client)
 * @param eventLoops NIO event loops; 0 for one per available processor
 * @param eventLoopSpin how long an NIO event loop of a few channels that has just handled I/O polls
 *     before it blocks (a wake-up saved per message when replies or the next messages come sooner;
 *     more CPU time while they do); zero to block at once
 * @param pongTimeout after a ping, how long the peer has to send anything (a pong or any other
 *     frame) before it is taken as dead: the connection is then dropped at once and reported
 *     closed with 1006 (no closing handshake: a dead peer cannot answer one); zero for the ping
 *     interval
 * @param socketSendBuffer each socket's {@code SO_SNDBUF} in bytes; 0 for the OS default
 * @param socketReceiveBuffer each socket's {@code SO_RCVBUF} in bytes; 0 for the OS default
 * @param tcpNoDelay {@code TCP_NODELAY}: frames go out at once rather than wait to be coalesced
 * @param memoryBudget bytes one server (or one client instance) may hold for all its peers
 *     together: messages being assembled or inflated, outbound queues past their first 64 KiB, HTTP
 *     bodies (see docs/MEMORY.md); 0 for a quarter of the JVM's maximum heap. When it is spent,
 *     connections that need more stop being read (TCP slows their peers) until memory comes back
 * @param memoryStallTimeout how long a connection may wait for the spent memory budget before the
 *     largest holder among the waiting connections is closed (1008)
 * @param minProgressBytes the slow-trickle rule, beside the handshake timeout: while a frame or
 *     message is incomplete the peer must send at least this many bytes per {@code progressWindow},
 *     or it is closed (1008); 0 turns the rule off
 * @param progressWindow the window of that rule
 * @param streamMessages whether data messages are delivered piece by piece as they arrive ({@link
 *     WebSocketListener#onMessagePart}, or {@link WebSocket#receiveStream()} without a listener)
 *     instead of whole: an application then takes messages far larger than its share of the
 *     memory budget in constant memory. The frame limit and the UTF-8 check of text still apply;
 *     the message limit of {@code limits} does not, {@code maxStreamedMessageSize} does
 * @param maxStreamedMessageSize the largest streamed message (1009 past it); {@link
 *     Long#MAX_VALUE} for no bound (the default)
 */
@SuppressWarnings("exports") // until WebSocketConfig is builder-only (issue 26, step 3)
public record WebSocketConfig(
    Transport transport,
    Limits limits,
    PerMessageDeflate deflate,
    List<String> subprotocols,
    long maxQueuedBytes,
    Duration handshakeTimeout,
    Duration idleTimeout,
    Duration pingInterval,
    Duration closeTimeout,
    int readBufferSize,
    int eventLoops,
    Duration eventLoopSpin,
    Duration pongTimeout,
    int socketSendBuffer,
    int socketReceiveBuffer,
    boolean tcpNoDelay,
    long memoryBudget,
    Duration memoryStallTimeout,
    long minProgressBytes,
    Duration progressWindow,
    boolean streamMessages,
    long maxStreamedMessageSize) {

  /** The read size of a server, and of a blocking client: a 64 KiB message in one read. */
  public static final int DEFAULT_READ_BUFFER_SIZE = ConnectionConfig.DEFAULT_READ_BUFFER_SIZE;

  /**
   * The read size of an NIO client. Smaller than a server's: against a Netty server echoing 64 KiB
   * messages (benchmark scenario 8), 64 KiB reads drained the socket faster than the server filled
   * it, so the loop slept and woke for each arriving piece while the sending thread on the same
   * core waited its turn; 16 KiB reads kept it reading in batches (about 1.25 times the MB/s, at
   * more CPU time per message). The blocking client measured better with 64 KiB.
   */
  public static final int NIO_CLIENT_READ_BUFFER_SIZE = 16 * 1024;

  /**
   * Checks the configuration.
   *
   * @param transport not null
   * @param limits not null
   * @param deflate may be null
   * @param subprotocols not null (copied)
   * @param maxQueuedBytes positive
   * @param handshakeTimeout positive
   * @param idleTimeout zero or positive
   * @param pingInterval zero or positive
   * @param closeTimeout positive
   * @param readBufferSize 0 (the transport's default) or at least 1024
   * @param eventLoops zero or positive
   * @param eventLoopSpin zero to one second
   * @param pongTimeout zero (the ping interval) or positive
   * @param socketSendBuffer zero (OS default) or positive
   * @param socketReceiveBuffer zero (OS default) or positive
   * @param tcpNoDelay whether Nagle's algorithm is off
   * @param memoryBudget 0 (a quarter of the maximum heap) or at least 64 KiB
   * @param memoryStallTimeout positive
   * @param minProgressBytes zero or positive
   * @param progressWindow positive
   * @param streamMessages whether messages are streamed
   * @param maxStreamedMessageSize zero or positive
   */
  public WebSocketConfig {
    Objects.requireNonNull(transport, "transport");
    Objects.requireNonNull(limits, "limits");
    subprotocols = List.copyOf(subprotocols);
    if (eventLoops < 0) {
      throw new IllegalArgumentException("eventLoops must not be negative: " + eventLoops);
    }
    EventLoopGroup.checkSpin(eventLoopSpin);
    new ConnectionConfig.Progress(progressWindow, minProgressBytes); // checks both
    limits.withMaxMessageSize(maxStreamedMessageSize); // checks it as a message limit
    if (memoryBudget != 0) {
      new MemoryBudget(memoryBudget, memoryStallTimeout, System::nanoTime); // checks both
    } else {
      MemoryBudget.of(0, memoryStallTimeout);
    }
    // The transport config checks the rest, with the same messages for both.
    new ConnectionConfig(
        SessionConfig.DEFAULTS, maxQueuedBytes, handshakeTimeout, idleTimeout, pingInterval,
        closeTimeout, readBufferSize == 0 ? DEFAULT_READ_BUFFER_SIZE : readBufferSize, pongTimeout,
        new ConnectionConfig.SocketOptions(socketSendBuffer, socketReceiveBuffer, tcpNoDelay));
  }

  /**
   * Returns the defaults: NIO, default limits, permessage-deflate on with its defaults, no
   * subprotocols, {@link ConnectionConfig}'s queue bound and timeouts, the OS's socket buffer sizes
   * and {@code TCP_NODELAY} on.
   *
   * @return the default configuration
   */
  public static WebSocketConfig defaults() {
    return new WebSocketConfig(
        Transport.NIO,
        Limits.DEFAULTS,
        PerMessageDeflate.defaults(),
        List.of(),
        ConnectionConfig.DEFAULT_MAX_QUEUED_BYTES,
        ConnectionConfig.DEFAULT_HANDSHAKE_TIMEOUT,
        ConnectionConfig.DEFAULT_IDLE_TIMEOUT,
        ConnectionConfig.DEFAULT_PING_INTERVAL,
        ConnectionConfig.DEFAULT_CLOSE_TIMEOUT,
        0,
        0,
        EventLoopGroup.DEFAULT_SPIN,
        ConnectionConfig.DEFAULT_PONG_TIMEOUT,
        0,
        0,
        true,
        0,
        MemoryBudget.DEFAULT_STALL_TIMEOUT,
        ConnectionConfig.Progress.DEFAULT_MIN_BYTES,
        ConnectionConfig.Progress.DEFAULT_WINDOW,
        false,
        Long.MAX_VALUE);
  }

  /**
   * Returns a builder starting from the defaults.
   *
   * @return a builder
   */
  public static Builder builder() {
    return defaults().toBuilder();
  }

  /**
   * Returns a builder starting from this configuration.
   *
   * @return a builder
   */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * The transport-level view of this configuration.
   *
   * @param nioClient whether it is for an NIO client, whose default read size is smaller
   */
  ConnectionConfig connectionConfig(boolean nioClient) {
    int defaultRead = nioClient ? NIO_CLIENT_READ_BUFFER_SIZE : DEFAULT_READ_BUFFER_SIZE;
    return new ConnectionConfig(
        new SessionConfig(
            streamMessages ? limits.withMaxMessageSize(maxStreamedMessageSize) : limits,
            true,
            streamMessages),
        maxQueuedBytes,
        handshakeTimeout,
        idleTimeout,
        pingInterval,
        closeTimeout,
        readBufferSize == 0 ? defaultRead : readBufferSize,
        pongTimeout,
        new ConnectionConfig.SocketOptions(socketSendBuffer, socketReceiveBuffer, tcpNoDelay),
        MemoryBudget.of(memoryBudget, memoryStallTimeout), // one per server or client instance
        new ConnectionConfig.Progress(progressWindow, minProgressBytes));
  }

  /** Builds a {@link WebSocketConfig}; each setter replaces one component. Not thread-safe. */
  public static final class Builder {
    private Transport transport;
    private Limits limits;
    private PerMessageDeflate deflate;
    private List<String> subprotocols;
    private long maxQueuedBytes;
    private Duration handshakeTimeout;
    private Duration idleTimeout;
    private Duration pingInterval;
    private Duration closeTimeout;
    private int readBufferSize;
    private int eventLoops;
    private Duration eventLoopSpin;
    private Duration pongTimeout;
    private int socketSendBuffer;
    private int socketReceiveBuffer;
    private boolean tcpNoDelay;
    private long memoryBudget;
    private Duration memoryStallTimeout;
    private long minProgressBytes;
    private Duration progressWindow;
    private boolean streamMessages;
    private long maxStreamedMessageSize;

    private Builder(WebSocketConfig c) {
      transport = c.transport;
      limits = c.limits;
      deflate = c.deflate;
      subprotocols = c.subprotocols;
      maxQueuedBytes = c.maxQueuedBytes;
      handshakeTimeout = c.handshakeTimeout;
      idleTimeout = c.idleTimeout;
      pingInterval = c.pingInterval;
      closeTimeout = c.closeTimeout;
      readBufferSize = c.readBufferSize;
      eventLoops = c.eventLoops;
      eventLoopSpin = c.eventLoopSpin;
      pongTimeout = c.pongTimeout;
      socketSendBuffer = c.socketSendBuffer;
      socketReceiveBuffer = c.socketReceiveBuffer;
      tcpNoDelay = c.tcpNoDelay;
      memoryBudget = c.memoryBudget;
      memoryStallTimeout = c.memoryStallTimeout;
      minProgressBytes = c.minProgressBytes;
      progressWindow = c.progressWindow;
      streamMessages = c.streamMessages;
      maxStreamedMessageSize = c.maxStreamedMessageSize;
    }

    /**
     * Delivers data messages piece by piece as they arrive instead of whole: see {@link
     * WebSocketConfig#streamMessages()}. Off by default.
     *
     * @param value true to stream
     * @return this builder
     */
    public Builder streamMessages(boolean value) {
      streamMessages = value;
      return this;
    }

    /**
     * Bounds the size of a streamed message (closed with 1009 past it); the message limit of
     * {@link #limits} applies to whole messages only.
     *
     * @param bytes zero or positive; {@link Long#MAX_VALUE} (the default) for no bound
     * @return this builder
     */
    public Builder maxStreamedMessageSize(long bytes) {
      maxStreamedMessageSize = bytes;
      return this;
    }

    /**
     * Sets the slow-trickle rule: while a frame or a message is incomplete, the peer must send at
     * least {@code minBytes} in every {@code window}, or it is closed with 1008. The default is 30
     * KiB per 30 s.
     *
     * @param minBytes bytes per window; 0 turns the rule off
     * @param window positive
     * @return this builder
     */
    public Builder minProgress(long minBytes, Duration window) {
      minProgressBytes = minBytes;
      progressWindow = window;
      return this;
    }

    /**
     * Sets the memory budget one server (or one client instance) shares among all its
     * connections: see {@link WebSocketConfig#memoryBudget()} and docs/MEMORY.md.
     *
     * @param bytes at least 64 KiB, or 0 for a quarter of the JVM's maximum heap (the default)
     * @return this builder
     */
    public Builder memoryBudget(long bytes) {
      memoryBudget = bytes;
      return this;
    }

    /**
     * Sets how long a connection may wait for the spent memory budget before the largest holder
     * among the waiting connections is closed with 1008.
     *
     * @param value positive; the default is 10 seconds
     * @return this builder
     */
    public Builder memoryStallTimeout(Duration value) {
      memoryStallTimeout = value;
      return this;
    }

    /**
     * Sets the transport.
     *
     * @param value NIO or BLOCKING
     * @return this builder
     */
    public Builder transport(Transport value) {
      transport = value;
      return this;
    }

    /**
     * Sets the limits.
     *
     * @param value frame, message and fragment limits
     * @return this builder
     */
    public Builder limits(Limits value) {
      limits = value;
      return this;
    }

    /**
     * Sets permessage-deflate, or turns it off with {@code null}.
     *
     * @param value the deflate settings, or null
     * @return this builder
     */
    public Builder deflate(PerMessageDeflate value) {
      deflate = value;
      return this;
    }

    /**
     * Sets the subprotocols.
     *
     * @param value in order of preference
     * @return this builder
     */
    public Builder subprotocols(List<String> value) {
      subprotocols = value;
      return this;
    }

    /**
     * Sets the outbound queue bound.
     *
     * @param value bytes
     * @return this builder
     */
    public Builder maxQueuedBytes(long value) {
      maxQueuedBytes = value;
      return this;
    }

    /**
     * Sets the handshake timeout.
     *
     * @param value positive
     * @return this builder
     */
    public Builder handshakeTimeout(Duration value) {
      handshakeTimeout = value;
      return this;
    }

    /**
     * Sets the idle timeout.
     *
     * @param value zero for none
     * @return this builder
     */
    public Builder idleTimeout(Duration value) {
      idleTimeout = value;
      return this;
    }

    /**
     * Sets the keepalive ping interval.
     *
     * @param value zero for none
     * @return this builder
     */
    public Builder pingInterval(Duration value) {
      pingInterval = value;
      return this;
    }

    /**
     * Sets how long a pinged peer has to send something before the connection is dropped as dead
     * (reported as 1006).
     *
     * @param value positive; zero for the ping interval (the default)
     * @return this builder
     */
    public Builder pongTimeout(Duration value) {
      pongTimeout = value;
      return this;
    }

    /**
     * Sets each socket's kernel buffers, client and server side, on both transports. Larger buffers
     * carry more bytes in flight on long fat links; the OS default usually tunes itself.
     *
     * @param sendBytes {@code SO_SNDBUF}; 0 for the OS default
     * @param receiveBytes {@code SO_RCVBUF}; 0 for the OS default (a server also sets it on its
     *     listening socket, before binding)
     * @return this builder
     */
    public Builder socketBuffers(int sendBytes, int receiveBytes) {
      socketSendBuffer = sendBytes;
      socketReceiveBuffer = receiveBytes;
      return this;
    }

    /**
     * Turns {@code TCP_NODELAY} on (the default: each frame goes out at once) or off (Nagle's
     * algorithm may hold small frames back to coalesce them, trading latency for fewer packets).
     *
     * @param value true for no delay
     * @return this builder
     */
    public Builder tcpNoDelay(boolean value) {
      tcpNoDelay = value;
      return this;
    }

    /**
     * Sets the close timeout.
     *
     * @param value positive
     * @return this builder
     */
    public Builder closeTimeout(Duration value) {
      closeTimeout = value;
      return this;
    }

    /**
     * Sets how many bytes a connection reads from its socket at once.
     *
     * @param value at least 1024 bytes, or 0 for the transport's default ({@link
     *     #DEFAULT_READ_BUFFER_SIZE}; {@link #NIO_CLIENT_READ_BUFFER_SIZE} for an NIO client)
     * @return this builder
     */
    public Builder readBufferSize(int value) {
      readBufferSize = value;
      return this;
    }

    /**
     * Sets the number of NIO event loops.
     *
     * @param value 0 for one per processor
     * @return this builder
     */
    public Builder eventLoops(int value) {
      eventLoops = value;
      return this;
    }

    /**
     * Sets how long an NIO event loop that has just handled I/O polls before it blocks.
     *
     * @param value zero (block at once) to one second; the default is {@link
     *     EventLoopGroup#DEFAULT_SPIN}
     * @return this builder
     */
    public Builder eventLoopSpin(Duration value) {
      eventLoopSpin = Objects.requireNonNull(value, "eventLoopSpin");
      return this;
    }

    /**
     * Builds the configuration.
     *
     * @return the immutable configuration
     * @throws IllegalArgumentException naming the first invalid value
     */
    public WebSocketConfig build() {
      return new WebSocketConfig(
          transport, limits, deflate, subprotocols, maxQueuedBytes, handshakeTimeout, idleTimeout,
          pingInterval, closeTimeout, readBufferSize, eventLoops, eventLoopSpin, pongTimeout, socketSendBuffer,
          socketReceiveBuffer, tcpNoDelay, memoryBudget, memoryStallTimeout, minProgressBytes,
          progressWindow, streamMessages, maxStreamedMessageSize);
    }
  }
}
