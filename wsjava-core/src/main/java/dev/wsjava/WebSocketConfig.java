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
 * Everything a client or server may tune, with safe defaults: the one place each setting is made.
 * Build one with {@link #builder()} and hand it to {@link WebSocketServer.Builder#config} or {@link
 * WebSocketClient.Builder#config}; change one with {@link #toBuilder()}. Each setter of {@link
 * Builder} gives its default and the reason for it; the accessors here return what was set.
 *
 * <p>Immutable and thread-safe. Internally each layer gets its own configuration, made once from
 * this one when a server or client is built: the transport's connection settings, the session's
 * limits and the HTTP front's timeouts.
 */
public final class WebSocketConfig {
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

  private static final WebSocketConfig DEFAULTS = new Builder().build();

  private final Transport transport;
  private final Limits limits;
  private final PerMessageDeflate deflate;
  private final List<String> subprotocols;
  private final long maxQueuedBytes;
  private final Duration handshakeTimeout;
  private final Duration idleTimeout;
  private final Duration pingInterval;
  private final Duration closeTimeout;
  private final int readBufferSize;
  private final int eventLoops;
  private final Duration eventLoopSpin;
  private final Duration pongTimeout;
  private final ConnectionConfig.SocketOptions socket;
  private final long memoryBudget;
  private final Duration memoryStallTimeout;
  private final ConnectionConfig.Progress progress;
  private final boolean streamMessages;
  private final long maxStreamedMessageSize;
  private final int maxOutboundFramePayload;

  private WebSocketConfig(Builder b) {
    transport = Objects.requireNonNull(b.transport, "transport");
    limits = new Limits(b.maxFramePayload, b.maxMessageSize, b.maxFragments); // checks them
    deflate = b.deflate;
    subprotocols = List.copyOf(b.subprotocols);
    maxQueuedBytes = b.maxQueuedBytes;
    handshakeTimeout = b.handshakeTimeout;
    idleTimeout = b.idleTimeout;
    pingInterval = b.pingInterval;
    closeTimeout = b.closeTimeout;
    readBufferSize = b.readBufferSize;
    if (b.eventLoops < 0) {
      throw new IllegalArgumentException("eventLoops must not be negative: " + b.eventLoops);
    }
    eventLoops = b.eventLoops;
    eventLoopSpin = EventLoopGroup.checkSpin(b.eventLoopSpin);
    pongTimeout = b.pongTimeout;
    socket =
        new ConnectionConfig.SocketOptions(b.socketSendBuffer, b.socketReceiveBuffer, b.tcpNoDelay);
    memoryBudget = b.memoryBudget;
    memoryStallTimeout = b.memoryStallTimeout;
    progress = new ConnectionConfig.Progress(b.progressWindow, b.minProgressBytes);
    streamMessages = b.streamMessages;
    maxStreamedMessageSize = b.maxStreamedMessageSize;
    if (b.maxOutboundFramePayload < 125) {
      throw new IllegalArgumentException(
          "maxOutboundFramePayload must be at least 125: " + b.maxOutboundFramePayload);
    }
    maxOutboundFramePayload = b.maxOutboundFramePayload;
    limits.withMaxMessageSize(maxStreamedMessageSize); // checks it as a message limit
    // The transport's own configuration checks the rest (the memory budget's too), with the same
    // messages for both.
    connectionConfig(false);
  }

  /**
   * Returns the defaults: what {@link #builder()} starts from.
   *
   * @return the default configuration
   */
  public static WebSocketConfig defaults() {
    return DEFAULTS;
  }

  /**
   * Starts a configuration from the defaults.
   *
   * @return a builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts a configuration from this one.
   *
   * @return a builder holding this configuration's settings
   */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * The transport's configuration of every connection of one server or client, made once when it
   * is built.
   *
   * @param nioClient whether it is for an NIO client (its default read size differs)
   */
  ConnectionConfig connectionConfig(boolean nioClient) {
    int defaultRead = nioClient ? NIO_CLIENT_READ_BUFFER_SIZE : DEFAULT_READ_BUFFER_SIZE;
    return new ConnectionConfig(
        new SessionConfig(
            streamMessages ? limits.withMaxMessageSize(maxStreamedMessageSize) : limits,
            true,
            streamMessages,
            maxOutboundFramePayload),
        maxQueuedBytes,
        handshakeTimeout,
        idleTimeout,
        pingInterval,
        closeTimeout,
        readBufferSize == 0 ? defaultRead : readBufferSize,
        pongTimeout,
        socket,
        MemoryBudget.of(memoryBudget, memoryStallTimeout), // one per server or client instance
        progress);
  }

  /**
   * Names the first server-wide setting in which {@code route} differs from this configuration:
   * those a server's routes share (one listener, one set of event loops, one memory budget).
   *
   * @param route a route's configuration, made from this one
   * @return the setting's name, or null when the route changed none
   */
  String serverWideDifference(WebSocketConfig route) {
    if (route.transport != transport) {
      return "transport";
    }
    if (route.eventLoops != eventLoops) {
      return "eventLoops";
    }
    if (!route.eventLoopSpin.equals(eventLoopSpin)) {
      return "eventLoopSpin";
    }
    if (route.readBufferSize != readBufferSize) {
      return "readBufferSize";
    }
    if (!route.socket.equals(socket)) {
      return "socket options";
    }
    if (!route.handshakeTimeout.equals(handshakeTimeout)) {
      return "handshakeTimeout";
    }
    if (route.memoryBudget != memoryBudget || !route.memoryStallTimeout.equals(memoryStallTimeout)) {
      return "the memory budget";
    }
    return null;
  }

  /** The three protocol limits, as the layers below take them. */
  Limits limits() {
    return limits;
  }

  /**
   * Returns the transport.
   *
   * @return what {@link Builder#transport} set
   */
  public Transport transport() {
    return transport;
  }

  /**
   * Returns the largest frame payload.
   *
   * @return what {@link Builder#maxFramePayload} set
   */
  public long maxFramePayload() {
    return limits.maxFramePayload();
  }

  /**
   * Returns the largest whole message.
   *
   * @return what {@link Builder#maxMessageSize} set
   */
  public long maxMessageSize() {
    return limits.maxMessageSize();
  }

  /**
   * Returns the most frames one message may have.
   *
   * @return what {@link Builder#maxFragments} set
   */
  public int maxFragments() {
    return limits.maxFragments();
  }

  /**
   * Returns the permessage-deflate settings.
   *
   * @return what {@link Builder#deflate} set; null when deflate is off
   */
  public PerMessageDeflate deflate() {
    return deflate;
  }

  /**
   * Returns the subprotocols.
   *
   * @return what {@link Builder#subprotocols} set
   */
  public List<String> subprotocols() {
    return subprotocols;
  }

  /**
   * Returns the outbound queue bound.
   *
   * @return what {@link Builder#maxQueuedBytes} set
   */
  public long maxQueuedBytes() {
    return maxQueuedBytes;
  }

  /**
   * Returns the handshake timeout.
   *
   * @return what {@link Builder#handshakeTimeout} set
   */
  public Duration handshakeTimeout() {
    return handshakeTimeout;
  }

  /**
   * Returns the idle timeout.
   *
   * @return what {@link Builder#idleTimeout} set
   */
  public Duration idleTimeout() {
    return idleTimeout;
  }

  /**
   * Returns the ping interval.
   *
   * @return what {@link Builder#pingInterval} set
   */
  public Duration pingInterval() {
    return pingInterval;
  }

  /**
   * Returns the pong timeout.
   *
   * @return what {@link Builder#pongTimeout} set
   */
  public Duration pongTimeout() {
    return pongTimeout;
  }

  /**
   * Returns the close timeout.
   *
   * @return what {@link Builder#closeTimeout} set
   */
  public Duration closeTimeout() {
    return closeTimeout;
  }

  /**
   * Returns the read size.
   *
   * @return what {@link Builder#readBufferSize} set; 0 for the transport's default
   */
  public int readBufferSize() {
    return readBufferSize;
  }

  /**
   * Returns the number of NIO event loops.
   *
   * @return what {@link Builder#eventLoops} set; 0 for one per processor
   */
  public int eventLoops() {
    return eventLoops;
  }

  /**
   * Returns the NIO event loops' spin.
   *
   * @return what {@link Builder#eventLoopSpin} set
   */
  public Duration eventLoopSpin() {
    return eventLoopSpin;
  }

  /**
   * Returns each socket's {@code SO_SNDBUF}.
   *
   * @return what {@link Builder#socketBuffers} set; 0 for the OS default
   */
  public int socketSendBuffer() {
    return socket.sendBuffer();
  }

  /**
   * Returns each socket's {@code SO_RCVBUF}.
   *
   * @return what {@link Builder#socketBuffers} set; 0 for the OS default
   */
  public int socketReceiveBuffer() {
    return socket.receiveBuffer();
  }

  /**
   * Returns whether {@code TCP_NODELAY} is on.
   *
   * @return what {@link Builder#tcpNoDelay} set
   */
  public boolean tcpNoDelay() {
    return socket.tcpNoDelay();
  }

  /**
   * Returns the memory budget.
   *
   * @return what {@link Builder#memoryBudget} set; 0 for a quarter of the maximum heap
   */
  public long memoryBudget() {
    return memoryBudget;
  }

  /**
   * Returns the memory stall timeout.
   *
   * @return what {@link Builder#memoryStallTimeout} set
   */
  public Duration memoryStallTimeout() {
    return memoryStallTimeout;
  }

  /**
   * Returns the slow-trickle rule's minimum.
   *
   * @return the bytes {@link Builder#minProgress} set
   */
  public long minProgressBytes() {
    return progress.minBytes();
  }

  /**
   * Returns the slow-trickle rule's window.
   *
   * @return the window {@link Builder#minProgress} set
   */
  public Duration progressWindow() {
    return progress.window();
  }

  /**
   * Returns whether messages are streamed.
   *
   * @return what {@link Builder#streamMessages} set
   */
  public boolean streamMessages() {
    return streamMessages;
  }

  /**
   * Returns the largest streamed message.
   *
   * @return what {@link Builder#maxStreamedMessageSize} set
   */
  public long maxStreamedMessageSize() {
    return maxStreamedMessageSize;
  }

  /**
   * Returns the largest data frame payload this end sends.
   *
   * @return what {@link Builder#maxOutboundFramePayload} set
   */
  public int maxOutboundFramePayload() {
    return maxOutboundFramePayload;
  }

  /**
   * Compares every setting.
   *
   * @param o another object
   * @return true for a configuration with the same settings
   */
  @Override
  public boolean equals(Object o) {
    return o instanceof WebSocketConfig c
        && c.transport == transport
        && c.limits.equals(limits)
        && Objects.equals(c.deflate, deflate)
        && c.subprotocols.equals(subprotocols)
        && c.maxQueuedBytes == maxQueuedBytes
        && c.handshakeTimeout.equals(handshakeTimeout)
        && c.idleTimeout.equals(idleTimeout)
        && c.pingInterval.equals(pingInterval)
        && c.closeTimeout.equals(closeTimeout)
        && c.readBufferSize == readBufferSize
        && c.eventLoops == eventLoops
        && c.eventLoopSpin.equals(eventLoopSpin)
        && c.pongTimeout.equals(pongTimeout)
        && c.socket.equals(socket)
        && c.memoryBudget == memoryBudget
        && c.memoryStallTimeout.equals(memoryStallTimeout)
        && c.progress.equals(progress)
        && c.streamMessages == streamMessages
        && c.maxStreamedMessageSize == maxStreamedMessageSize
        && c.maxOutboundFramePayload == maxOutboundFramePayload;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        transport, limits, deflate, subprotocols, maxQueuedBytes, handshakeTimeout, idleTimeout,
        pingInterval, closeTimeout, readBufferSize, eventLoops, eventLoopSpin, pongTimeout, socket,
        memoryBudget, memoryStallTimeout, progress, streamMessages, maxStreamedMessageSize,
        maxOutboundFramePayload);
  }

  /**
   * Sets what a {@link WebSocketConfig} holds. Starts from the defaults; each setter names its
   * default and why it is that. Not thread-safe; {@link #build()} checks every value.
   */
  public static final class Builder {
    private Transport transport = Transport.NIO;
    private long maxFramePayload = Limits.DEFAULT_MAX_FRAME_PAYLOAD;
    private long maxMessageSize = Limits.DEFAULT_MAX_MESSAGE_SIZE;
    private int maxFragments = Limits.DEFAULT_MAX_FRAGMENTS;
    private PerMessageDeflate deflate = PerMessageDeflate.defaults();
    private List<String> subprotocols = List.of();
    private long maxQueuedBytes = ConnectionConfig.DEFAULT_MAX_QUEUED_BYTES;
    private Duration handshakeTimeout = ConnectionConfig.DEFAULT_HANDSHAKE_TIMEOUT;
    private Duration idleTimeout = ConnectionConfig.DEFAULT_IDLE_TIMEOUT;
    private Duration pingInterval = ConnectionConfig.DEFAULT_PING_INTERVAL;
    private Duration closeTimeout = ConnectionConfig.DEFAULT_CLOSE_TIMEOUT;
    private int readBufferSize;
    private int eventLoops;
    private Duration eventLoopSpin = EventLoopGroup.DEFAULT_SPIN;
    private Duration pongTimeout = ConnectionConfig.DEFAULT_PONG_TIMEOUT;
    private int socketSendBuffer;
    private int socketReceiveBuffer;
    private boolean tcpNoDelay = true;
    private long memoryBudget;
    private Duration memoryStallTimeout = MemoryBudget.DEFAULT_STALL_TIMEOUT;
    private long minProgressBytes = ConnectionConfig.Progress.DEFAULT_MIN_BYTES;
    private Duration progressWindow = ConnectionConfig.Progress.DEFAULT_WINDOW;
    private boolean streamMessages;
    private long maxStreamedMessageSize = Long.MAX_VALUE;
    private int maxOutboundFramePayload = SessionConfig.DEFAULT_MAX_OUTBOUND_FRAME;

    private Builder() {}

    private Builder(WebSocketConfig c) {
      transport = c.transport;
      maxFramePayload = c.limits.maxFramePayload();
      maxMessageSize = c.limits.maxMessageSize();
      maxFragments = c.limits.maxFragments();
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
      socketSendBuffer = c.socket.sendBuffer();
      socketReceiveBuffer = c.socket.receiveBuffer();
      tcpNoDelay = c.socket.tcpNoDelay();
      memoryBudget = c.memoryBudget;
      memoryStallTimeout = c.memoryStallTimeout;
      minProgressBytes = c.progress.minBytes();
      progressWindow = c.progress.window();
      streamMessages = c.streamMessages;
      maxStreamedMessageSize = c.maxStreamedMessageSize;
      maxOutboundFramePayload = c.maxOutboundFramePayload;
    }

    /**
     * Sets the I/O model. Default {@link Transport#NIO}: a few event-loop threads serve any number
     * of connections, the cheapest per idle connection; {@link Transport#BLOCKING} gives each
     * connection a virtual thread, plain stack traces, and measured faster for large messages.
     *
     * @param value not null
     * @return this builder
     */
    public Builder transport(Transport value) {
      transport = value;
      return this;
    }

    /**
     * Sets the largest frame payload a peer may send; past it the connection closes with 1009.
     * Default 16 MiB: the same as the message limit, so a peer that sends one large unfragmented
     * message is not refused while no frame can make this side buffer more than a message's worth.
     *
     * @param bytes at least 125 (the largest control frame)
     * @return this builder
     */
    public Builder maxFramePayload(long bytes) {
      maxFramePayload = bytes;
      return this;
    }

    /**
     * Sets the largest message a peer may send, after inflating; past it the connection closes with
     * 1009. Default 16 MiB: a message is assembled in memory, so this bounds what one peer can make
     * this side hold (the memory budget bounds all of them together); stream larger messages with
     * {@link #streamMessages}.
     *
     * @param bytes zero or more
     * @return this builder
     */
    public Builder maxMessageSize(long bytes) {
      maxMessageSize = bytes;
      return this;
    }

    /**
     * Sets the most frames one message may be split into; past it the connection closes with 1009.
     * Default unbounded: the message limit already bounds the memory, and each frame is handled
     * in constant time.
     *
     * @param count at least 1
     * @return this builder
     */
    public Builder maxFragments(int count) {
      maxFragments = count;
      return this;
    }

    /**
     * Sets the permessage-deflate settings (RFC 7692), or turns it off. Default {@link
     * PerMessageDeflate#defaults()}: offered by clients and accepted by servers, since text
     * messages usually shrink severalfold, with the inflated size bounded by the message limit.
     *
     * @param value the settings, or null to neither offer nor accept it
     * @return this builder
     */
    public Builder deflate(PerMessageDeflate value) {
      deflate = value;
      return this;
    }

    /**
     * Sets a client's offered subprotocols, in order of preference, or a server's supported ones
     * (the first the client offered that is in this list is chosen). Default none: a subprotocol is
     * the application's contract, so there is none to assume.
     *
     * @param value the tokens, not null (copied)
     * @return this builder
     */
    public Builder subprotocols(List<String> value) {
      subprotocols = value;
      return this;
    }

    /**
     * Sets the outbound queue bound of each connection. The rule: an empty queue accepts a message
     * of any size (so one large message is never refused for its size alone); otherwise a send
     * that would take the queue past this bound fails at once with {@link SendQueueFullException}.
     * The send streams ({@link WebSocket#sendBinaryStream()}) wait instead. Default 16 MiB: a peer that does not read cannot make this side
     * hold unbounded memory, while a burst of a few large messages still queues.
     *
     * <p>A server stops reading a connection whose queue holds more than half this bound after
     * the events of a read, until the queue is written out: a peer that sends faster than it reads
     * the answers (an echo flood) is slowed by TCP, and the answers a listener sends from its
     * callbacks are not refused. A client does not (two ends waiting for each other to read would
     * wait for good).
     *
     * @param bytes at least 1
     * @return this builder
     */
    public Builder maxQueuedBytes(long bytes) {
      maxQueuedBytes = bytes;
      return this;
    }

    /**
     * Sets the longest time to complete the opening handshake (and TLS, and a plain HTTP request).
     * Default 10 s: a peer that connects and stalls holds a socket only this long, which still
     * covers a slow network's TLS handshake.
     *
     * @param value positive
     * @return this builder
     */
    public Builder handshakeTimeout(Duration value) {
      handshakeTimeout = value;
      return this;
    }

    /**
     * Sets how long a connection may receive nothing before it is closed (1001). Default zero,
     * never: quiet connections are normal for many applications; turn on pings to find dead peers.
     *
     * @param value zero or positive
     * @return this builder
     */
    public Builder idleTimeout(Duration value) {
      idleTimeout = value;
      return this;
    }

    /**
     * Sets how often a quiet peer is pinged (clients and servers alike). Default zero, never: a
     * ping costs both sides a frame and a wake-up, so the application opts in (30 s keeps most
     * NAT and proxy mappings alive).
     *
     * @param value zero or positive
     * @return this builder
     */
    public Builder pingInterval(Duration value) {
      pingInterval = value;
      return this;
    }

    /**
     * Sets how long the peer has, after a ping, to send anything (a pong or any other frame)
     * before it is taken as dead: the connection is then dropped at once and reported closed with
     * 1006 (no closing handshake: a dead peer cannot answer one). Default zero, meaning the ping
     * interval: a peer gets until the next ping would be due.
     *
     * @param value zero (the ping interval) or positive
     * @return this builder
     */
    public Builder pongTimeout(Duration value) {
      pongTimeout = value;
      return this;
    }

    /**
     * Sets the longest wait for the peer's answer to a close frame. Default 5 s: a peer that
     * never answers holds its socket only this long, and a live one answers in a round trip.
     *
     * @param value positive
     * @return this builder
     */
    public Builder closeTimeout(Duration value) {
      closeTimeout = value;
      return this;
    }

    /**
     * Sets the bytes read from a socket at once. Default 0, the transport's own: {@link
     * #DEFAULT_READ_BUFFER_SIZE} for servers and blocking clients, {@link
     * #NIO_CLIENT_READ_BUFFER_SIZE} for NIO clients (the reasons are on the constants).
     *
     * @param bytes 0 or at least 1024
     * @return this builder
     */
    public Builder readBufferSize(int bytes) {
      readBufferSize = bytes;
      return this;
    }

    /**
     * Sets how many NIO event loops a server or client runs. Default 0, one per available
     * processor: a loop is one thread, so more loops than cores only add switches.
     *
     * @param count zero or positive
     * @return this builder
     */
    public Builder eventLoops(int count) {
      eventLoops = count;
      return this;
    }

    /**
     * Sets how long, at most, an NIO event loop that has just handled I/O polls before it blocks:
     * a wake-up saved per message when replies or the next messages come sooner, more CPU time
     * while they do. The poll adapts below this bound: one that finds nothing halves the next
     * (down to a few microseconds) and makes the loop skip polling for a while; one that finds
     * work restores the whole bound. Default 50 µs (on 1 and on 2 cores the shortest spin that
     * gets the whole latency gain; docs/benchmarks/TUNING.md). Zero for a server that must not
     * spend CPU waiting.
     *
     * @param value zero (block at once) to one second
     * @return this builder
     */
    public Builder eventLoopSpin(Duration value) {
      eventLoopSpin = Objects.requireNonNull(value, "eventLoopSpin");
      return this;
    }

    /**
     * Sets each socket's {@code SO_SNDBUF} and {@code SO_RCVBUF}. Default 0 for both, the OS's:
     * Linux tunes them per connection, which fixed sizes would turn off.
     *
     * @param sendBytes zero (OS default) or positive
     * @param receiveBytes zero (OS default) or positive
     * @return this builder
     */
    public Builder socketBuffers(int sendBytes, int receiveBytes) {
      socketSendBuffer = sendBytes;
      socketReceiveBuffer = receiveBytes;
      return this;
    }

    /**
     * Sets {@code TCP_NODELAY}. Default on: a frame is a message the peer waits for, and Nagle's
     * algorithm with delayed acknowledgements can hold a small one back for tens of milliseconds.
     *
     * @param value whether Nagle's algorithm is off
     * @return this builder
     */
    public Builder tcpNoDelay(boolean value) {
      tcpNoDelay = value;
      return this;
    }

    /**
     * Sets the bytes one server (or one client instance) may hold for all its peers together:
     * messages being assembled or inflated, outbound queues past their first 64 KiB, HTTP bodies
     * (see docs/MEMORY.md). When it is spent, connections that need more stop being read (TCP slows
     * their peers) until memory comes back. Default 0, a quarter of the JVM's maximum heap: many
     * peers at their message limit cannot exhaust the heap, and the application keeps the rest.
     *
     * @param bytes 0 or at least 64 KiB
     * @return this builder
     */
    public Builder memoryBudget(long bytes) {
      memoryBudget = bytes;
      return this;
    }

    /**
     * Sets how long a connection may wait for the spent memory budget before the largest holder
     * among the waiting connections is closed (1008). Default 10 s: long enough for a burst to
     * drain, short enough that peers holding memory on purpose are cut loose.
     *
     * @param value positive
     * @return this builder
     */
    public Builder memoryStallTimeout(Duration value) {
      memoryStallTimeout = value;
      return this;
    }

    /**
     * Sets the slow-trickle rule, beside the handshake timeout: while a frame or message is
     * incomplete the peer must send at least {@code minBytes} per {@code window}, or it is closed
     * (1008). Default 30 KiB per 30 s: a peer dribbling a byte at a time cannot hold an assembly
     * buffer open for ever, and any real link sends far more.
     *
     * @param minBytes zero (the rule off) or positive
     * @param window positive
     * @return this builder
     */
    public Builder minProgress(long minBytes, Duration window) {
      minProgressBytes = minBytes;
      progressWindow = window;
      return this;
    }

    /**
     * Sets whether data messages are delivered piece by piece as they arrive ({@link
     * WebSocketListener#onMessagePart}, or {@link WebSocket#receiveStream()} without a listener)
     * instead of whole: an application then takes messages far larger than its share of the memory
     * budget in constant memory. The frame limit and the UTF-8 check of text still apply; the
     * message limit does not, {@link #maxStreamedMessageSize} does. Default off: whole messages are
     * what most applications want.
     *
     * @param value whether messages are streamed
     * @return this builder
     */
    public Builder streamMessages(boolean value) {
      streamMessages = value;
      return this;
    }

    /**
     * Sets the largest streamed message (1009 past it). Default unbounded: streaming holds no
     * message in memory, so the size is the application's concern.
     *
     * @param bytes zero or positive
     * @return this builder
     */
    public Builder maxStreamedMessageSize(long bytes) {
      maxStreamedMessageSize = bytes;
      return this;
    }

    /**
     * Sets the largest payload of a data frame this end sends: a message whose payload (after
     * compression) is larger goes out as several frames of at most this size, and a compressed
     * message is compressed one such slice at a time. Default 64 KiB: the frame limit of Netty's
     * and Jetty's decoders by default, so any common peer takes a large message as fragments
     * instead of refusing it with 1009. Larger frames cost less CPU per byte sent
     * (docs/benchmarks/LARGE-MESSAGES.md, "Sending large messages"): raise it (to 1 MiB, say) for
     * a peer known to take large frames, such as another wsjava (16 MiB) or a browser (none).
     *
     * @param bytes at least 125
     * @return this builder
     */
    public Builder maxOutboundFramePayload(int bytes) {
      maxOutboundFramePayload = bytes;
      return this;
    }

    /**
     * Checks every value and builds the configuration.
     *
     * @return the configuration
     * @throws IllegalArgumentException naming the first value out of range
     * @throws NullPointerException when a required value is null
     */
    public WebSocketConfig build() {
      return new WebSocketConfig(this);
    }
  }
}
