/**
 * The NIO transport: selector event loops that move bytes between sockets and {@link
 * dev.wsjava.session.Session sessions}, TLS through {@link javax.net.ssl.SSLEngine}, a WebSocket
 * server ({@link dev.wsjava.transport.nio.NioServer}) and client ({@link
 * dev.wsjava.transport.nio.NioClient}).
 *
 * <p>Each connection belongs to one {@link dev.wsjava.transport.nio.EventLoopGroup event loop} for
 * its whole life: its reads, writes and timers run on that loop's thread. Sends from other threads
 * encode their frame at once under the connection's lock and ask the loop to flush. No protocol
 * decision is made here: the handshake and session layers decide, this package moves bytes,
 * schedules timers and reports events. A connection's timers ({@code ConnectionTimers}) run on a
 * clock-and-scheduler seam, the loop in production; the tuning constants are in {@link
 * dev.wsjava.transport.Tuning}.
 *
 * <p>May import the sans-I/O layers, {@code dev.wsjava.proxy} and {@code dev.wsjava.transport};
 * never {@code transport.blocking} nor the API. Internal: not exported by the module.
 */
package dev.wsjava.transport.nio;
