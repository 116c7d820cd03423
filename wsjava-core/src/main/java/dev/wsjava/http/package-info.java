/**
 * The HTTP/1.1 front of a WebSocket server, sans-I/O (RFC 9112 message syntax, RFC 9110 semantics):
 * requests parsed from received bytes, routed by exact path to handlers, static files or WebSocket
 * routes, and answered with response bytes the transport writes.
 *
 * <p>{@link dev.wsjava.http.HttpConnection} owns one TCP connection: keep-alive, pipelining,
 * limits, timeouts (time is passed in) and the hand-over to a WebSocket session after an upgrade.
 * {@link dev.wsjava.http.Router} is the immutable, shared routing table. Nothing here opens a
 * socket, starts a thread or reads a clock; only static files touch the file system.
 *
 * <p>May import {@code dev.wsjava.handshake} and {@code dev.wsjava.session}. Exported by the module
 * for the plain HTTP routes (handler, request, response); {@code HttpConnection} and {@code
 * ResponseWriter} are exported with them, which issue 26 plans to undo.
 */
package dev.wsjava.http;
