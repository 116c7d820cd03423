/**
 * The HTTP/1.1 front of a WebSocket server, sans-I/O (RFC 9112 message syntax, RFC 9110 semantics):
 * requests parsed from received bytes, routed by exact path or template to handlers, static files
 * or WebSocket routes, and answered with response bytes the transport writes.
 *
 * <p>{@link dev.wsjava.internal.http.HttpConnection} owns one TCP connection: keep-alive,
 * pipelining, limits, timeouts (time is passed in) and the hand-over to a WebSocket session after
 * an upgrade. {@link dev.wsjava.internal.http.Router} is the immutable, shared routing table;
 * {@link dev.wsjava.internal.http.Request} is the server's {@link dev.wsjava.http.HttpRequest}.
 * Nothing here opens a socket, starts a thread or reads a clock; only static files touch the file
 * system.
 *
 * <p>May import {@code dev.wsjava.http} (the route types it serves), {@code dev.wsjava.handshake}
 * and {@code dev.wsjava.session}. Not exported: its name sits under {@code internal} because the
 * exported route types keep {@code dev.wsjava.http}.
 */
package dev.wsjava.internal.http;
